"""A bot's fallback: its runner asks for the default move instead of the bot's own.

A bot runner (``cardroom bot run``, the service's workers) sends ``{"type": "fallback",
"reason": R}`` for a bot seat the game awaits when the bot raised (``raised``), took longer
than its runner allows (``timeout``) or answered an action the rules refuse (``illegal``). The
batch is ``lifecycle.BotFellBack`` (the seat, the reason, the default move's rule number) and
then the default move's own events (``domain.default_move``, seeded by the game's seed, the
version and the seat): recorded, shown in the replay and the table, re-derived by the audit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.errors import IllegalAction, InvalidAction, NotYourTurn
from domain.events import Event

FALLBACK = "fallback"
REASONS = ("raised", "timeout", "illegal")


@dataclass(frozen=True, slots=True, kw_only=True)
class BotFellBack(Event):
    """A bot seat's runner asked for the default move (rule ``rule``) because of ``reason``."""

    TYPE: ClassVar[str] = "lifecycle.BotFellBack"
    seat: int
    reason: str
    rule: int


def is_fallback(action: Any) -> bool:
    """Whether an action is a fallback request."""
    return isinstance(action, Mapping) and action.get("type") == FALLBACK


def checked_reason(action: Mapping[str, Any], is_bot: bool, awaited: bool, seat: int) -> str:
    """The reason of a fallback that may be made, or the error saying why not."""
    extra = ", ".join(sorted(set(action) - {"type", "reason"}))
    if extra:
        raise InvalidAction(f"a fallback takes only type and reason, not {extra}")
    reason = action.get("reason")
    if reason not in REASONS:
        raise InvalidAction(f"a fallback's reason is one of {', '.join(REASONS)}, not {reason!r}",
                            reason="unknown_fallback_reason")  # fmt: skip
    if not is_bot:
        raise IllegalAction(f"seat {seat} is not a bot's: only a bot falls back",
                            reason="fallback_not_a_bot")  # fmt: skip
    if not awaited:
        raise NotYourTurn(f"the game does not wait on seat {seat}: nothing to fall back on")
    return str(reason)
