"""The service's side of clocks (``domain.clock``): it stamps, indexes, schedules and enforces.

The domain only records the times the service gives it. Here: the stamp (Unix ms from the
service's injectable clock), when a folded game's clock is next due, the deadline index kept in
the store (written ahead of an append, so a process dying after the append still leaves the
sweeper a time to look at the game), the remaining time a view adds at read time, and the
enforcement itself: a timeout appended under the version it was decided on, so it is recorded
at most once and not at all when the game moved on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain import clock
from domain.lifecycle import Lifecycle, timeout_command
from domain.protocol import fold
from service import dealing, shapes
from service.folding import Loaded
from service.store.port import EventStore, VersionConflict
from service.store.records import salt_of

if TYPE_CHECKING:
    from service.base import ServiceBase

log = logging.getLogger(__name__)


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


def hint(store: EventStore, game_id: str, state: Any) -> None:
    """Note ahead of an append when the state it leads to is due (nothing for unclocked)."""
    due = next_due(state)
    if due is not None:
        store.hint_clock(game_id, due[0])


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


def enforce(
    service: ServiceBase,
    game_id: str,
    *,
    expected_version: int | None = None,
) -> str:
    """Record the timeout of the first seat out of time, if one is (at most once: the append
    names the version the timeout was decided on). Says what it did."""
    loaded = service.load(game_id)
    if expected_version is not None and loaded.version != expected_version:
        return f"moved on: the game is at version {loaded.version}"
    due = next_due(loaded.state)
    at = now_ms(service.wall)
    if loaded.over or due is None:
        return "no clock runs"
    if at < due[0]:
        return f"not due: {due[0] - at} ms left"
    rules, keys = loaded.game, dealing.keys_of(loaded.meta)
    if not isinstance(rules, Lifecycle) or keys is None:
        return "no clock runs"
    seat = due[1]
    events = rules.timeout(loaded.state, seat, at, keys, loaded.version)
    state = fold(rules, events, loaded.state)
    encoded = [rules.codec.encode(e) for e in events]
    over = rules.outcome(state) is not None
    salt = salt_of(loaded.meta)
    hint(service.store, game_id, state)
    try:
        service.store.append(game_id, loaded.version, encoded, timeout_command(seat, at),
                             prev_hash=loaded.head_hash, status="over" if over else None,
                             salt=salt)  # fmt: skip
    except VersionConflict:
        return "moved on while deciding"
    head = shapes.head(encoded, loaded.head_hash, salt)
    service.settle(Loaded(loaded.meta, rules, state, loaded.version + len(encoded), head))
    log.info("game %s: seat %s timed out (%s late)", game_id, seat, at - due[0])
    return f"timed out seat {seat} at {at} ({at - due[0]} ms after its time)"


def after_append(service: ServiceBase, loaded: Loaded) -> None:
    """Index and schedule the next due time of a clocked game (drop it once the game is over)."""
    if not clocked(loaded.state):
        return
    store, game_id = service.store, loaded.meta.id
    due = None if loaded.over else next_due(loaded.state)
    if due is None:
        store.reset_clock(game_id, None, None)
        return
    store.hint_clock(game_id, due[0])
    schedule = getattr(service.scheduler, "schedule_clock", None)
    if schedule is not None:
        schedule(game_id, loaded.version, due[0] / 1000)
