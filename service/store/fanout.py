"""One blocking XREAD per process, fanned out to every stream waiting in it.

A stream (``GET /games/{id}/stream``) waits for its game to pass a version. Giving each waiter
its own blocking XREAD costs one Redis connection per open stream: 500 streams exhausted
redis-py's pool (100 connections) and Redis' client list. Here one reader thread (a greenlet
under gunicorn's gevent workers) blocks on the keys of all waiters at once and wakes those whose
stream moved; a waiter on a key the reader is not blocked on yet interrupts it (CLIENT UNBLOCK)
so nothing waits longer than it should. (A waiter arriving in the instant between the reader's
snapshot and its XREAD waits at most one block, about a second: the stream then moves on.)

A stream it has just woken stays in its XREADs for a second (``KEEP_SECONDS``), from the newest
version it has seen of it, while nobody waits on it: the woken streams read the game and wait
again from there, so they find the XREAD covering them instead of each move costing an
interruption (CLIENT UNBLOCK, a round trip, and the XREAD sent again: 3-10 % of a web worker with
50 streams on a played game; bench_streams counted one a move per web process). An XREAD reads
up to ``COUNT`` entries a stream, so that version is the newest of an action's batch (an action
appends several entries: from its first, the next XREAD would return the next one of the same
batch at once, waking nobody); and for a second, not for one XREAD, as another stream moving
may end that XREAD before the woken streams are back.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis

from service.store.waiters import Waiters

log = logging.getLogger(__name__)

KEEP_SECONDS = 1.0  # how long a stream the reader woke someone on stays in its XREADs
COUNT = 16  # entries an XREAD reads a stream: an action's batch, so its newest version


class Fanout(Waiters):
    """``wait(key, after, timeout)`` for many callers over one Redis connection."""

    thread_name = "stream-fanout"

    def __init__(self, client: redis.Redis, longest_block: float) -> None:
        super().__init__()
        self._client = client
        pool = client.connection_pool
        self._reader = redis.Redis(
            connection_pool=redis.ConnectionPool(
                connection_class=pool.connection_class, max_connections=1, **pool.connection_kwargs
            )
        )
        self._block_ms = max(1, int(longest_block * 1000))
        self._blocked_on: dict[str, int] | None = None  # what the pending XREAD covers
        # streams the reader woke someone on lately: the newest version seen, and until when
        self._woken: dict[str, tuple[int, float]] = {}
        self._reader_id: int | None = None
        self._interrupted = False

    # -- the reader ------------------------------------------------------------------------
    def _arrived(self, key: str, after: int) -> bool:
        """Interrupt the pending XREAD when it does not cover the new waiter's stream."""
        if self._blocked_on is None or self._interrupted or self._reader_id is None:
            return False
        covered = self._blocked_on.get(key)
        if covered is not None and covered <= after:
            return False
        self._interrupted = True
        return True

    def _nudge(self) -> None:
        reader_id = self._reader_id
        if reader_id is None:
            return
        try:
            self._client.client_unblock(reader_id)
        except redis.RedisError as err:
            log.debug("could not interrupt the stream reader: %s", err)

    def _run(self) -> None:
        pause = 0.1
        while True:
            with self._lock:
                while not self._waiters:
                    self._changed.wait()
                now = time.monotonic()
                self._woken = {k: kept for k, kept in self._woken.items() if kept[1] > now}
                kept = {key: version for key, (version, _) in self._woken.items()}
                streams = {**kept, **self._pending()}  # where someone waits: from their version
                self._blocked_on, self._interrupted = streams, False
            if not streams:  # all woken, not yet gone
                time.sleep(0.001)
                continue
            try:
                if self._reader_id is None:
                    self._reader_id = int(self._reader.client_id())
                reply = self._reader.xread(
                    {k: f"{v}-0" for k, v in streams.items()}, count=COUNT, block=self._block_ms
                )
                pause = 0.1
            except redis.RedisError as err:
                # The store is down: waiters time out and find out themselves; retry slowly.
                log.debug("stream reader: %s", err)
                self._reader_id = None
                with self._lock:
                    self._blocked_on = None
                time.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            finally:
                with self._lock:
                    self._blocked_on = None
            newest = _newest(reply or [])
            woke = self._wake(newest)
            with self._lock:
                until = time.monotonic() + KEEP_SECONDS
                for key, version in newest.items():
                    if key in woke:
                        self._woken[key] = (version, until)
                    elif key in self._woken:  # on from there, until the same time
                        self._woken[key] = (version, self._woken[key][1])


def _newest(reply: Any) -> dict[str, int]:
    """The newest version of each stream an XREAD returned entries of."""
    return {
        key: int(str(entries[-1][0]).split("-")[0]) for key, entries in _pairs(reply) if entries
    }


def _pairs(reply: Any) -> list[tuple[str, list[Any]]]:
    """XREAD replies are a list of [key, entries] (RESP2) or a map (RESP3)."""
    items = reply.items() if isinstance(reply, dict) else reply
    return [(k.decode() if isinstance(k, bytes) else str(k), list(v)) for k, v in items]
