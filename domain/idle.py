"""Inactivity: no game waits forever on a seat that never moves (docs/service.md, "Inactivity").

``idle_seconds``, an option of every game (kept by the lifecycle), is how long the game may
wait on a seat it awaits without any move being recorded. The service watches the time (the
domain has no clock); the domain says what follows, as its own batch after ``SeatIdled``:

- a seat a person holds is handled as ``on_leave`` says, as if the person had left
  (``domain.seating.leave``: the seat opens and the game waits, or ``leave_bot`` takes over);
- a bot's seat gets the default move (``domain.default_move``), as a timeout would; when the
  service finds that bot gone (no live worker or connected client serves it), ``leave_bot``
  takes the seat over instead (``SeatLeft`` naming it), so the game plays on at a bot's pace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.errors import NotYourTurn
from domain.events import Event
from domain.options import Option

DAY = 24 * 3600
DEFAULT_IDLE_SECONDS = 3600

OPTION = Option(
    name="idle_seconds", kind="int", default=DEFAULT_IDLE_SECONDS, minimum=5, maximum=7 * DAY,
    doc="seconds the game waits on a seat without a move before it moves on: a person's seat "
        "is handled as on_leave says (opened, or leave_bot takes it), a bot's gets the "
        "default move",
)  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatIdled(Event):
    """The game awaited ``seat`` for its ``idle_seconds`` without a move: what follows in the
    batch is that seat's leave (a person's) or its default move (a bot's)."""

    TYPE: ClassVar[str] = "lifecycle.SeatIdled"
    seat: int


def idle_command(seat: int, rule: int, gone: bool = False) -> dict[str, object]:
    """The stored command of an idle batch (``rule``: the default move's, for a bot's seat;
    ``gone``: the seat's bot was gone, so ``leave_bot`` took it over)."""
    command: dict[str, object] = {"kind": "idle", "seat": seat, "rule": rule}
    return {**command, "gone": True} if gone else command


def check_awaited(seat: object, awaited: tuple[int, ...]) -> int:
    """The seat, when the game awaits it; else the error saying it cannot be idle."""
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in awaited:
        raise NotYourTurn(f"the game does not wait on seat {seat!r}: it cannot be idle")
    return seat
