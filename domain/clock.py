"""Clocks: a turn time and a bank per seat, every clock fact an event (docs/service.md, "Clocks").

Options every game takes through its lifecycle: ``turn_seconds`` (0, the default: no clock),
``bank_seconds`` and ``increment_seconds`` (a bank per seat, Fischer-like: the turn time runs
first, then the bank; a seat that moves in time gets the increment added to its bank, a move
later than its turn time plus its bank leaves the bank empty) and ``on_timeout``: ``move`` (the
domain's default move, ``domain.default_move``) or ``forfeit`` (the game ends and the timed-out
seat loses, scored as a resignation).

Wall time never enters a fold by itself: the service stamps each command with ``at`` (Unix
milliseconds) and the events record it. After every batch that changes who the game waits on
``ClockSet`` records every seat's deadline (``null``: not running) and bank; a seat has run out
of time at ``deadline + bank``. ``TimedOut`` records the service enforcing it; the default
move's own events (and the next ``ClockSet``) follow in the same batch, or the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from domain.errors import IllegalAction, InvalidOptions
from domain.events import Event
from domain.options import Option, parse_options

DAY = 24 * 3600
MOVE, FORFEIT = "move", "forfeit"

OPTIONS: tuple[Option, ...] = (
    Option(name="turn_seconds", kind="int", default=0, minimum=0, maximum=DAY,
           doc="seconds a seat has for each move before its bank runs; 0: no clock"),
    Option(name="bank_seconds", kind="int", default=0, minimum=0, maximum=7 * DAY,
           doc="each seat's bank: seconds used once a turn's time has run out"),
    Option(name="increment_seconds", kind="int", default=0, minimum=0, maximum=DAY,
           doc="seconds added to a seat's bank after each move made in time"),
    Option(name="on_timeout", kind="choice", default=MOVE, choices=(MOVE, FORFEIT),
           doc="when a seat runs out of time: move (the default move is made for it, "
               "docs/service.md) or forfeit (the game ends, that seat loses as if it resigned)"),
)  # fmt: skip
NAMES = frozenset(o.name for o in OPTIONS)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSet(Event):
    """Who is on the clock after a batch: per seat its deadline (ms, None: not running) and
    its bank (ms); ``at`` is when the batch was recorded."""

    TYPE: ClassVar[str] = "lifecycle.ClockSet"
    at: int
    deadlines: tuple[int | None, ...]
    banks: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TimedOut(Event):
    """A seat ran out of time at ``at``; ``on_timeout`` says what follows (a move or the end)."""

    TYPE: ClassVar[str] = "lifecycle.TimedOut"
    seat: int
    at: int
    on_timeout: str


EVENTS: tuple[type[Event], ...] = (ClockSet, TimedOut)


@dataclass(frozen=True, slots=True, kw_only=True)
class Clock:
    """A game's clock settings (ms) and where it stands."""

    turn_ms: int
    bank_ms: int
    increment_ms: int
    on_timeout: str
    deadlines: tuple[int | None, ...]
    banks: tuple[int, ...]
    at: int | None = None
    forfeited: int | None = None

    def limit(self, seat: int) -> int | None:
        """When that seat runs out of time (None: its clock is not running)."""
        deadline = self.deadlines[seat]
        return None if deadline is None else deadline + self.banks[seat]

    def next_due(self) -> tuple[int, int] | None:
        """(when, seat) of the first seat to run out of time, None when no clock runs."""
        limits = [(self.limit(s), s) for s in range(len(self.deadlines))]
        running = [(int(when), s) for when, s in limits if when is not None]
        return min(running) if running else None


def split(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the game's own options, the clock's) from a creation's options."""
    if not isinstance(options, Mapping):
        raise InvalidOptions("options must be an object")
    mine = {k: v for k, v in options.items() if k in NAMES}
    return {k: v for k, v in options.items() if k not in NAMES}, mine


