"""Connections to the store's Redis: one server, or a Redis Cluster.

``REDIS_URL`` names the store. A plain URL (``redis://``, ``rediss://``, ``unix://``) is one
Redis server; ``redis+cluster://[user:password@]host:port[,host:port...]`` (``rediss+cluster``
with TLS) is a Redis Cluster reached through any of the nodes listed (the client discovers the
others and follows the slots). It is the scheme the ``limits`` library (rate limits) reads too.

RQ does not run on a Redis Cluster (its queues, registries and Lua scripts use keys of many
slots), so its queues live on a plain Redis of their own: ``RQ_REDIS_URL``, by default the
store's URL (which must then be a plain one). See ``docs/operations.md``.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import unquote, urlsplit

import hiredis
import redis
from redis.client import NEVER_DECODE
from redis.cluster import ClusterNode, RedisCluster

# Either kind of client: every command the store sends works on both (one slot per command,
# script and MULTI; see service.store.redis).
Client = redis.Redis | RedisCluster

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


class NotPlainRedis(ValueError):
    """A Redis Cluster URL where only a plain Redis will do (RQ's queues)."""


def is_cluster_url(url: str) -> bool:
    """Whether ``url`` names a Redis Cluster (``redis+cluster://``, ``rediss+cluster://``)."""
    return url.split("://", 1)[0].lower() in CLUSTER_SCHEMES


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """The (host, port) startup nodes a cluster URL lists (port 6379 when none is given)."""
    netloc = urlsplit(url).netloc.rpartition("@")[2]
    nodes: list[tuple[str, int]] = []
    for part in filter(None, netloc.split(",")):
        host, _, port = part.rpartition(":") if ":" in part else (part, "", "6379")
        nodes.append((host.strip("[]"), int(port or 6379)))
    if not nodes:
        raise ValueError(f"no node in the Redis Cluster URL {url!r}")
    return nodes


def client_from_url(url: str, **options: Any) -> Client:
    """A client of the Redis (or Redis Cluster) at ``url``; ``options`` go to redis-py.

    For a plain Redis with ``max_connections`` and ``timeout`` the pool blocks up to
    ``timeout`` seconds for a free connection (as it does for each node of a cluster).
    """
    if not is_cluster_url(url):
        if "max_connections" in options and "timeout" in options:
            pool = redis.BlockingConnectionPool.from_url(url, **options)
            return redis.Redis(connection_pool=pool)
        return redis.Redis.from_url(url, **options)
    parts = urlsplit(url)
    if parts.username:
        options.setdefault("username", unquote(parts.username))
    if parts.password:
        options.setdefault("password", unquote(parts.password))
    if CLUSTER_SCHEMES[parts.scheme.lower()] == "rediss":
        options.setdefault("ssl", True)
    if "max_connections" in options and "timeout" in options:
        # each node's pool blocks for a free connection (redis-py passes the other options to
        # a plain client too, which knows no ``timeout``)
        wait = options.pop("timeout")
        options.setdefault(
            "connection_pool_class", functools.partial(redis.BlockingConnectionPool, timeout=wait)
        )
    nodes = [ClusterNode(host, port) for host, port in cluster_nodes(url)]  # type: ignore[no-untyped-call]  # untyped in redis-py
    return RedisCluster(startup_nodes=nodes, **options)


def plain_url(url: str, what: str = "RQ_REDIS_URL") -> str:
    """``url`` when it names one Redis server; NotPlainRedis for a cluster URL."""
    if is_cluster_url(url):
        raise NotPlainRedis(
            f"{what} must name a plain Redis (RQ does not run on a Redis Cluster); "
            f"got the cluster URL {url!r}: set RQ_REDIS_URL to a plain redis:// URL"
        )
    return url


def socket_timeout(client: Client) -> float | None:
    """The client's socket timeout in seconds (None: none)."""
    if isinstance(client, RedisCluster):
        kwargs = client.nodes_manager.connection_kwargs
    else:
        kwargs = client.connection_pool.connection_kwargs
    value = kwargs.get("socket_timeout")
    return None if value is None else float(value)


SPARE_CONNECTIONS = 16  # connections ParkedCalls keeps out of the pool between calls
MISSED = object()  # a parked call that did not get its reply (the client's own path then)


class ParkedCalls:
    """Runs a registered script (``client.register_script``), or one read, on a connection
    kept between calls: the store's append and quota count, the hot path of every action, and
    the read of the events a stale fold missed (a catch-up)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self._spare: list[Any] = []  # connections parked after their last reply

    def __call__(
        self, script: Any, keys: list[str], args: list[Any], *, raw: bool = False
    ) -> Any:
        """``script(keys, args)``, the common case on one connection without redis-py's
        per-command machinery (most of the client's time of an append): EVALSHA packed by
        hiredis, one reply read, the connection parked for the next append (up to
        SPARE_CONNECTIONS; they count against the pool's limit). A missing script, a connection
        error or a Redis Cluster take the client's own path (script loading, retries, errors);
        a connection that failed goes back to the pool disconnected. ``raw``: the reply as
        bytes, undecoded (it holds binary data)."""
        if isinstance(self.client, redis.Redis):
            command = ("EVALSHA", script.sha, len(keys), *keys, *args)
            reply = self._on_parked(self.client, command, raw, redis.exceptions.NoScriptError)
            if reply is not MISSED:
                return reply
        return self._undecoded(script, keys, args) if raw else script(keys=keys, args=args)

    def command(self, *command: Any) -> Any:
        """One command (a read) the same way, its reply undecoded, as Redis sent it: on a
        parked connection, or through the client's own path on a Redis Cluster or when the
        connection failed (retries, errors), where redis-py may parse the reply first."""
        if isinstance(self.client, redis.Redis):
            reply = self._on_parked(self.client, command, True)
            if reply is not MISSED:
                return reply
        return self._own_path(command)

    def _on_parked(
        self, client: redis.Redis, command: tuple[Any, ...], raw: bool, *kept: type[Exception]
    ) -> Any:
        """``command``'s reply read on a parked connection, or MISSED (an error in ``kept``
        leaves the connection parked; a connection error disconnects it)."""
        pool, spare = client.connection_pool, self._spare
        # a connection this path parked after its last reply (nothing left unread on it),
        # else one from the pool (its checks on the way out included)
        connection = spare.pop() if spare else pool.get_connection()
        keep = False
        try:
            connection.send_packed_command([hiredis.pack_command(command)], check_health=False)
            reply = connection.read_response(disable_decoding=raw)
            keep = True
            return reply
        except kept:
            keep = True
        except (redis.ConnectionError, redis.TimeoutError):
            connection.disconnect()
        finally:
            if keep and len(spare) < SPARE_CONNECTIONS:
                spare.append(connection)
            else:
                pool.release(connection)
        return MISSED

    def _undecoded(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """EVALSHA through the client's own path, its reply left as bytes (the script is
        loaded first when the server does not have it yet)."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return self._own_path(command)
        except redis.exceptions.NoScriptError:
            self.client.script_load(script.script)
            return self._own_path(command)

    def _own_path(self, command: tuple[Any, ...]) -> Any:
        """``command`` through the client's own path (retries, errors), its reply undecoded."""
        return self.client.execute_command(*command, **{NEVER_DECODE: True})  # type: ignore[no-untyped-call]
