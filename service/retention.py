"""Retention: a finished game leaves Redis for the archive after ``CARDROOM_ARCHIVE_AFTER``
seconds (its replay file and its public summary), so Redis holds live games and indexes only.

``Retention(service, archive, after, retention=store).run()`` archives the games that ended
long enough ago (the store's end-time index, earliest first); workers run it every
``CARDROOM_ARCHIVE_INTERVAL`` seconds (``workers.archiver``), ``cardroom archive`` by hand.
Moving one game: its summary and replay file are taken from the store, the replay is verified
(``replays.verify``), both are kept by the archive and read back, and only then is the game
purged from the store. A game whose replay does not verify stays in Redis (logged). A crash at
any step is completed by the next run: archiving again is idempotent, and so is purging.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from replays.format import loads
from replays.verify import check
from service.archive import Archive, ArchivedGame
from service.errors import GameArchived, NotFound
from service.games import GameService
from service.store import port

log = logging.getLogger("cardroom.retention")

DEFAULT_AFTER = 3600.0  # seconds a finished game stays in Redis
DEFAULT_INTERVAL = 60.0  # seconds between the workers' runs


@dataclass(frozen=True, slots=True)
class Moved:
    """What happened to one game: ``archived``, ``already archived``, ``unknown``, ``not
    over``, ``sealed`` (a sealed fork, kept in Redis) or ``refused: <why>`` (kept in Redis)."""

    game_id: str
    outcome: str


class Retention:
    """Moves finished games from the service's store to ``archive``: which are due, and
    forgetting one, is the store's ``retention``."""

    def __init__(
        self,
        service: GameService,
        archive: Archive,
        after: float = DEFAULT_AFTER,
        clock: Callable[[], float] = time.time,
        *,
        retention: port.Retention,
    ) -> None:
        self.service, self.archive, self.after, self.clock = service, archive, after, clock
        self.retention = retention

    def due(self, limit: int = 100) -> list[str]:
        """Games that ended more than ``after`` seconds ago, earliest first."""
        return self.retention.ended_before(self.clock() - self.after, limit)

    def run(self, limit: int = 100) -> list[Moved]:
        """Archive up to ``limit`` games that are due. A sealed fork (kept in Redis until its
        source ends) does not count: the games due after it are asked for, so that the forks
        kept do not hold back the games due behind them."""
        moved: list[Moved] = []
        asked: set[str] = set()
        sealed = 0
        while len(moved) - sealed < limit:
            fresh = [g for g in self.due(limit + sealed) if g not in asked]
            if not fresh:
                break
            for game_id in fresh[: limit - (len(moved) - sealed)]:
                asked.add(game_id)
                moved.append(self.archive_game(game_id))
                sealed += moved[-1].outcome == "sealed"
        return moved

    def archive_game(self, game_id: str) -> Moved:
        """Move one finished game to the archive (whenever it ended)."""
        try:
            loaded = self.service.load(game_id)
        except (GameArchived, NotFound) as gone:
            self.retention.purge(game_id)  # what a crash left behind: the index entries
            return Moved(game_id, "already archived" if isinstance(gone, GameArchived) else
                         "unknown")  # fmt: skip
        if not loaded.over:
            return Moved(game_id, "not over")
        if self.service.sealed(loaded.meta.forked):
            return Moved(game_id, "sealed")  # a sealed fork is archived once its source ends
        archived = ArchivedGame(
            id=game_id,
            summary=self.service.summary(game_id),
            replay=self.service.replay_file(game_id),
        )
        problem = _unverified(archived)
        if not problem:
            self.archive.put(archived)
            problem = "" if self.archive.get(game_id) == archived else "it read back otherwise"
        if problem:
            log.error("game %s stays in Redis: %s", game_id, problem)
            return Moved(game_id, f"refused: {problem}")
        self.retention.purge(game_id)
        self.service.cache.discard(game_id)
        return Moved(game_id, "archived")


def _unverified(archived: ArchivedGame) -> str:
    """Why the archived replay file does not verify ("" when it does)."""
    report = check(loads(archived.replay))
    return "" if report.ok else f"its replay does not verify: {report.summary()}"
