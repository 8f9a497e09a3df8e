"""Where the workers find Redis and which queues they serve.

``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``; ``redis+cluster://...`` for a Redis
Cluster) and ``CARDROOM_NAMESPACE`` (default ``cardroom``) are read from the environment, as the
web service reads them. RQ's queues live on ``RQ_REDIS_URL`` (default: ``REDIS_URL``), which must
be a plain Redis: RQ does not run on a Redis Cluster. Queue names:
``bots`` for the built-in bots, ``bot:<name>`` for a user's own bot, ``clocks`` for the clocks'
scheduled enforcement, ``replays`` for replay exports. Under another namespace than the
default, queue names are prefixed with it (``<namespace>:bots``) so several deployments (or
test runs) can share one Redis.
"""

from __future__ import annotations

import os

from service import queues
from service.bots import BUILTIN_BOTS as BUILTIN
from service.queues import BOTS, CLOCKS, DEFAULT_NAMESPACE, GUESTS, REPLAYS
from service.store.connect import plain_url

DEFAULT_URL = "redis://127.0.0.1:6379/0"
BUILTIN_BOTS = frozenset(BUILTIN)
__all__ = ["BOTS", "CLOCKS", "DEFAULT_NAMESPACE", "GUESTS", "REPLAYS"]


def redis_url() -> str:
    """The Redis the service and the workers share."""
    return os.environ.get("REDIS_URL") or DEFAULT_URL


def rq_redis_url(rq_url: str | None = None, store_url: str | None = None) -> str:
    """The plain Redis of RQ's queues, job records, the sweeper's bookkeeping and the workers'
    heartbeats: ``rq_url`` or ``RQ_REDIS_URL``, else the store's (``store_url`` or
    ``REDIS_URL``). NotPlainRedis (a ValueError) when that is a Redis Cluster URL."""
    own = rq_url or os.environ.get("RQ_REDIS_URL")
    return plain_url(own or store_url or redis_url(), "RQ_REDIS_URL" if own else "REDIS_URL")


def namespace() -> str:
    """The key namespace (``<namespace>:game:{<id>}:...``)."""
    return os.environ.get("CARDROOM_NAMESPACE") or DEFAULT_NAMESPACE


def queue_name(base: str, ns: str | None = None) -> str:
    """A queue's name under the namespace (``service.queues``; default: ``namespace()``)."""
    return queues.queue_name(base, namespace() if ns is None else ns)


def bot_queue(bot: str, ns: str | None = None, guests: bool = False) -> str:
    """The queue a bot's turns go to: ``bots`` for built-in bots (``bots-guests`` in a game
    that seats an HTTP bot account: ``guests``), else ``bot:<name>``."""
    if bot in BUILTIN_BOTS:
        return queue_name(GUESTS if guests else BOTS, ns)
    return queue_name(f"bot:{bot}", ns)


def default_queues(ns: str | None = None) -> list[str]:
    """What ``cardroom worker`` serves without ``--queue``: built-in bots, clocks, replays."""
    return queues.default_queues(namespace() if ns is None else ns)


def idempotency_ttl() -> float | None:
    """Seconds a game's idempotency records outlive its end (``CARDROOM_IDEMPOTENCY_TTL``)."""
    raw = os.environ.get("CARDROOM_IDEMPOTENCY_TTL")
    return float(raw) if raw else None


def replay_dir() -> str | None:
    """Where exported replays are also written as files (``CARDROOM_REPLAY_DIR``), if anywhere."""
    return os.environ.get("CARDROOM_REPLAY_DIR") or None


def archive_dir() -> str | None:
    """Where finished games are archived (``CARDROOM_ARCHIVE_DIR``); None: they stay in Redis."""
    return os.environ.get("CARDROOM_ARCHIVE_DIR") or None


def archive_after() -> float:
    """Seconds a finished game stays in Redis before the archive (``CARDROOM_ARCHIVE_AFTER``,
    default 3600)."""
    return float(os.environ.get("CARDROOM_ARCHIVE_AFTER") or 3600.0)


def archive_interval() -> float:
    """Seconds between the workers' archive runs (``CARDROOM_ARCHIVE_INTERVAL``, default 60)."""
    return float(os.environ.get("CARDROOM_ARCHIVE_INTERVAL") or 60.0)
