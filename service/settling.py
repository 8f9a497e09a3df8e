"""After an append: the new fold kept in this process's cache, the game's clock indexed and
scheduled (``service.clocks``) and the scheduler told (its bots' turns, a replay's export)."""

from __future__ import annotations

import logging

from service import clocks, public
from service.cache import StateCache
from service.folding import Loaded
from service.scheduling import Scheduler
from service.store.port import ClockIndex

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
