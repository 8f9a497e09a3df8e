"""The workers' archive runs: every ``CARDROOM_ARCHIVE_INTERVAL`` seconds one worker (a lease
in RQ's Redis elects it) moves the finished games that are due to the archive
(``service.retention``), a page at a time until none is due. Without
``CARDROOM_ARCHIVE_DIR`` nothing runs: finished games stay in Redis.
"""

from __future__ import annotations

import logging
import threading

import redis

from service.archive import FileArchive
from service.games import GameService
from service.retention import Retention
from service.store.redis import OUTAGES, RedisEventStore
from workers import config

log = logging.getLogger("cardroom.archiver")

PAGE = 200


def retention(directory: str) -> Retention:
    """Retention from the environment's store into the archive at ``directory``."""
    url, namespace = config.redis_url(), config.namespace()
    store = RedisEventStore.from_url(url, namespace, config.idempotency_ttl())
    archive = FileArchive(directory)
    return Retention(GameService(store, archive=archive), archive, config.archive_after(),
                     retention=store)


def archive_forever(connection: redis.Redis, worker: str, stop: threading.Event) -> None:
    """A worker's archive thread: while elected, run retention each interval until ``stop``."""
    directory = config.archive_dir()
    if directory is None:
        return
    moving, every = retention(directory), config.archive_interval()
    while not stop.wait(every):
        try:
            if elected(connection, worker, every * 2):
                run_until_none_due(moving, stop)
        except OUTAGES as err:
            log.warning("archive run skipped: Redis is unreachable (%s)", err)
        except Exception:
            log.exception("archive run failed")


def elected(connection: redis.Redis, worker: str, seconds: float) -> bool:
    """Whether ``worker`` holds the archive lease (taken when free, kept by renewing it): one
    worker of the deployment archives at a time; the lease lapses ``seconds`` after its
    holder stops renewing it."""
    lease, ms = f"{config.namespace()}:archiver", int(seconds * 1000)
    if connection.set(lease, worker, nx=True, px=ms):
        return True
    if connection.get(lease) == worker.encode():
        connection.pexpire(lease, ms)
        return True
    return False


def run_until_none_due(moving: Retention, stop: threading.Event) -> int:
    """Archive the due games a page at a time; returns how many were archived."""
    archived = 0
    while not stop.is_set():
        moved = moving.run(PAGE)
        archived += sum(1 for m in moved if m.outcome == "archived")
        for refused in (m for m in moved if m.outcome.startswith("refused")):
            log.error("game %s was not archived: %s", refused.game_id, refused.outcome)
        if len(moved) < PAGE or all(m.outcome.startswith("refused") for m in moved):
            break
    if archived:
        log.info("archived %d finished games", archived)
    return archived
