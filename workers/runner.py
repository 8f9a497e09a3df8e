"""``cardroom worker``: a non-forking RQ worker for bot turns and replay exports.

A forking RQ worker costs ~10 ms per job; ``SimpleWorker`` runs each job in its own process in
~3 ms. A crashed job is retried (the jobs are idempotent); a killed worker's job is re-run by
the sweeper thread (see ``workers.sweeper``), which also keeps this worker marked alive.
A Redis outage does not end the worker: it waits for Redis and serves again.

Two Redis URLs: RQ (queues, jobs, the worker's heartbeat and alive key, the sweeper's
bookkeeping) on ``RQ_REDIS_URL``, a plain Redis (default ``REDIS_URL``); the games and the bot
registry on the store's ``REDIS_URL`` (a plain Redis or a Redis Cluster).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Sequence
from typing import Any

import redis
import rq.worker.base
from rq import Queue
from rq.scheduler import RQScheduler

from service import telemetry
from service.bots import BotRegistry, RedisBotRegistry, heartbeat_seconds
from service.store.connect import client_from_url
from workers import config
from workers.bots.base import games_of
from workers.shares import FairWorker


class ParentBoundScheduler(RQScheduler):
    """RQ's scheduler process (forked by the worker that holds a queue's scheduling lock),
    which stops once that worker is gone: RQ's own keeps running after a SIGKILL of its worker,
    an unsupervised process renewing the lock for ever."""

    _parent: int | None = None

    def start(self) -> Any:
        self._parent = os.getpid()  # the worker's, read again in the forked scheduler
        return super().start()  # type: ignore[no-untyped-call]  # untyped in rq

    def heartbeat(self) -> None:
        if self._parent is not None and os.getppid() != self._parent:
            # the loop stops at its next turn: the locks released, the death noted
            self.request_stop()  # type: ignore[no-untyped-call]  # untyped in rq
        super().heartbeat()  # type: ignore[no-untyped-call]  # untyped in rq


# the class a worker starts its scheduler with (rq.worker.base names it at call time)
rq.worker.base.RQScheduler = ParentBoundScheduler  # type: ignore[attr-defined]

log = logging.getLogger("cardroom.worker")


def run_worker(
    queues: Sequence[str] | None = None,
    *,
    burst: bool = False,
    sweep: bool = True,
    imports: Sequence[str] = (),
    url: str | None = None,
    bots: Sequence[str] = (),
) -> int:
    """Serve the queues until stopped (or until empty with ``burst``).

    ``bots`` are user bots this worker serves: their names are registered (with a heartbeat)
    in the service's bot registry, so games may seat them and see whether they are alive.
    ``url``: RQ's Redis (default ``RQ_REDIS_URL``, else ``REDIS_URL``).
    """
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if (os.environ.get("CARDROOM_LOG_FORMAT") or "").lower() == "json":
        telemetry.use_json_logs()
    if sweep and not burst:
        from workers.sweeper import entropy_seconds

        try:
            entropy_seconds()  # a bad setting stops the worker here, not its sweeper thread
        except ValueError as err:
            log.error("%s", err)
            return 2
    for module in imports:
        importlib.import_module(module)
    connection = redis.Redis.from_url(config.rq_redis_url(url))  # this process's threads'
    # RQ's own, which no thread uses before RQ sets its socket timeout above its BLPOP's (405
    # s): a connection made earlier keeps redis-py's default of 5 s, and an idle worker's BLPOP
    # on it timed out after 5 s, which RQ takes for an outage and backs off from, up to a
    # minute between two looks at its queues (a bot's turn queued meanwhile waited that long)
    queued = redis.Redis.from_url(config.rq_redis_url(url))
    names = [_qualified(q) for q in queues] if queues else config.default_queues()
    name = uuid.uuid4().hex  # kept across reconnects: the sweeper knows the worker by it
    stop = threading.Event()
    threading.Thread(
        target=telemetry.heartbeat_forever,
        args=(connection, config.namespace(), stop),
        name="heartbeat",
        daemon=True,
    ).start()
    if bots:
        registry = RedisBotRegistry(client_from_url(config.redis_url()), config.namespace())
        taken = claim_names(registry, bots)
        if taken:
            log.error("bot name(s) %s belong to HTTP bot accounts: revoke them first "
                      "(cardroom admin bots revoke NAME), or serve other names", taken)
            return 2
        beat = threading.Thread(target=heartbeat, args=(registry, bots, stop), daemon=True)
        _beat_once(registry, bots)
        beat.start()
    if sweep and not burst:
        from workers.archiver import archive_forever
        from workers.sweeper import sweep_forever

        thread = threading.Thread(target=sweep_forever, args=(stop, name), daemon=True)
        thread.start()
        archiving = (connection, name, stop)
        threading.Thread(target=archive_forever, args=archiving, daemon=True).start()
    log.info("serving %s (namespace %s)", ", ".join(names), config.namespace())
    try:
        while True:
            worker = FairWorker(  # its queues by their shares of its time (workers.shares)
                [Queue(n, connection=queued) for n in names], connection=queued, name=name
            )
            try:
                # the scheduler moves the clocks' jobs to their queue when due (one per queue
                # among all workers, by a lock in Redis)
                worker.work(burst=burst, logging_level="WARNING", with_scheduler=True)
                if burst or getattr(worker, "_shutdown_requested_date", None) is not None:
                    return 0
                # RQ's loop quit by itself: an error it caught while preparing a job (Redis
                # lost mid-job: "found an unhandled exception, quitting"); as for an outage
                reason: object = "RQ's worker loop stopped"
            except OUTAGES as err:
                if getattr(worker, "_shutdown_requested_date", None) is not None:
                    return 0  # asked to stop (RQ's SIGTERM handler) while Redis went away
                reason = err
            # Redis went away (mid-job too: the job is idempotent and the sweeper re-runs its
            # turn): wait for it, drop the half-kept registration, serve again.
            log.warning("Redis is unreachable (%s); reconnecting", reason)
            _wait_for(connection)
            with contextlib.suppress(*OUTAGES):
                worker.register_death()  # type: ignore[no-untyped-call]  # untyped in rq
            log.info("Redis is back: serving %s again", ", ".join(names))
    finally:
        stop.set()


OUTAGES: tuple[type[Exception], ...] = (redis.ConnectionError, redis.TimeoutError)


def _wait_for(connection: redis.Redis, longest: float = 5.0) -> None:
    """Until Redis answers PING, backing off up to ``longest`` seconds between tries."""
    pause = 0.2
    while True:
        try:
            connection.ping()
            return
        except OUTAGES:
            time.sleep(pause)
            pause = min(pause * 2, longest)


def claim_names(registry: BotRegistry, bots: Sequence[str]) -> list[str]:
    """Hold the bots' names for the operator (nobody can then make an HTTP account of them);
    the names an HTTP account holds already, which this worker must not serve."""
    return [name for name in bots if not registry.claim_operator(name)]


def heartbeat(registry: BotRegistry, bots: Sequence[str], stop: threading.Event) -> None:
    """Refresh the bots' registrations every ``heartbeat_seconds()`` until ``stop``."""
    while not stop.wait(heartbeat_seconds()):
        try:
            _beat_once(registry, bots)
        except redis.exceptions.RedisError:
            log.warning("could not refresh the registration of %s", ", ".join(bots))


def _beat_once(registry: BotRegistry, bots: Sequence[str]) -> None:
    for name in bots:
        games = games_of(name)
        if games is None:
            log.warning("bot %r is not registered in this process (missing --import?)", name)
            games = ()
        registry.heartbeat(name, games, time.time())


def _qualified(queue: str) -> str:
    """A queue name under this namespace (``bot:lowball`` -> ``<namespace>:bot:lowball``)."""
    prefix = config.queue_name("")
    return queue if not prefix or queue.startswith(prefix) else config.queue_name(queue)
