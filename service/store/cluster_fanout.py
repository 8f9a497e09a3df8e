"""The stream fan-out on a Redis Cluster: one poller per process, grouped by node.

On one Redis a single blocking XREAD covers every waited stream (``service.store.fanout``). A
Redis Cluster refuses that: one XREAD may name the streams of one hash slot only, and each game
has a slot of its own, so a blocking read per slot would again cost a connection per stream.
Here one thread per process looks at every waited stream at once instead: a non-transactional
pipeline of ``XREVRANGE key + - COUNT 1`` (single-key commands), which redis-py sends as one
batch per cluster node; it wakes the waiters whose stream passed their version, then sleeps
``poll`` seconds (``CARDROOM_CLUSTER_POLL_SECONDS``, default 0.05) or until a new waiter
arrives (that one is looked at right away). A stream hears of a new event within about
``poll`` seconds; each poll costs one round trip per node.
"""

from __future__ import annotations

import logging
import os
import time

import redis
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException

from service.store.waiters import Waiters

log = logging.getLogger(__name__)

DEFAULT_POLL = 0.05


def poll_seconds() -> float:
    """Seconds between two looks at the waited streams (``CARDROOM_CLUSTER_POLL_SECONDS``)."""
    return max(0.001, float(os.environ.get("CARDROOM_CLUSTER_POLL_SECONDS") or DEFAULT_POLL))


class ClusterFanout(Waiters):
    """``wait(key, after, timeout)`` for many callers, by polling every node in one batch."""

    thread_name = "stream-poller"

    def __init__(self, client: RedisCluster, poll: float | None = None) -> None:
        super().__init__()
        self._client = client
        self._poll = poll_seconds() if poll is None else poll
        self._fresh = False  # a waiter arrived since the last look

    def _arrived(self, key: str, after: int) -> bool:
        self._fresh = True  # looked at right away, not after the poll's sleep
        return False

    def _run(self) -> None:
        pause = self._poll
        while True:
            with self._lock:
                while not self._pending():
                    self._changed.wait()
                if not self._fresh:
                    self._changed.wait(self._poll)  # a new waiter cuts the sleep short
                streams = self._pending()
                self._fresh = False
            if not streams:
                continue
            try:
                newest = self._newest(list(streams))
                pause = self._poll
            except (redis.RedisError, RedisClusterException) as err:
                # The store is down: waiters time out and find out themselves; retry slowly.
                log.debug("stream poller: %s", err)
                time.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            self._wake(newest)

    def _newest(self, keys: list[str]) -> dict[str, int]:
        """The newest version of each stream (0: empty), one pipelined batch per node."""
        pipe = self._client.pipeline(transaction=False)  # type: ignore[no-untyped-call]  # untyped in redis-py
        for key in keys:
            pipe.xrevrange(key, count=1)
        replies = pipe.execute()
        return {
            key: int(str(last[0][0]).split("-")[0]) if last else 0
            for key, last in zip(keys, replies, strict=True)
        }
