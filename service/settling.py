"""After an append: the new fold kept in this process's cache, the game's clock indexed and
scheduled (``service.clocks``) and the scheduler told (its bots' turns, a replay's export).
``record`` is the append of a batch decided on a loaded game followed by all that."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.events import Event
from service import clocks, digests, public
from service.cache import StateCache
from service.folding import Loaded
from service.loading import GameLoader
from service.scheduling import Scheduler
from service.store.port import ClockIndex, EventLog, VersionConflict
from service.store.records import salt_of

log = logging.getLogger("service.games")  # the use cases' logger, named as before the split


class AfterAppend:
    """What every use case does once its append is stored."""

    def __init__(self, cache: StateCache, clock_index: ClockIndex, scheduler: Scheduler) -> None:
        self.cache = cache
        self.clock_index = clock_index
        self.scheduler = scheduler

    def settle(self, loaded: Loaded) -> bool:
        """Keep the new fold, then ``notify``; whether the scheduler took it."""
        self.cache.keep(loaded)
        return self.notify(loaded)

    def notify(self, loaded: Loaded) -> bool:
        """Index and schedule the game's clock and tell the scheduler (best effort: the append
        happened; the sweeper finds what a failure here missed). Whether the scheduler took
        it."""
        try:
            clocks.after_append(self.clock_index, self.scheduler, loaded)
        except Exception:  # the append happened; the sweeper finds the clock in the index
            log.exception("clock scheduling failed after game %s v%s", loaded.meta.id,
                          loaded.version)  # fmt: skip
        try:
            self.scheduler.after_append(
                loaded.meta.id,
                loaded.version,
                game=loaded.meta.game,
                seats=public.public_seats(loaded.meta),
                to_act=tuple(loaded.game.awaited_seats(loaded.state)),
                over=loaded.over,
            )
        except Exception:  # the append happened; scheduling is best effort
            log.exception(
                "scheduler failed after game %s version %s", loaded.meta.id, loaded.version
            )
            return False
        return True


def record(
    log: EventLog,
    after: AfterAppend,
    loaded: Loaded,
    events: Sequence[Event],
    state: Any,
    command: Mapping[str, Any],
    status: str | None,
) -> Loaded:
    """Append ``events`` (decided on ``loaded``, leading to ``state``) under ``loaded``'s
    version and settle the game after them; VersionConflict when it moved meanwhile."""
    rules, salt = loaded.game, salt_of(loaded.meta)
    encoded = [rules.codec.encode(e) for e in events]
    log.append(loaded.meta.id, loaded.version, encoded, command, prev_hash=loaded.head_hash,
               status=status, salt=salt)  # fmt: skip
    head = digests.head(encoded, loaded.head_hash, salt)
    moved = Loaded(loaded.meta, rules, state, loaded.version + len(encoded), head)
    after.settle(moved)
    return moved


class Recording:
    """A use case that moves a game on as time passes (a clock's timeout, an idle seat): what it
    is given, and its batches recorded with the clock's next deadline hinted first."""

    def __init__(
        self,
        loader: GameLoader,
        log: EventLog,
        clock_index: ClockIndex,
        after: AfterAppend,
        clock: Callable[[], float],
    ) -> None:
        self.loader = loader
        self.log = log
        self.clock_index = clock_index
        self.after = after
        self.clock = clock

    def record(
        self,
        loaded: Loaded,
        events: Sequence[Event],
        state: Any,
        command: Mapping[str, Any],
        status: str | None,
    ) -> Loaded | None:
        """``record`` with the clock hinted; None when the game moved meanwhile."""
        clocks.hint(self.clock_index, loaded.meta.id, state)
        try:
            return record(self.log, self.after, loaded, events, state, command, status)
        except VersionConflict:
            return None
