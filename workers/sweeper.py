"""Re-run bot turns that were lost: a killed worker, a crash between an append and its hook.

Every ``interval`` seconds one sweeper (a Redis lock elects it among all workers) lists the live
games. A game whose version has not moved since the previous sweep and whose seat to act is a
bot gets that turn enqueued again under a new job id (attempt 1, 2, 3), unless the turn is
still waiting in its queue (say, a user's bot worker is not running). Duplicates are harmless:
the turn job checks the version and submits with an idempotency key.
"""

from __future__ import annotations

import logging
import os
import threading

from rq.job import Job, JobStatus

from service.games import GameService
from workers import config
from workers.scheduler import RQScheduler, bot_of, turn_job_id

log = logging.getLogger("cardroom.sweeper")

MAX_ATTEMPTS = 3
LIVE = ("playing", "waiting")
WAITING = (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED)


def interval() -> float:
    """Seconds between sweeps (``CARDROOM_SWEEP_INTERVAL``, default 2)."""
    return float(os.environ.get("CARDROOM_SWEEP_INTERVAL") or 2.0)


class Sweeper:
    """Finds live games stalled on a bot's turn and re-enqueues that turn."""

    def __init__(self, service: GameService, scheduler: RQScheduler, limit: int = 1000) -> None:
        self.service = service
        self.scheduler = scheduler
        self.limit = limit
        self._seen: dict[str, int] = {}
        self._attempts: dict[tuple[str, int], int] = {}

    def tick(self) -> int:
        """One sweep; returns how many turns were re-enqueued."""
        store = self.service.store
        live = [m.id for s in LIVE for m in store.list_games(status=s, limit=self.limit)]
        versions = store.versions(live)
        resumed = sum(
            self.resume(game_id, version)
            for game_id, version in versions.items()
            if self._seen.get(game_id) == version
        )
        self._seen = versions
        self._attempts = {k: v for k, v in self._attempts.items() if k[0] in versions}
        return resumed

    def resume(self, game_id: str, version: int) -> int:
        """Re-enqueue the bot turns of a stalled game at ``version``."""
        attempt = self._attempts.get((game_id, version), 0) + 1
        if attempt > MAX_ATTEMPTS:
            return 0
        loaded = self.service.load(game_id)
        if loaded.version != version or loaded.over:
            return 0
        seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
        count = 0
        for seat in loaded.game.awaited_seats(loaded.state):
            bot = bot_of(seats, seat)
            if bot is None or self._handled(game_id, seat, version, attempt):
                continue
            if self.scheduler.enqueue_turn(game_id, seat, version, bot, attempt):
                log.warning(
                    "re-enqueued %s's turn: game %s seat %s v%s", bot, game_id, seat, version
                )
                count += 1
        self._attempts[(game_id, version)] = attempt if count else MAX_ATTEMPTS
        return count

    def _handled(self, game_id: str, seat: int, version: int, attempt: int) -> bool:
        """The turn is still waiting in its queue, or its bot chose to wait (WAIT)."""
        namespace, connection = self.scheduler.namespace, self.scheduler.connection
        ids = [turn_job_id(namespace, game_id, seat, version, a) for a in range(attempt)]
        jobs = [j for j in Job.fetch_many(ids, connection=connection) if j is not None]
        return any(j.get_status() in WAITING or _waited(j) for j in jobs)

    def elected(self) -> bool:
        """True for the one sweeper that may sweep this interval."""
        key = f"{self.scheduler.namespace}:sweeper"
        return bool(self.scheduler.connection.set(key, "1", nx=True, px=int(interval() * 900)))


def _waited(job: Job) -> bool:
    if job.get_status() != JobStatus.FINISHED:
        return False
    result = job.return_value()
    return isinstance(result, str) and result.startswith("waits")


def sweep_forever(stop: threading.Event) -> None:
    """The worker's sweeper thread: sweep every interval until ``stop`` is set."""
    from service.store.redis import RedisEventStore

    url, namespace = config.redis_url(), config.namespace()
    scheduler = RQScheduler.from_url(url, namespace)
    sweeper = Sweeper(GameService(RedisEventStore.from_url(url, namespace), scheduler), scheduler)
    while not stop.wait(interval()):
        try:
            if sweeper.elected():
                sweeper.tick()
        except Exception:
            log.exception("sweep failed")
