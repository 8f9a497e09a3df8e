"""The Redis adapter: one stream per game, appended by one Lua script (Redis >= 6.2).

Keys of one game share the Cluster hash tag ``{<id>}`` so every script touches one slot:

- ``<ns>:game:{<id>}:events``  the stream; entry id ``v-0`` is event version ``v``;
- ``<ns>:game:{<id>}:meta``    hash: ``meta`` (JSON), ``status``, ``join:<seat>`` (JSON),
  ``due`` (present until the creation's listing and first scheduling are done);
- ``<ns>:game:{<id>}:snap``    the latest snapshot of the folded state (``service.snapshots``;
  none once the game is over);
- ``<ns>:game:{<id>}:idem``    hash: idempotency key -> record (``records.idempotency_to_json``:
  an action's is ``<fingerprint prefix>:<version>``, its response rendered again); it expires
  ``idempotency_ttl`` seconds after the game is over (kept while the game is live);
- ``<ns>:game:{<id>}:idem:<n>``  the same for keys ending in the version they expect (a bot's),
  ``IDEM_BUCKET`` versions a bucket (``_idem_key``), expiring with ``idem``;
- ``<ns>:game:{<id>}:quota:<name>:<n>/<ms>``  a ``Quota`` window's counter (expires with it);
- ``<ns>:game:{<id>}:watchers``  sorted set: an open spectator stream's id -> its expiry (Unix
  ms), pushed on by the stream's heartbeats; the key expires with the latest of them.
- ``<ns>:game:{<id>}:replay``  its exported replay file (compressed); ``:review``: its
  reviews, a hash by seat; ``:held``: a hash, fork id -> the replay file (compressed) of a
  sealed fork of it that ended while it was played, published when it ends (``hold_fork``).

The listing and the create bookkeeping live outside the games' slots, written in steps of
their own (``service.store.listing``: the index in one slot of its own, hash tag ``{<ns>}``).
On a Redis Cluster (``redis+cluster://`` URL) every command, script and MULTI here still touches
one slot; streams are waited on through a poller instead of one blocking XREAD.
``<ns>:index:clocks`` (score = Unix ms) holds when each clocked game's clock may be due: one
key, so every command on it (the reset script too) touches one slot, on a cluster as well.

Round trips: ``fetch`` = 1 (MULTI: HGETALL meta, XRANGE newer events, the newest entry's
id, HGET key); ``fetch_latest`` = 1 (one script: meta, snapshot, the events from its version);
``append`` = 1 (EVALSHA; a version conflict returns the newer events with it; a quota is
counted in it), +1 only when the status changes (index update); ``create`` = 3
(note, script, listing) and 1 more to settle it once its first turns are scheduled.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from redis.client import NEVER_DECODE
from redis.cluster import RedisCluster

from domain.chain import GENESIS
from service.store import records, replies
from service.store.cluster_fanout import ClusterFanout
from service.store.commitment_log import RedisCommitmentLog
from service.store.connect import Client, ParkedCalls, client_from_url, socket_timeout
from service.store.fanout import Fanout
from service.store.game_keys import (
    HELD_PART,
    IDEM_PART,
    REPLAY_PART,
    REVIEW_PART,
    SNAPSHOT_PART,
    WATCHERS_PART,
)
from service.store.listing import RedisListing
from service.store.port import (
    DEFAULT_IDEMPOTENCY_TTL,
    Appended,
    Encoded,
    GameMeta,
    Holder,
    IdempotencyRecord,
    Quota,
    SeatNotHeld,
    SeatTaken,
    UnknownGameId,
)
from service.store.purge import RedisPurge
from service.store.redis_reads import RedisReads
from service.store.scripts import (
    APPEND_LUA,
    COUNT_LUA,
    FETCH_LATEST_LUA,
    HOLD_FORK_LUA,
    JOIN_LUA,
    RESET_CLOCK_LUA,
    VACATE_LUA,
    WATCH_LUA,
)

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 200  # per process (per store)
POOL_WAIT = 5.0  # seconds a command waits for a free connection

# Redis being unreachable (down, restarting, loading its data): the edge answers 503.
OUTAGES: tuple[type[Exception], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ClusterDownError,  # a Redis Cluster without a master for some slots
)


class RedisEventStore(
    RedisReads, RedisListing, RedisPurge, RedisCommitmentLog, records.CreateInSteps
):
    """An EventStore on Redis streams. ``namespace`` prefixes every key (tests isolate by it)."""

    def __init__(
        self,
        client: Client,
        namespace: str = "cardroom",
        idempotency_ttl: float = DEFAULT_IDEMPOTENCY_TTL,
    ) -> None:
        self.client = client
        self.namespace = namespace
        self.idempotency_ttl = idempotency_ttl
        self._append = client.register_script(APPEND_LUA)
        self._count = client.register_script(COUNT_LUA)
        self._fetch_latest = client.register_script(FETCH_LATEST_LUA)
        self._join = client.register_script(JOIN_LUA)
        self._vacate = client.register_script(VACATE_LUA)
        self._reset_clock = client.register_script(RESET_CLOCK_LUA)
        self._watch = client.register_script(WATCH_LUA)
        self._hold_fork = client.register_script(HOLD_FORK_LUA)
        self._fanout: Fanout | ClusterFanout | None = None
        self._fanout_lock = threading.Lock()
        self._parked = ParkedCalls(client)  # the append, the count, the fetch and the read

    @classmethod
    def from_url(
        cls,
        url: str,
        namespace: str = "cardroom",
        idempotency_ttl: float | None = None,
    ) -> RedisEventStore:
        """A store on the Redis at ``url`` (responses decoded as text): one server, or a Redis
        Cluster for a ``redis+cluster://host:port[,host:port...]`` URL (``service.store.connect``).

        Its pool (each node's, on a cluster) waits up to POOL_WAIT seconds for a free connection
        when MAX_CONNECTIONS are busy (a gevent web worker runs many requests at once;
        redis-py's default pool fails the 101st with "Too many connections"); still none is a
        store outage (503).
        """
        ttl = DEFAULT_IDEMPOTENCY_TTL if idempotency_ttl is None else idempotency_ttl
        client = client_from_url(
            url, decode_responses=True, max_connections=MAX_CONNECTIONS, timeout=POOL_WAIT
        )
        store = cls(client, namespace, ttl)
        try:
            store.adopt_legacy_index()
        except OUTAGES as err:  # a process may start before its Redis: the next start adopts
            log.warning("could not look for old listing keys (Redis unreachable: %s)", err)
        return store

    def _ttl_ms(self) -> int:
        return max(0, int(self.idempotency_ttl * 1000))

    def _record_create(
        self, meta: GameMeta, entries: list[records.Fields], idempotency: IdempotencyRecord | None
    ) -> Appended:
        return self._run_append(
            meta.id, 0, GENESIS, entries, idempotency, meta.status, records.meta_to_json(meta)
        )

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[Encoded],
        command: Mapping[str, Any],
        *,
        prev_hash: str,
        idempotency: IdempotencyRecord | None = None,
        status: str | None = None,
        salt: str = "",
        entries: Sequence[Mapping[str, str]] | None = None,
        snapshot: bytes = b"",
        quota: Quota | None = None,
        holder: Holder | None = None,
    ) -> Appended:
        built = (
            list(entries)
            if entries is not None
            else records.build_entries(events, command, prev_hash, salt)
        )
        seats = Seats(holder, records.seats_left(events))
        result = self._run_append(
            game_id, expected_version, prev_hash, built, idempotency, status or "", "", snapshot,
            quota, seats,
        )
        if status is not None and result.replayed is None:
            meta = self.meta(game_id)
            if meta is not None:
                self._index_move(meta, status)
        return result

    def _run_append(
        self,
        game_id: str,
        expected: int,
        prev_hash: str,
        entries: Sequence[Mapping[str, str]],
        idempotency: IdempotencyRecord | None,
        status: str,
        meta_json: str,
        snapshot: bytes = b"",
        quota: Quota | None = None,
        seats: Seats | None = None,
    ) -> Appended:
        main = self.key(game_id, IDEM_PART)
        kept = main if idempotency is None else self._idem_key(game_id, idempotency.key, expected)
        keys = [self.key(game_id, "events"), self.key(game_id, "meta"), kept,
                self.key(game_id, SNAPSHOT_PART), main]  # fmt: skip
        spec = ""
        if quota is not None and not quota.counted:
            quota.counted = True  # by this script, once it runs
            spec = quota_spec(quota)
            keys += self._quota_keys(game_id, quota)
        expire_from = 0
        if status == "over":  # every hash a record of this game may be kept in
            expire_from = len(keys) + 1
            keys += self._idem_keys(game_id, expected + len(entries))
        args: list[Any] = [
            expected,
            prev_hash,
            idempotency.key if idempotency else "",
            records.idempotency_to_json(idempotency) if idempotency else "",
            status,
            meta_json,
            len(entries),
            self._ttl_ms(),
            snapshot,
            spec,
            expire_from,
            *(seats or NO_SEATS).args(),
        ]
        for fields in entries:
            args.append(len(fields))
            for name, value in fields.items():
                args += [name, value]
        outcome, value, *newer = self._parked(self._append, keys, args)
        if outcome == "holder" and seats is not None and seats.holder is not None:
            raise SeatNotHeld(game_id, seats.holder.seat, value == "left")
        return replies.appended(game_id, expected, outcome, value, idempotency, newer)

    def count(self, game_id: str, quota: Quota) -> None:
        if quota.counted:
            return
        quota.counted = True
        keys = self._quota_keys(game_id, quota)
        outcome, value = self._parked(self._count, keys, [quota_spec(quota)])
        if outcome == "limited":
            raise replies.quota_exceeded(value)

    def join(self, game_id: str, seat: int, name: str, token_hash: str) -> GameMeta:
        meta = self.meta(game_id)
        if meta is None:
            raise UnknownGameId(game_id)
        if not 0 <= seat < meta.players or (
            meta.seats[seat].type != "open" and meta.seats[seat].token_hash != token_hash
        ):
            raise SeatTaken(f"seat {seat} of game {game_id} is not open")
        opened = len(meta.open_seats) + sum(1 for s in meta.seats if s.type == "human")
        joined = records.joined_seat_json(name, token_hash)
        outcome, status = self._join(
            keys=[self.key(game_id, "meta")], args=[f"join:{seat}", joined, opened]
        )
        if outcome == "unknown":
            raise UnknownGameId(game_id)
        if outcome == "taken":
            raise SeatTaken(f"seat {seat} of game {game_id} is not open")
        if status != meta.status:
            self._index_move(meta, status)
        after = self.meta(game_id)
        assert after is not None
        return after

    def vacate(self, game_id: str, seat: int) -> None:
        self._vacate(keys=[self.key(game_id, "meta")], args=[seat])

    def set_status(self, game_id: str, status: str) -> None:
        meta = self.meta(game_id)
        if meta is None:
            raise UnknownGameId(game_id)
        self.client.hset(self.key(game_id, "meta"), "status", status)
        if status == "over":
            self.client.delete(self.key(game_id, SNAPSHOT_PART))  # a finished game keeps none
        if status == "over" and self._ttl_ms() > 0:
            for hash_key in self._idem_keys(game_id, self.version(game_id)):
                self.client.pexpire(hash_key, self._ttl_ms())
        self._index_move(meta, status)

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """Through this process's one shared blocking XREAD (``service.store.fanout``), or on a
        Redis Cluster its one poller (``service.store.cluster_fanout``)."""
        return self.wait_any({game_id: after}, timeout)

    def wait_any(self, afters: Mapping[str, int], timeout: float) -> bool:
        """As ``wait``, for several games at once (one wake-up, whichever moved)."""
        with self._fanout_lock:
            if self._fanout is None:
                if isinstance(self.client, RedisCluster):
                    self._fanout = ClusterFanout(self.client)
                else:
                    self._fanout = Fanout(self.client, longest_block=self._longest_block())
        keyed = {self.key(game_id, "events"): after for game_id, after in afters.items()}
        return self._fanout.wait_any(keyed, timeout)

    def waiting(self) -> int:
        """Streams waiting in this process now."""
        return 0 if self._fanout is None else self._fanout.waiting()

    def _longest_block(self) -> float:
        """One XREAD blocks at most 1 s, and less than the client's socket timeout (redis-py's
        default is 5 s: a longer block would end in a TimeoutError, not an empty reply)."""
        timeout = socket_timeout(self.client)
        return 1.0 if not timeout else min(1.0, max(0.05, float(timeout) * 0.8))

    def ping(self) -> None:
        self.client.ping()

    def put_replay(self, game_id: str, text: str) -> None:
        self.client.set(self.key(game_id, REPLAY_PART), records.pack_replay(text))

    def put_review(self, game_id: str, seat: int, text: str) -> None:
        self.client.hset(self.key(game_id, REVIEW_PART), str(seat), text)

    def review(self, game_id: str, seat: int) -> str | None:
        found = self.client.hget(self.key(game_id, REVIEW_PART), str(seat))
        return None if found is None else str(found)

    def hold_fork(self, source_id: str, fork_id: str, text: str) -> None:
        keys = [self.key(source_id, "meta"), self.key(source_id, HELD_PART)]  # one slot
        self._hold_fork(keys=keys, args=[fork_id, records.pack_replay(text)])

    def held_forks(self, source_id: str) -> dict[str, str]:
        held = self.client.execute_command(  # type: ignore[no-untyped-call]
            "HGETALL", self.key(source_id, HELD_PART), **{NEVER_DECODE: True}
        )  # bytes: the files are compressed
        return {replies.text(fork): records.unpack_replay(raw) for fork, raw in held.items()}

    def watch(self, game_id: str, watcher: str, now_ms: int, until_ms: int) -> None:
        self._watch(keys=[self.key(game_id, WATCHERS_PART)], args=[now_ms, watcher, until_ms])

    def unwatch(self, game_id: str, watcher: str) -> None:
        self.client.zrem(self.key(game_id, WATCHERS_PART), watcher)

    def watchers(self, game_id: str, now_ms: int) -> int:
        return int(self.client.zcount(self.key(game_id, WATCHERS_PART), f"({now_ms}", "+inf"))

    # The clock index sits beside the listing index, outside the games' slots: one sorted set
    # (score: Unix ms) touched one key per command (the reset script too), so it works alike
    # on one Redis and on a Cluster (where it lives on the node of its own slot).
    def _clock_key(self) -> str:
        return f"{self.namespace}:index:clocks"

    def hint_clock(self, game_id: str, due_ms: int) -> None:
        self.client.zadd(self._clock_key(), {game_id: due_ms}, lt=True)

    def clocks_due(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        found: list[Any] = self.client.zrangebyscore(
            self._clock_key(), "-inf", now_ms, 0, limit, withscores=True
        )
        return [(replies.text(pair[0]), int(pair[1])) for pair in found]

    def reset_clock(self, game_id: str, seen_ms: int | None, due_ms: int | None) -> bool:
        seen = "" if seen_ms is None else str(seen_ms)
        new = "" if due_ms is None else str(due_ms)
        return bool(self._reset_clock(keys=[self._clock_key()], args=[game_id, seen, new]))


@dataclass(frozen=True, slots=True)
class Seats:
    """What an append checks and changes of a game's seats: the holder the acting token must
    be, the seats its batch leaves (vacated with it)."""

    holder: Holder | None = None
    leaving: Sequence[int] = ()

    def args(self) -> list[str]:
        """The append script's seat arguments: seat, token hash ('' '': none), seats left."""
        held = self.holder
        checked = ["", ""] if held is None or held.token_hash is None else [
            str(held.seat), held.token_hash]  # fmt: skip
        return [*checked, ",".join(map(str, self.leaving))]


NO_SEATS = Seats()


def quota_spec(quota: Quota) -> str:
    """A quota's windows as the scripts read them: ``amount:ms,amount:ms``."""
    return ",".join(f"{amount}:{ms}" for amount, ms in quota.windows)
