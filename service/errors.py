"""Errors of the service layer: request problems that are neither rules nor storage.

Like domain errors they carry a stable ``code``; ``service.api.problems`` maps codes to HTTP.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base: a refused request with a machine code and a readable message."""

    code = "service_error"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class InvalidRequest(ServiceError):
    """The request is malformed (fields, types, sizes)."""

    code = "invalid_request"


class InvalidField(ServiceError):
    """One field of the request holds what no field may (bad text, a huge integer)."""

    code = "invalid_field"

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field} {problem}", field=field)


class NotFound(ServiceError):
    """No such game or seat."""

    code = "not_found"


class GameArchived(ServiceError):
    """The game is over and left the store for the archive: its summary, events, replay and
    verification are still served; nothing else is."""

    code = "game_archived"


class GameLive(ServiceError):
    """The game is being played: an operator stops it before purging it."""

    code = "game_playing"


class ForkSealed(ServiceError):
    """A seat's fork of a game still being played: only that seat reads it (and forks, reviews
    or replays none of it) until the source game ends (docs/analysis.md)."""

    code = "fork_sealed"


class GameNotOver(ServiceError):
    """A replay exists once the game is over."""

    code = "game_not_over"


class Unauthorized(ServiceError):
    """A missing or unknown seat token."""

    code = "unauthorized"


class Forbidden(ServiceError):
    """Acting for a seat the token does not hold."""

    code = "forbidden"


class SeatLeft(ServiceError):
    """The token's holder left the seat (lifecycle.SeatLeft): it acts for nobody now."""

    code = "seat_left"


class SeatNotOpen(ServiceError):
    """The seat was joined already or belongs to a bot."""

    code = "seat_taken"


class UnknownBot(ServiceError):
    """A bot seat names a bot nobody registered (``known``: the built-in and operator's ones)."""

    code = "unknown_bot"


class BotUnavailable(ServiceError):
    """A bot seat names a user bot that no live worker or connected client serves now
    (``missing``: its seats, names and last heartbeats); the create may ask to wait for it."""

    code = "bot_unavailable"


class BotAccountsFull(ServiceError):
    """The service holds as many bot names as it may (CARDROOM_BOT_ACCOUNTS_MAX)."""

    code = "bot_accounts_full"


class BotExists(ServiceError):
    """A bot account's name is taken (a built-in bot, a worker's bot, another account)."""

    code = "bot_exists"
