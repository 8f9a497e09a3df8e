"""The in-memory adapter: the same stored shapes as Redis, behind one lock (tests, local runs)."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain.chain import GENESIS
from service.store import records
from service.store.commitment_log import MemoryCommitmentLog
from service.store.port import (
    DEFAULT_IDEMPOTENCY_TTL,
    Appended,
    Batch,
    ChainBroken,
    ChainReport,
    Encoded,
    Fetched,
    GameExists,
    GameMeta,
    Holder,
    IdempotencyRecord,
    Quota,
    QuotaExceeded,
    SeatNotHeld,
    SeatTaken,
    StoredEvent,
    UnknownGameId,
    VersionConflict,
)
from service.store.records import Fields

QUOTA_COUNTERS = 4096  # counters kept before those of ended windows are dropped


@dataclass
class _Game:
    fields: dict[str, str]
    entries: list[Fields] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)
    keys_expire: float | None = None  # monotonic time the idempotency records expire at
    snapshot: bytes = b""  # the latest state snapshot (service.snapshots)
    ended: float | None = None  # when it was moved to over (Unix seconds)
    relisted: float | None = None  # when it was listed or last moved to another status
    held: dict[str, str] = field(default_factory=dict)  # its sealed forks' files (hold_fork)


class InMemoryEventStore(MemoryCommitmentLog, records.CreateInSteps):
    """An EventStore in a dict. Thread-safe; ``wait`` wakes on every append."""

    def __init__(self, idempotency_ttl: float = DEFAULT_IDEMPOTENCY_TTL) -> None:
        MemoryCommitmentLog.__init__(self)
        self.idempotency_ttl = idempotency_ttl
        self._games: dict[str, _Game] = {}
        self._listed: set[str] = set()
        self._notes: dict[str, float] = {}
        self._lock = threading.Condition()
        self._replays: dict[str, str] = {}
        self._reviews: dict[tuple[str, int], str] = {}
        self._clocks: dict[str, int] = {}
        self._watchers: dict[str, dict[str, int]] = {}  # game -> watcher -> expiry (Unix ms)
        self._quotas: dict[tuple[str, str, int, int], tuple[int, float]] = {}  # count, ends at


    def finish_create(self, game_id: str) -> GameMeta | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is None or "due" not in game.fields:
                self._notes.pop(game_id, None)
                return None
            meta = records.meta_from_fields(game.fields)
            assert meta is not None
        self._list_game(meta)
        return meta

    def settle_create(self, game_id: str) -> None:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                game.fields.pop("due", None)
            self._notes.pop(game_id, None)

    def unsettled(self, before: float, limit: int = 100) -> list[str]:
        with self._lock:
            notes = sorted((t, i) for i, t in self._notes.items() if t <= before)
        return [i for _, i in notes[:limit]]

    # the steps of a create, as in the Redis adapter (tests inject failures between them)
    def _note_create(self, meta: GameMeta) -> None:
        with self._lock:
            self._notes.setdefault(meta.id, meta.created)

    def _record_create(
        self, meta: GameMeta, entries: list[Fields], idempotency: IdempotencyRecord | None
    ) -> Appended:
        with self._lock:
            if meta.id in self._games:
                existing = self._games[meta.id]
                if idempotency is not None:
                    raw = self._keys(existing).get(idempotency.key)
                    earlier = records.idempotency_from_json(idempotency.key, raw)
                    if earlier is not None:
                        return records.replayed(earlier, idempotency)
                raise GameExists(meta.id)
            fields = {"meta": records.meta_to_json(meta), "status": meta.status, "due": "1"}
            self._games[meta.id] = _Game(fields=fields, entries=entries)
            if idempotency is not None:
                self._games[meta.id].keys[idempotency.key] = records.idempotency_to_json(
                    idempotency
                )
            self._lock.notify_all()
        return Appended(version=len(entries))

    def _list_game(self, meta: GameMeta) -> None:
        with self._lock:
            self._listed.add(meta.id)
            self._games[meta.id].relisted = time.time()

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
            [dict(e) for e in entries]
            if entries is not None
            else records.build_entries(events, command, prev_hash, salt)
        )
        with self._lock:
            if quota is not None:
                self._count(game_id, quota)
            if holder is not None and holder.token_hash is not None:
                self._check_holder(game_id, holder)
            game = self._game(game_id)
            if idempotency is not None:
                earlier = records.idempotency_from_json(
                    idempotency.key, self._keys(game).get(idempotency.key)
                )
                if earlier is not None:
                    return records.replayed(earlier, idempotency)
            current = len(game.entries)
            if current != expected_version:
                newer = [
                    records.parse_entry(v, game.entries[v - 1])
                    for v in range(expected_version + 1, current + 1)
                    if v >= 1
                ]
                raise VersionConflict(game_id, expected_version, current, newer)
            head = game.entries[-1]["hash"] if game.entries else GENESIS
            if head != prev_hash:
                raise ChainBroken(f"game {game_id}: head hash differs from prev_hash")
            game.entries.extend(built)
            for seat in records.seats_left(events):
                self._vacate(game, seat)
            if snapshot and status != "over":
                game.snapshot = snapshot
            if idempotency is not None:
                game.keys[idempotency.key] = records.idempotency_to_json(idempotency)
            if status is not None:
                self._set_status(game, status)
            self._lock.notify_all()
            return Appended(version=len(game.entries))

    def count(self, game_id: str, quota: Quota) -> None:
        with self._lock:
            self._count(game_id, quota)

    def _count(self, game_id: str, quota: Quota) -> None:
        """Count once in each fixed window, as the Redis scripts do (under the lock)."""
        if quota.counted:
            return
        quota.counted = True
        now, refused = time.monotonic(), None
        for index, (amount, ms) in enumerate(quota.windows):
            key = (game_id, quota.name, amount, ms)
            count, ends = self._quotas.get(key, (0, 0.0))
            if ends <= now:
                count, ends = 0, now + ms / 1000
            self._quotas[key] = (count + 1, ends)
            if count + 1 > amount and refused is None:
                refused = QuotaExceeded(index, round((ends - now) * 1000))
        if len(self._quotas) > QUOTA_COUNTERS:  # windows that ended are forgotten
            self._quotas = {k: v for k, v in self._quotas.items() if v[1] > now}
        if refused is not None:
            raise refused

    def fetch(self, game_id: str, after: int, idempotency_key: str | None = None) -> Fetched:
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return Fetched(meta=None)
            return self._fetched(game, after, idempotency_key)

    def fetch_latest(self, game_id: str, idempotency_key: str | None = None) -> Fetched:
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return Fetched(meta=None)
            snap = records.snapshot_version(game.snapshot)
            fetched = self._fetched(game, 0 if snap is None else snap - 1, idempotency_key)
            return replace(fetched, snapshot=game.snapshot or None)

    def _fetched(self, game: _Game, after: int, idempotency_key: str | None) -> Fetched:
        raw_key = self._keys(game).get(idempotency_key) if idempotency_key else None
        return Fetched(
            meta=records.meta_from_fields(game.fields),
            events=self._slice(game, after, None),
            idempotency=records.idempotency_from_json(idempotency_key or "", raw_key),
            head=len(game.entries),
        )

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        with self._lock:
            game = self._games.get(game_id)
            return [] if game is None else self._slice(game, after, upto)

    def entries(self, game_id: str) -> list[tuple[int, dict[str, str]]]:
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return []
            return [(i + 1, dict(e)) for i, e in enumerate(game.entries)]

    def batches(self, game_id: str) -> list[Batch]:
        return records.group_batches(self.read(game_id))

    def version(self, game_id: str) -> int:
        with self._lock:
            game = self._games.get(game_id)
            return 0 if game is None else len(game.entries)

    def verify_chain(self, game_id: str) -> ChainReport:
        return records.check_chain(self.entries(game_id), records.salt_of(self.meta(game_id)))

    def meta(self, game_id: str) -> GameMeta | None:
        with self._lock:
            game = self._games.get(game_id)
            return None if game is None else records.meta_from_fields(game.fields)

    def join(self, game_id: str, seat: int, name: str, token_hash: str) -> GameMeta:
        with self._lock:
            game = self._game(game_id)
            meta = records.meta_from_fields(game.fields)
            assert meta is not None
            joined = records.joined_seat_json(name, token_hash)
            if not 0 <= seat < meta.players or (
                meta.seats[seat].type != "open" and game.fields.get(f"join:{seat}") != joined
            ):
                raise SeatTaken(f"seat {seat} of game {game_id} is not open")
            game.fields[f"join:{seat}"] = joined
            meta = records.meta_from_fields(game.fields)
            assert meta is not None
            game.fields["status"] = records.status_after_join(meta)
            if game.fields["status"] != meta.status:
                game.relisted = time.time()
            return meta.with_status(game.fields["status"])

    def vacate(self, game_id: str, seat: int) -> None:
        with self._lock:
            self._vacate(self._game(game_id), seat)

    @staticmethod
    def _vacate(game: _Game, seat: int) -> None:
        digest = records.token_hash_of(game.fields.pop(f"join:{seat}", None))
        if digest:
            game.fields[records.left_field(digest)] = digest

    def _check_holder(self, game_id: str, holder: Holder) -> None:
        """SeatNotHeld unless the game's record names the token as the seat's holder."""
        game = self._games.get(game_id)
        fields = game.fields if game is not None else {}
        if records.token_hash_of(fields.get(f"join:{holder.seat}")) != holder.token_hash:
            left = records.left_field(str(holder.token_hash)) in fields
            raise SeatNotHeld(game_id, holder.seat, left)

    def set_status(self, game_id: str, status: str) -> None:
        with self._lock:
            self._set_status(self._game(game_id), status)

    def list_games(
        self,
        game: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameMeta]:
        with self._lock:
            metas = [
                records.meta_from_fields(g.fields)
                for i, g in self._games.items()
                if i in self._listed
            ]
        found = [
            m
            for m in metas
            if m is not None
            and (game is None or m.game == game)
            and (status is None or m.status == status)
        ]
        found.sort(key=lambda m: (m.created, m.id), reverse=True)
        return found[offset : offset + limit]

    def listed_status(self, game_id: str) -> str | None:
        with self._lock:
            if game_id not in self._listed:
                return None
            return str(self._games[game_id].fields.get("status") or "") or None

    def relisted_since(self, after: float, limit: int = 1000) -> list[str]:
        with self._lock:
            found = sorted((g.relisted, i) for i, g in self._games.items()
                           if i in self._listed and g.relisted is not None and g.relisted > after)
        return [game_id for _, game_id in found[:limit]]

    def game_count(self, status: str) -> int:
        with self._lock:
            listed = [self._games[i].fields.get("status") for i in self._listed]
        return sum(1 for s in listed if s == status)

    def ended_before(self, before: float, limit: int = 100) -> list[str]:
        with self._lock:
            ended = [(g.ended, i) for i, g in self._games.items() if i in self._listed and g.ended]
        due = sorted((when, i) for when, i in ended if when is not None and when <= before)
        return [i for _, i in due[:limit]]

    def purge(self, game_id: str) -> bool:
        with self._lock:
            self._replays.pop(game_id, None)
            for key in [k for k in self._reviews if k[0] == game_id]:
                del self._reviews[key]
            self._clocks.pop(game_id, None)
            self._watchers.pop(game_id, None)
            self._notes.pop(game_id, None)
            self._listed.discard(game_id)
            return self._games.pop(game_id, None) is not None

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        return self.wait_any({game_id: after}, timeout)

    def wait_any(self, afters: Mapping[str, int], timeout: float) -> bool:
        def moved() -> bool:
            return any(self._length(game_id) > after for game_id, after in afters.items())

        with self._lock:
            return bool(self._lock.wait_for(moved, timeout))

    # test support: the memory twin of editing Redis by hand
    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        with self._lock:
            return {
                game_id: len(game.entries) if (game := self._games.get(game_id)) else 0
                for game_id in game_ids
            }

    def put_replay(self, game_id: str, text: str) -> None:
        with self._lock:
            self._replays[game_id] = text

    def replay(self, game_id: str) -> str | None:
        with self._lock:
            return self._replays.get(game_id)

    def put_review(self, game_id: str, seat: int, text: str) -> None:
        with self._lock:
            self._reviews[(game_id, seat)] = text

    def review(self, game_id: str, seat: int) -> str | None:
        with self._lock:
            return self._reviews.get((game_id, seat))

    def hold_fork(self, source_id: str, fork_id: str, text: str) -> None:
        with self._lock:
            source = self._games.get(source_id)
            if source is not None:  # kept with the source's own record, purged with it
                source.held[fork_id] = text

    def held_forks(self, source_id: str) -> dict[str, str]:
        with self._lock:
            source = self._games.get(source_id)
            return {} if source is None else dict(source.held)

    def watch(self, game_id: str, watcher: str, now_ms: int, until_ms: int) -> None:
        with self._lock:
            kept = {w: t for w, t in self._watchers.get(game_id, {}).items() if t > now_ms}
            self._watchers[game_id] = {**kept, watcher: until_ms}

    def unwatch(self, game_id: str, watcher: str) -> None:
        with self._lock:
            self._watchers.get(game_id, {}).pop(watcher, None)

    def watchers(self, game_id: str, now_ms: int) -> int:
        with self._lock:
            return sum(1 for t in self._watchers.get(game_id, {}).values() if t > now_ms)

    def hint_clock(self, game_id: str, due_ms: int) -> None:
        with self._lock:
            self._clocks[game_id] = min(due_ms, self._clocks.get(game_id, due_ms))

    def clocks_due(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        with self._lock:
            due = sorted((t, g) for g, t in self._clocks.items() if t <= now_ms)
        return [(g, t) for t, g in due[:limit]]

    def reset_clock(self, game_id: str, seen_ms: int | None, due_ms: int | None) -> bool:
        with self._lock:
            noted = self._clocks.get(game_id)
            if noted is None or (seen_ms is not None and noted != seen_ms):
                return False
            if due_ms is None:
                del self._clocks[game_id]
            else:
                self._clocks[game_id] = due_ms
            return True

    def snapshot(self, game_id: str) -> bytes | None:
        with self._lock:
            game = self._games.get(game_id)
            return game.snapshot if game is not None and game.snapshot else None

    def ping(self) -> None:
        """It is in this process: it always answers."""

    def tamper(self, game_id: str, version: int, fields: Mapping[str, str]) -> None:
        """Overwrite stored fields of one entry (for tests of the chain check)."""
        with self._lock:
            self._game(game_id).entries[version - 1].update(fields)

    def _set_status(self, game: _Game, status: str) -> None:
        if game.fields.get("status") != status:
            game.relisted = time.time()
        game.fields["status"] = status
        if status == "over":
            game.snapshot = b""  # a finished game keeps no snapshot
            game.ended = game.ended or time.time()
        if status == "over" and self.idempotency_ttl > 0:
            game.keys_expire = time.monotonic() + self.idempotency_ttl

    @staticmethod
    def _keys(game: _Game) -> dict[str, str]:
        """The game's idempotency records (none once they expired)."""
        if game.keys_expire is not None and time.monotonic() >= game.keys_expire:
            game.keys.clear()
            game.keys_expire = None
        return game.keys

    def _length(self, game_id: str) -> int:
        game = self._games.get(game_id)
        return 0 if game is None else len(game.entries)

    def _game(self, game_id: str) -> _Game:
        game = self._games.get(game_id)
        if game is None:
            raise UnknownGameId(game_id)
        return game

    @staticmethod
    def _slice(game: _Game, after: int, upto: int | None) -> list[StoredEvent]:
        stop = len(game.entries) if upto is None else min(upto, len(game.entries))
        start = max(after, 0)
        return [records.parse_entry(v, game.entries[v - 1]) for v in range(start + 1, stop + 1)]
