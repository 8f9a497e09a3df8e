"""One blocking XREAD per process, fanned out to every stream waiting in it.

A stream (``GET /games/{id}/stream``) waits for its game to pass a version. Giving each waiter
its own blocking XREAD costs one Redis connection per open stream: 500 streams exhausted
redis-py's pool (100 connections) and Redis' client list. Here one reader thread (a greenlet
under gunicorn's gevent workers) blocks on the keys of all waiters at once and wakes those whose
stream moved; a waiter on a key the reader is not blocked on yet interrupts it (CLIENT UNBLOCK)
so nothing waits longer than it should. (A waiter arriving in the instant between the reader's
snapshot and its XREAD waits at most one block, about a second: the stream then moves on.)
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import redis

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Waiter:
    key: str
    after: int
    moved: threading.Event = field(default_factory=threading.Event)


class Fanout:
    """``wait(key, after, timeout)`` for many callers over one Redis connection."""

    def __init__(self, client: redis.Redis, longest_block: float) -> None:
        self._client = client
        pool = client.connection_pool
        self._reader = redis.Redis(
            connection_pool=redis.ConnectionPool(
                connection_class=pool.connection_class, max_connections=1, **pool.connection_kwargs
            )
        )
        self._block_ms = max(1, int(longest_block * 1000))
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._waiters: dict[str, list[_Waiter]] = {}
        self._blocked_on: dict[str, int] | None = None  # what the pending XREAD covers
        self._reader_id: int | None = None
        self._interrupted = False
        self._thread: threading.Thread | None = None

    def waiting(self) -> int:
        """How many callers are waiting now."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def wait(self, key: str, after: int, timeout: float) -> bool:
        """True once stream ``key`` has an entry newer than ``after``; False after ``timeout``."""
        waiter = _Waiter(key, after)
        with self._lock:
            self._waiters.setdefault(key, []).append(waiter)
            self._start()
            interrupt = self._needs_interrupt(key, after)
            self._changed.notify()
        if interrupt:
            self._interrupt()
        try:
            return waiter.moved.wait(timeout)
        finally:
            with self._lock:
                same = self._waiters.get(key, [])
                if waiter in same:
                    same.remove(waiter)
                if not same:
                    self._waiters.pop(key, None)

    # -- the reader ------------------------------------------------------------------------
    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="stream-fanout", daemon=True)
            self._thread.start()

    def _needs_interrupt(self, key: str, after: int) -> bool:
        if self._blocked_on is None or self._interrupted or self._reader_id is None:
            return False
        covered = self._blocked_on.get(key)
        if covered is not None and covered <= after:
            return False
        self._interrupted = True
        return True

    def _interrupt(self) -> None:
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
                streams = {
                    k: min(w.after for w in pending)
                    for k, ws in self._waiters.items()
                    if (pending := [w for w in ws if not w.moved.is_set()])
                }
                self._blocked_on, self._interrupted = streams, False
            if not streams:  # all woken, not yet gone
                time.sleep(0.001)
                continue
            try:
                if self._reader_id is None:
                    self._reader_id = int(self._reader.client_id())
                reply = self._reader.xread(
                    {k: f"{v}-0" for k, v in streams.items()}, count=1, block=self._block_ms
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
            self._wake(reply or [])

    def _wake(self, reply: Any) -> None:
        with self._lock:
            for key, entries in _pairs(reply):
                if not entries:
                    continue
                newest = int(str(entries[-1][0]).split("-")[0])
                for waiter in self._waiters.get(key, []):
                    if waiter.after < newest:
                        waiter.moved.set()


def _pairs(reply: Any) -> list[tuple[str, list[Any]]]:
    """XREAD replies are a list of [key, entries] (RESP2) or a map (RESP3)."""
    items = reply.items() if isinstance(reply, dict) else reply
    return [(k.decode() if isinstance(k, bytes) else str(k), list(v)) for k, v in items]
