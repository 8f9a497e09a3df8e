"""Domain errors: game words with a stable machine ``code`` and a message a person can read.

The HTTP edge maps ``code`` to a status; nothing here knows about HTTP. ``reason`` narrows
the code (``"too_low"``, ``"must_follow_suit"``) for clients that want to react precisely; every
reason is registered once in ``domain.reasons`` and passed by keyword.
"""

from __future__ import annotations

from domain.reasons import REASONS


class DomainError(Exception):
    """Base of every rule or input error the domain raises."""

    code = "domain_error"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason or self.code
        if self.reason not in REASONS:
            raise ValueError(f"reason {self.reason!r} is not registered in domain.reasons")

    def to_dict(self) -> dict[str, str]:
        """The error as plain data."""
        return {"code": self.code, "reason": self.reason, "detail": self.message}


class IllegalAction(DomainError):
    """The action breaks a rule of the game."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat may not act now."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """The game has ended; nothing more can be done."""

    code = "game_over"


class InvalidAction(DomainError):
    """The action is malformed: unknown type, missing or ill-typed fields."""

    code = "invalid_action"


class InvalidCard(InvalidAction):
    """A card code that does not exist."""

    code = "invalid_card"


class InvalidOptions(DomainError):
    """Unknown option, bad value, or a forbidden combination."""

    code = "invalid_options"


class InvalidSetup(DomainError):
    """Bad player count, dealer or seed."""

    code = "invalid_setup"


class InvalidDeal(InvalidSetup):
    """An explicit deal with unknown or duplicate cards or wrong zone sizes."""

    code = "invalid_deal"

    def __init__(self, message: str, *, reason: str | None = None, field: str | None = None):
        super().__init__(message, reason=reason)
        self.field = field  # the deal's field at fault (``deal.extra.match_points``), if one


class UnknownGame(DomainError):
    """No game of that name."""

    code = "unknown_game"
