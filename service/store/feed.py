"""What other processes appended, heard without a round trip.

With two or more web processes, a game's next action often reaches a process whose fold is
behind (another process took the previous one). Reading the missed events first made that
action two round trips instead of one (``Acting._warm``). Here every append script publishes
its new entries on one channel, ``<ns>:appended`` (only once they are stored), and each
process that listens keeps the entries it heard, per game, for its fold to catch up from.

- A message is ``<origin> <game id> <first version> <count>``, a newline, the entries as JSON;
  a process skips its own (its fold is past them already) and parses the others' only when
  asked (``heard``).
- What is kept is bounded: ``games`` games (least recently heard dropped first), ``depth``
  entries each; a game's entries run without a gap (a message that does not follow on replaces
  them), and those a fold caught up with are dropped.
- Pub/sub may lose a message (a reconnect): ``heard`` then answers None for that range and the
  caller reads the stream as before. What it does answer is checked like a read: the fold walks
  the hash chain from its own head.
- On a Redis Cluster, PUBLISH reaches every node; the listener subscribes through any of them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
import redis
from redis.cluster import RedisCluster

from service.store import records
from service.store.port import StoredEvent

log = logging.getLogger(__name__)

Chunk = tuple[int, int, str]  # (first version, how many entries, their JSON)


def channel(namespace: str) -> str:
    """The channel every append of ``namespace`` is published on."""
    return f"{namespace}:appended"


def message(origin: str, game_id: str, first: int, entries: Sequence[Mapping[str, str]]) -> bytes:
    """What the append script publishes once ``entries`` are stored from version ``first``."""
    return f"{origin} {game_id} {first} {len(entries)}\n".encode() + orjson.dumps(entries)


class AppendFeed:
    """One listener per process (a thread; a greenlet under gevent), started on first use."""

    def __init__(self, client: Any, namespace: str, games: int = 4096, depth: int = 64) -> None:
        self.origin = uuid.uuid4().hex[:16]
        self.channel = channel(namespace)
        self._client = client
        self._games, self._depth = games, depth
        self._kept: OrderedDict[str, list[Chunk]] = OrderedDict()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._subscribed = threading.Event()
        self._stopped = threading.Event()
        self._alive = False  # the listener runs (in process _pid)

    def message(self, game_id: str, first: int, entries: Sequence[Mapping[str, str]]) -> bytes:
        """This process's message for ``entries`` stored from version ``first``."""
        return message(self.origin, game_id, first, entries)

    def heard(self, game_id: str, after: int, upto: int) -> list[StoredEvent] | None:
        """The entries ``after < version <= upto`` of a game as heard, or None when not all of
        them were. Those up to ``upto`` are then dropped (the caller's fold has them)."""
        with self._lock:
            chunks = self._kept.get(game_id)
            if upto <= after or not chunks or chunks[0][0] > after + 1 or _end(chunks[-1]) < upto:
                return None
            rest = [c for c in chunks if _end(c) > upto]
            if rest:
                self._kept[game_id] = rest
            else:
                del self._kept[game_id]
        out: list[StoredEvent] = []
        try:
            for first, _, text in chunks:
                for version, fields in enumerate(orjson.loads(text), start=first):
                    if after < version <= upto:
                        out.append(records.parse_entry(version, fields))
        except (ValueError, KeyError, TypeError):
            log.warning("append feed: game %s: entries not of the append's form", game_id)
            return None
        return out

    def take(self, data: str) -> None:
        """Keep one published message (the listener's part; public for tests)."""
        end = data.index("\n")
        origin, game_id, first_text, count_text = data[:end].split(" ")
        first, count, own = int(first_text), int(count_text), origin == self.origin
        text = "" if own else data[end + 1 :]
        with self._lock:
            chunks = self._kept.get(game_id)
            if own:  # this process's fold is past these and all before
                if chunks is not None:
                    del self._kept[game_id]
                return
            if not chunks or _end(chunks[-1]) != first - 1:
                chunks = []
            chunks.append((first, count, text))
            while len(chunks) > 1 and sum(c[1] for c in chunks[1:]) >= self._depth:
                chunks.pop(0)
            self._kept[game_id] = chunks
            self._kept.move_to_end(game_id)
            while len(self._kept) > self._games:
                self._kept.popitem(last=False)

    def stop(self) -> None:
        """Stop listening (within a few seconds); ``start`` listens again."""
        self._stopped.set()

    def _running(self) -> bool:
        # (not Thread.is_alive(): under gevent it yields to the hub, and this runs per action)
        return self._alive and self._pid == _pid()

    def _take_safely(self, data: str | bytes) -> None:
        try:
            self.take(data.decode() if isinstance(data, bytes) else data)
        except ValueError:  # not one of ours (someone else published on the channel)
            log.warning("append feed: skipped a message not of the append's form")

    def latest(self, game_id: str) -> int:
        """The newest version heard of a game from another process (0: none kept)."""
        with self._lock:
            chunks = self._kept.get(game_id)
            return _end(chunks[-1]) if chunks else 0

    def start(self, wait: float = 0.0) -> bool:
        """Start the listener in this process (again after a fork); True once it is subscribed
        (waiting up to ``wait`` seconds for that)."""
        if not self._running():
            with self._lock:
                if not self._running():
                    self._kept.clear()
                    self._subscribed.clear()
                    self._pid = _pid()
                    self._stopped.clear()
                    self._alive = True
                    self._thread = threading.Thread(
                        target=self._run, name="append-feed", daemon=True
                    )
                    self._thread.start()
        return self._subscribed.wait(wait) if wait > 0 else self._subscribed.is_set()

    def _run(self) -> None:
        """Subscribe on a connection of its own and keep every message. Replies are read
        straight off the connection (no ``PubSub.get_message`` per message, which polled the
        socket twice each time): a burst that arrived together is kept in one wake-up."""
        try:
            self._listen()
        finally:
            if self._thread is threading.current_thread():  # not a stopped one's successor
                self._alive = False

    def _listen(self) -> None:
        pause = 0.1
        while not self._stopped.is_set():
            connection = None
            try:
                connection = _own_connection(self._client)
                connection.connect()
                connection.send_command("SUBSCRIBE", self.channel)
                while not self._stopped.is_set():
                    try:
                        reply = connection.read_response(timeout=1.0, disconnect_on_error=False)
                    except redis.TimeoutError:
                        continue  # nothing appended for a second
                    kind = reply[0]
                    if kind in ("message", b"message"):
                        self._take_safely(reply[2])
                    elif kind in ("subscribe", b"subscribe"):
                        self._subscribed.set()
                        pause = 0.1
            except (redis.RedisError, OSError) as err:
                # Redis is down or restarting: what was missed is read from the streams.
                log.debug("append feed: %s", err)
            except Exception as err:  # the client was closed under the listener
                log.debug("append feed stopped listening: %r", err)
            finally:
                self._subscribed.clear()
                if connection is not None:
                    with contextlib.suppress(Exception):  # closing a broken connection
                        connection.disconnect()
            self._stopped.wait(pause)
            pause = min(pause * 2, 2.0)


def _own_connection(client: Any) -> Any:
    """A new connection (outside the pool) to the Redis of ``client``, to any node of a Redis
    Cluster (a PUBLISH reaches every node); RESP2, where a message is a plain reply (RESP3
    hands it to a push handler instead)."""
    if isinstance(client, RedisCluster):
        client = client.get_default_node().redis_connection  # type: ignore[no-untyped-call]
    pool = client.connection_pool
    return pool.connection_class(**{**pool.connection_kwargs, "protocol": 2})


def _end(chunk: Chunk) -> int:
    return chunk[0] + chunk[1] - 1


def _pid() -> int:
    return os.getpid()