def parse(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The clock options that differ from the defaults (none: no clock); bad values refused."""
    parsed = parse_options(OPTIONS, raw)
    if parsed["turn_seconds"] == 0:
        for name in ("bank_seconds", "increment_seconds"):
            if parsed[name]:
                raise InvalidOptions(f"option {name} needs a clock: set turn_seconds above 0")
        if raw.get("on_timeout", MOVE) != MOVE:  # the default, given, changes nothing
            raise InvalidOptions("option on_timeout needs a clock: set turn_seconds above 0")
        return {}
    return dict(parsed)


def from_options(options: Mapping[str, Any], players: int) -> Clock | None:
    """The clock a game was created with (None: no clock)."""
    turn = int(options.get("turn_seconds") or 0)
    if turn <= 0:
        return None
    bank = int(options.get("bank_seconds") or 0) * 1000
    return Clock(
        turn_ms=turn * 1000,
        bank_ms=bank,
        increment_ms=int(options.get("increment_seconds") or 0) * 1000,
        on_timeout=str(options.get("on_timeout") or MOVE),
        deadlines=(None,) * players,
        banks=(bank,) * players,
    )


def evolve(clock: Clock, event: ClockSet | TimedOut) -> Clock:
    """Fold one clock event."""
    if isinstance(event, ClockSet):
        return replace(clock, at=event.at, deadlines=event.deadlines, banks=event.banks)
    deadlines, banks = list(clock.deadlines), list(clock.banks)
    deadlines[event.seat], banks[event.seat] = None, 0
    forfeited = event.seat if event.on_timeout == FORFEIT else clock.forfeited
    return replace(
        clock, at=event.at, deadlines=tuple(deadlines), banks=tuple(banks), forfeited=forfeited
    )


def after_batch(
    clock: Clock | None, awaited: Sequence[int], mover: int | None, at: int | None
) -> list[Event]:
    """The ClockSet a batch ends with (none when nothing changed, no clock or no stamp).

    The mover, if it was on the clock, pays the time past its deadline from its bank and earns
    the increment, unless it was later than its bank covers: its bank is then empty and stays
    so; a seat newly awaited starts its turn at ``at``; one still awaited keeps its deadline (a
    simultaneous phase); one no longer awaited stops.
    """
    if clock is None or at is None:
        return []
    deadlines, banks = list(clock.deadlines), list(clock.banks)
    deadline = deadlines[mover] if mover is not None and 0 <= mover < len(deadlines) else None
    if mover is not None and deadline is not None:
        banks[mover] = paid(banks[mover], at - deadline, clock.increment_ms)
        deadlines[mover] = None
    for seat in range(len(deadlines)):
        if seat not in awaited:
            deadlines[seat] = None
        elif deadlines[seat] is None:
            deadlines[seat] = at + clock.turn_ms
    if tuple(deadlines) == clock.deadlines and tuple(banks) == clock.banks:
        return []
    return [ClockSet(at=at, deadlines=tuple(deadlines), banks=tuple(banks))]


def paid(bank: int, late: int, increment: int) -> int:
    """A mover's bank after a move ``late`` ms past its turn's deadline (negative: early): in
    time (before deadline + bank, when ``timed_out`` would refuse) the lateness is paid from the
    bank and the increment earned; out of time the bank is empty and stays empty."""
    return bank - max(0, late) + increment if late < bank else 0


def timed_out(clock: Clock | None, seat: int, at: int) -> TimedOut:
    """The TimedOut of that seat at ``at``, or IllegalAction when its time has not run out."""
    if clock is None:
        raise IllegalAction("this game has no clock", reason="no_clock")
    if not isinstance(seat, int) or not 0 <= seat < len(clock.deadlines):
        raise IllegalAction(f"no seat {seat!r} on the clock", reason="no_clock")
    limit = clock.limit(seat)
    if limit is None:
        raise IllegalAction(f"seat {seat} is not on the clock", reason="no_clock")
    if not isinstance(at, int) or at < limit:
        raise IllegalAction(
            f"seat {seat} has time until {limit} ms, it is {at!r}", reason="time_left"
        )
    return TimedOut(seat=seat, at=at, on_timeout=clock.on_timeout)


def forfeit_outcome(seat: int, players: int) -> dict[str, Any]:
    """Scored as a resignation: the timed-out seat loses the game (or match), the others win."""
    others = [s for s in range(players) if s != seat]
    return {"reason": "timed_out", "timed_out": seat, "winners": others, "losers": [seat]}


def view(clock: Clock | None) -> dict[str, Any] | None:
    """The clock as every seat sees it (None: no clock)."""
    if clock is None:
        return None
    return {
        "turn_seconds": clock.turn_ms // 1000,
        "bank_seconds": clock.bank_ms // 1000,
        "increment_seconds": clock.increment_ms // 1000,
        "on_timeout": clock.on_timeout,
        "at": clock.at,
        "deadlines": list(clock.deadlines),
        "banks": list(clock.banks),
    }


def remaining_ms(clock_view: Mapping[str, Any], now_ms: int) -> list[int]:
    """Each seat's time left at ``now_ms``: until deadline + bank when running, else its bank."""
    out = []
    for deadline, bank in zip(clock_view["deadlines"], clock_view["banks"], strict=True):
        out.append(int(bank) if deadline is None else max(0, int(deadline) + int(bank) - now_ms))
    return out


def stamp(command: dict[str, Any], clocked: bool, at: int | None) -> dict[str, Any]:
    """A stored command with the time it was recorded at, when the game has a clock."""
    if clocked and at is not None:
        command["at"] = at
    return command
