"""Every append, pushed to each web process: caches that stay current without a fetch.

Two or more web processes share the actions of a game: each process's cached fold falls
behind whenever the game's previous action was served by another one, and that request then
pays a second round trip (the newer events) before it can decide. So the append script also
publishes what it appended on ``<namespace>:appended`` (game id, the version before, the
entries exactly as stored), and each web process folds it into its cache in the background
(``ServiceBase._on_appended``), when it holds that game at that version. The chain check of the
fold links the pushed events to the cached head, as a read of the stream would.

Best effort by design: a message lost (the subscription reconnecting, a process just started) or
late leaves a cache behind, and the request that finds it behind reads the stream as before.
Not on a Redis Cluster (``RedisEventStore.appends_channel`` is empty there).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import redis

from service.store import records
from service.store.port import StoredEvent

log = logging.getLogger(__name__)

Deliver = Callable[["Published"], None]
SEP = "\0"  # no field of an entry holds it: the texts are JSON, hashes and numbers
RECONNECT_SECONDS = 1.0


class Published:
    """One published append: its game and the version before it; ``stored()`` parses its
    entries (only for a cache that takes them)."""

    __slots__ = ("_parts", "before", "game_id")

    def __init__(self, message: str) -> None:
        self._parts = message.split(SEP)
        self.game_id, self.before = self._parts[0], int(self._parts[1])

    def stored(self) -> list[StoredEvent]:
        parts = self._parts
        out: list[StoredEvent] = []
        i = 3
        for version in range(self.before + 1, self.before + int(parts[2]) + 1):
            n = int(parts[i])
            fields = {parts[i + 1 + 2 * j]: parts[i + 2 + 2 * j] for j in range(n)}
            out.append(records.parse_entry(version, fields))
            i += 1 + 2 * n
        return out


def follow(client: redis.Redis, channel: str, deliver: Deliver) -> threading.Thread:
    """Call ``deliver`` with every append published on ``channel``, from a daemon thread (a
    greenlet under gevent) that ends within a second once ``deliver``'s owner is gone."""
    method = weakref.WeakMethod(deliver) if hasattr(deliver, "__self__") else (lambda: deliver)
    thread = threading.Thread(
        target=_run, args=(client, channel, method), name="appends-follower", daemon=True
    )
    thread.start()
    return thread


def _run(client: redis.Redis, channel: str, deliver: Callable[[], Deliver | None]) -> None:
    while deliver() is not None:
        pubsub: Any = None
        try:
            pubsub = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
            pubsub.subscribe(channel)
            while True:
                message = pubsub.get_message(timeout=1.0)
                target = deliver()
                if target is None:
                    return
                if message is not None and message.get("type") == "message":
                    _deliver(target, message["data"])
        except redis.RedisError as error:  # caches fall behind meanwhile: reads catch them up
            log.warning("appends follower: %s; subscribing again", error)
            time.sleep(RECONNECT_SECONDS)
        finally:
            if pubsub is not None:
                with contextlib.suppress(redis.RedisError):
                    pubsub.close()


def _deliver(target: Deliver, data: Any) -> None:
    try:
        target(Published(data.decode() if isinstance(data, bytes) else str(data)))
    except Exception:  # one bad message must not stop the follower: that cache falls behind
        log.exception("appends follower: could not take a published append")
