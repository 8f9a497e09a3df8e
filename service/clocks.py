"""The service's side of clocks (``domain.clock``): it stamps, indexes, schedules and enforces.

The domain only records the times the service gives it. Here: the stamp (Unix ms from the
service's injectable clock), when a folded game's clock is next due, the deadline index kept in
the store (written ahead of an append, so a process dying after the append still leaves the
sweeper a time to look at the game) and the remaining time a view adds at read time. The
enforcement itself is a use case of the action path (``service.acting``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import clock
from service.folding import Loaded
from service.scheduling import Scheduler
from service.store.port import ClockIndex


def now_ms(wall: Callable[[], float]) -> int:
    """The stamp: the service's clock in whole Unix milliseconds."""
    return int(wall() * 1000)


def clocked(state: Any) -> bool:
    """True for a game with a clock (a lifecycle state whose options set one)."""
    return getattr(state, "clock", None) is not None


def next_due(state: Any) -> tuple[int, int] | None:
    """(when in ms, seat) the game's clock is next due; None when none runs or it is over."""
    running = getattr(state, "clock", None)
    return None if running is None else running.next_due()


def hint(clocks: ClockIndex, game_id: str, state: Any) -> None:
    """Note ahead of an append when the state it leads to is due (nothing for unclocked)."""
    due = next_due(state)
    if due is not None:
        clocks.hint_clock(game_id, due[0])


def stamp(command: dict[str, Any], state: Any, at: int) -> dict[str, Any]:
    """The stored command with its time ``at`` when the game has a clock (the replay audit
    re-runs it at that time)."""
    return clock.stamp(command, clocked(state), at)


def shown(state: Any, at_ms: int) -> dict[str, Any] | None:
    """A game's clock as a summary shows it, with each seat's time left now."""
    found: dict[str, Any] | None = add_remaining(
        {"clock": clock.view(getattr(state, "clock", None))}, at_ms
    )["clock"]
    return found


def add_remaining(view: dict[str, Any], at_ms: int) -> dict[str, Any]:
    """A view's clock with each seat's time left now (``remaining_ms``), when it has one and
    the game is not over."""
    shown = view.get("clock")
    if isinstance(shown, dict) and view.get("outcome") is None:
        view["clock"] = {**shown, "remaining_ms": clock.remaining_ms(shown, at_ms),
                         "now": at_ms}  # fmt: skip
    return view


def after_append(clocks: ClockIndex, scheduler: Scheduler, loaded: Loaded) -> None:
    """Index and schedule the next due time of a clocked game (drop it once the game is over)."""
    if not clocked(loaded.state):
        return
    game_id = loaded.meta.id
    due = None if loaded.over else next_due(loaded.state)
    if due is None:
        clocks.reset_clock(game_id, None, None)
        return
    clocks.hint_clock(game_id, due[0])
    schedule = getattr(scheduler, "schedule_clock", None)
    if schedule is not None:
        schedule(game_id, loaded.version, due[0] / 1000)
