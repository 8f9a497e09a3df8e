"""Who sits at the table: abort and leave, the lifecycle's options of every game.

Pure (no clock, no randomness). The lifecycle (``domain.lifecycle``) folds these events into its
``Table`` and calls ``abort``/``leave`` for the actions of the same names; docs/rules/*.md
("Abort and leave") state the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from domain import idle
from domain.errors import IllegalAction
from domain.events import Event
from domain.options import Option

if TYPE_CHECKING:
    from domain.table import Table


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortAgreed(Event):
    """After the deal, a person's seat agreed to abort (the game ends once every person has)."""

    TYPE: ClassVar[str] = "lifecycle.AbortAgreed"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameAborted(Event):
    """The game was aborted: before the deal by one seated person, after it by every person."""

    TYPE: ClassVar[str] = "lifecycle.GameAborted"
    agreed: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLeft(Event):
    """A person left a seat (or the service found a seat's bot gone, ``domain.idle``): it is
    open again (``bot`` None) or that bot took it over."""

    TYPE: ClassVar[str] = "lifecycle.SeatLeft"
    seat: int
    bot: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRetaken(Event):
    """A person took a seat left open after the deal (the deal's entropy is not redrawn)."""

    TYPE: ClassVar[str] = "lifecycle.SeatRetaken"
    seat: int


# Options of every game, kept by the lifecycle (in GameCreated.options only when not default,
# so a game created before they existed re-runs unchanged).
LEAVE_BOTS = ("heuristic", "random")
TABLE_OPTIONS: tuple[Option, ...] = (
    Option(name="on_leave", kind="choice", default="open", choices=("open", "bot"),
           doc="when a person leaves after the deal: 'open' (the seat opens again and the game "
               "waits for someone to take it) or 'bot' (leave_bot takes the seat over)"),
    Option(name="leave_bot", kind="choice", default="heuristic", choices=LEAVE_BOTS,
           doc="the built-in bot that takes over a seat a person leaves (on_leave 'bot')"),
    Option(name="rights_grace_ms", kind="int", default=1500, minimum=0, maximum=10_000,
           doc="milliseconds a bot waits before its move while a person at the table may make "
               "an optional move out of turn (a Shithead ten out of turn); 0: no wait"),
    idle.OPTION,
)  # fmt: skip
TABLE_NAMES = frozenset(o.name for o in TABLE_OPTIONS)


def abort(state: Table[Any], seat: int) -> list[Event]:
    """Before the deal one seated person aborts; after it every person must agree (bots are
    never asked). An agreement stands until the game ends (docs/decisions.md, "Abort")."""
    if seat not in state.people:
        raise IllegalAction(f"seat {seat} is not held by a person: only people abort",
                            reason="abort_not_a_person")  # fmt: skip
    if state.inner is None:
        return [GameAborted(agreed=(seat,))]
    if seat in state.agreed:
        raise IllegalAction(f"seat {seat} has already agreed to abort",
                            reason="abort_already_agreed")  # fmt: skip
    agreed = tuple(sorted({*state.agreed, seat}))
    events: list[Event] = [AbortAgreed(seat=seat)]
    if set(state.people) <= set(agreed):
        events.append(GameAborted(agreed=agreed))
    return events


def leave(state: Table[Any], seat: int) -> list[Event]:
    """A person leaves: before the deal the seat opens (its entropy withdrawn); after it the seat
    opens (the game waits) or ``leave_bot`` takes it over, as ``on_leave`` says. If every person
    left at the table had agreed to abort, the game is aborted now."""
    if seat not in state.people:
        raise IllegalAction(f"seat {seat} is not held by a person: nobody to leave it",
                            reason="leave_not_a_person")  # fmt: skip
    by_bot = state.inner is not None and state.table_option("on_leave") == "bot"
    events: list[Event] = [SeatLeft(seat=seat, bot=state.table_option("leave_bot") if by_bot
                                    else None)]  # fmt: skip
    rest = set(state.people) - {seat}
    if state.inner is not None and rest and rest <= set(state.agreed):
        events.append(GameAborted(agreed=tuple(sorted(rest))))
    return events


def left(state: Table[Any], event: SeatLeft) -> Table[Any]:
    seat = event.seat
    agreed = tuple(s for s in state.agreed if s != seat)
    state = replace(state, left=(*state.left, seat))
    if state.inner is None:
        entropy = tuple(None if i == seat else e for i, e in enumerate(state.entropy))
        return replace(state, entropy=entropy, agreed=agreed)
    if event.bot is None:
        return replace(state, vacant=tuple(sorted({*state.vacant, seat})), agreed=agreed)
    return replace(state, taken_over=(*state.taken_over, (seat, event.bot)), agreed=agreed)


def seat_list(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)
