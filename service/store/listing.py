"""The Redis store's listing and create bookkeeping: the parts that live outside a game's slot.

A game's own keys share its hash tag ``{<id>}`` (``service.store.redis``). What spans games
lives apart, each written in a step of its own after the game's keys, and works the same on one
Redis and on a Redis Cluster:

- the listing: sorted sets (score = creation time) ``<ns>:index:{<ns>}:all``,
  ``<ns>:index:{<ns>}:game:<game>``, ``<ns>:index:{<ns>}:status:<status>`` and
  ``<ns>:index:{<ns>}:game:<game>:status:<status>``, all in the one slot of the hash tag
  ``{<ns>}``, so that one MULTI lists a game or moves it between statuses atomically (never in
  two status sets, nor in none); ``<ns>:index:{<ns>}:ended`` (score = when it moved to over),
  in the same MULTI as its move to ``over``: what retention reads (``service.store.purge``);
- ``<ns>:creating`` (sorted set, score = time): creations begun and not settled. A create
  notes itself there, writes the game's keys marked ``due`` (one script, the game's slot),
  lists it, schedules its first turns and settles (unmarks and un-notes); a retry or the
  sweeper finishes one a crash stopped half-way (``finish_create``), and the sweeper moves a
  game whose status changed without its index (a crash between an append and its move).

A new index spanning games follows the same pattern: keys with a hash tag of their own (one
slot per index, or per shard of it, read with a fan-out), written in a separate step after the
game's keys, idempotently, with a note or a check that lets the sweeper finish a step a crash
left undone. Never one command, script or MULTI over a game's keys and an index's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import redis

from service.store import records
from service.store.connect import Client
from service.store.port import STATUSES, GameMeta


class RedisListing:
    """The listing and create bookkeeping of ``RedisEventStore`` (a mixin: ``client``,
    ``namespace`` and ``key`` come from the store)."""

    client: Client
    namespace: str

    def key(self, game_id: str, part: str) -> str:
        raise NotImplementedError

    def adopt_legacy_index(self) -> int:
        """Rename the listing's keys written before the index had its own hash tag
        (``<ns>:index:all`` ... -> ``<ns>:index:{<ns>}:all`` ...), merging into any new ones;
        ``<ns>:index:all`` goes last, so an interrupted run is resumed by the next. One Redis
        server only (no cluster ever held them). Returns how many keys were renamed."""
        prefix = f"{self.namespace}:index:"
        if not isinstance(self.client, redis.Redis) or not self.client.exists(f"{prefix}all"):
            return 0
        found = (_text(k) for k in self.client.scan_iter(match=f"{prefix}*", count=500))
        old = sorted((k for k in found if not k[len(prefix) :].startswith("{")),
                     key=lambda k: k == f"{prefix}all")  # fmt: skip
        for key in old:
            new = f"{prefix}{{{self.namespace}}}:{key[len(prefix) :]}"
            pipe = self.client.pipeline(transaction=True)
            pipe.zunionstore(new, [new, key], aggregate="MIN")
            pipe.delete(key)
            pipe.execute()
        return len(old)

    def finish_create(self, game_id: str) -> GameMeta | None:
        fields = _strings(self.client.hgetall(self.key(game_id, "meta")))
        meta = records.meta_from_fields(fields)
        if meta is None or "due" not in fields:
            self.client.zrem(self._creating_key(), game_id)
            return None
        self._list_game(meta)
        return meta

    def settle_create(self, game_id: str) -> None:
        pipe = self.client.pipeline(transaction=False)  # two slots on a Cluster: no MULTI
        pipe.hdel(self.key(game_id, "meta"), "due")
        pipe.zrem(self._creating_key(), game_id)
        pipe.execute()

    def listed_status(self, game_id: str) -> str | None:
        pipe = self.client.pipeline(transaction=False)
        for status in STATUSES:
            pipe.zscore(self._index_key(None, status), game_id)
        found = [s for s, score in zip(STATUSES, pipe.execute(), strict=True) if score is not None]
        return found[0] if found else None

    def relisted_since(self, after: float, limit: int = 1000) -> list[str]:
        found = self.client.zrangebyscore(self._relisted_key(), f"({after}", "+inf", 0, limit)
        return [_text(i) for i in found]

    def _relisted_key(self) -> str:
        return f"{self.namespace}:index:{{{self.namespace}}}:relisted"

    def unsettled(self, before: float, limit: int = 100) -> list[str]:
        ids = self.client.zrangebyscore(self._creating_key(), "-inf", before, 0, limit)
        return [str(i) for i in ids]

    def _note_create(self, meta: GameMeta) -> None:
        self.client.zadd(self._creating_key(), {meta.id: meta.created}, nx=True)

    def _list_game(self, meta: GameMeta) -> None:
        """Add the game to every index it belongs to (idempotent; the status from ``meta``);
        one MULTI on the index's own slot."""
        pipe = self.client.pipeline(transaction=True)
        for game in (None, meta.game):
            pipe.zadd(self._index_key(game, None), {meta.id: meta.created})
            for old in STATUSES:
                if old != meta.status:
                    pipe.zrem(self._index_key(game, old), meta.id)
            pipe.zadd(self._index_key(game, meta.status), {meta.id: meta.created})
        pipe.zadd(self._relisted_key(), {meta.id: time.time()})
        pipe.execute()

    def _creating_key(self) -> str:
        return f"{self.namespace}:creating"

    def list_games(
        self,
        game: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameMeta]:
        if limit <= 0:
            return []
        ids = self.client.zrevrange(self._index_key(game, status), offset, offset + limit - 1)
        pipe = self.client.pipeline(transaction=False)
        for game_id in ids:
            pipe.hgetall(self.key(_text(game_id), "meta"))
        metas = [records.meta_from_fields(fields) for fields in pipe.execute()]
        return [m for m in metas if m is not None]

    def game_count(self, status: str) -> int:
        return int(self.client.zcard(self._index_key(None, status)))

    def _index_key(self, game: str | None, status: str | None) -> str:
        parts = [self.namespace, "index", f"{{{self.namespace}}}"]
        if game is not None:
            parts += ["game", game]
        if status is not None:
            parts += ["status", status]
        if game is None and status is None:
            parts.append("all")
        return ":".join(parts)

    def _index_move(self, meta: GameMeta, status: str) -> None:
        """Move the game to the ``status`` indexes (noting when it ended, once): one MULTI on
        the index's own slot."""
        pipe = self.client.pipeline(transaction=True)
        for game in (None, meta.game):
            for old in STATUSES:
                if old != status:
                    pipe.zrem(self._index_key(game, old), meta.id)
            pipe.zadd(self._index_key(game, status), {meta.id: meta.created})
        if status == "over":
            pipe.zadd(self._ended_key(), {meta.id: time.time()}, nx=True)
        pipe.zadd(self._relisted_key(), {meta.id: time.time()})
        pipe.execute()

    def _ended_key(self) -> str:
        return f"{self.namespace}:index:{{{self.namespace}}}:ended"


def _text(value: object) -> str:
    """A reply item as text (the store's client decodes replies; bytes are decoded here too)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _strings(fields: Mapping[Any, Any] | None) -> dict[str, str]:
    return {_text(k): _text(v) for k, v in (fields or {}).items()}
