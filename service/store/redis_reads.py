"""The Redis store's reads (a mixin of ``RedisEventStore``): a game's metadata, events,
snapshot and replay, each in one round trip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.client import NEVER_DECODE

from service.store import records, replies
from service.store.connect import Client, ParkedCalls
from service.store.game_keys import REPLAY_PART, SNAPSHOT_PART, GameKeys
from service.store.port import Batch, ChainReport, Fetched, GameMeta, StoredEvent


class RedisReads(GameKeys):
    """Reads of ``RedisEventStore`` (``client``, its parked calls and the
    registered fetch script come from the store)."""

    client: Client
    _parked: ParkedCalls
    _fetch_latest: Any

    def fetch(self, game_id: str, after: int, idempotency_key: str | None = None) -> Fetched:
        pipe = self.client.pipeline(transaction=True)
        pipe.hgetall(self.key(game_id, "meta"))
        pipe.xrange(self.key(game_id, "events"), min=f"{after + 1}-0")
        pipe.xrevrange(self.key(game_id, "events"), count=1)
        for hash_key in self._idem_hashes(game_id, idempotency_key):
            pipe.hget(hash_key, idempotency_key or "")
        got = pipe.execute()
        meta = records.meta_from_fields(replies.strings(got[0]))
        if meta is None:
            return Fetched(meta=None)
        return Fetched(
            meta=meta,
            events=replies.parse(got[1]),
            idempotency=records.idempotency_from_json(
                idempotency_key, next((r for r in got[3:] if r is not None), None)
            )
            if idempotency_key
            else None,
            head=records.version_of(got[2][0][0]) if got[2] else 0,
        )

    def fetch_latest(self, game_id: str, idempotency_key: str | None = None) -> Fetched:
        keys = [self.key(game_id, "meta"), self.key(game_id, SNAPSHOT_PART),
                self.key(game_id, "events")]  # fmt: skip
        keys += self._idem_hashes(game_id, idempotency_key)
        got = self._parked(self._fetch_latest, keys, [idempotency_key or ""], raw=True)
        if not got:
            return Fetched(meta=None)
        fields, snapshot, raw_events, record = got
        events = replies.parse(raw_events)
        return Fetched(
            meta=records.meta_from_fields(replies.strings(fields)),
            events=events,
            idempotency=records.idempotency_from_json(
                idempotency_key, replies.text(record) if record else None
            )
            if idempotency_key
            else None,
            head=events[-1].version if events else 0,
            snapshot=snapshot or None,
        )

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        stop = "+" if upto is None else f"{upto}-0"
        if upto is not None and upto <= after:
            return []
        # on a parked connection: among others this is a catch-up's read (service.acting), the
        # first round trip of every other action when two processes take turns on a game
        return replies.parse(
            self._parked.command("XRANGE", self.key(game_id, "events"), f"{after + 1}-0", stop)
            or []
        )

    def entries(self, game_id: str) -> list[tuple[int, dict[str, str]]]:
        raw = self.client.xrange(self.key(game_id, "events")) or []
        return [
            (records.version_of(replies.text(entry_id)), replies.strings(fields))
            for entry_id, fields in raw
        ]

    def batches(self, game_id: str) -> list[Batch]:
        return records.group_batches(self.read(game_id))

    def version(self, game_id: str) -> int:
        last = self.client.xrevrange(self.key(game_id, "events"), count=1)
        return records.version_of(replies.text(last[0][0])) if last else 0

    def verify_chain(self, game_id: str) -> ChainReport:
        return records.check_chain(self.entries(game_id), records.salt_of(self.meta(game_id)))

    def meta(self, game_id: str) -> GameMeta | None:
        stored = self.client.hgetall(self.key(game_id, "meta"))
        return records.meta_from_fields(replies.strings(stored))

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xrevrange(self.key(game_id, "events"), count=1)
        lasts = pipe.execute() if game_ids else []
        return {
            game_id: records.version_of(last[0][0]) if last else 0
            for game_id, last in zip(game_ids, lasts, strict=True)
        }

    def snapshot(self, game_id: str) -> bytes | None:
        raw = self.client.execute_command(  # type: ignore[no-untyped-call]
            "GET", self.key(game_id, SNAPSHOT_PART), **{NEVER_DECODE: True}
        )
        return raw if isinstance(raw, bytes) else None

    def replay(self, game_id: str) -> str | None:
        raw = self.client.execute_command(  # type: ignore[no-untyped-call]
            "GET", self.key(game_id, REPLAY_PART), **{NEVER_DECODE: True}
        )  # bytes: the stored replay is compressed
        return None if raw is None else records.unpack_replay(raw)
