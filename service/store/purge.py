"""Retention on the Redis store: which finished games are due to leave, and forgetting one.

``ended_before`` reads ``<ns>:index:{<ns>}:ended`` (written with each move to ``over``,
``service.store.listing``); games over since before that index existed are given the time they
are first found. ``purge`` removes a game's index entries (the listing's slot), then its clock
index and create notes, then its own keys (its slot), and its end time last: a crash at any
step leaves the end time, so the next pass finds the game and purges it again.
"""

from __future__ import annotations

import time

from service.store import replies
from service.store.connect import Client
from service.store.game_keys import (
    HELD_PART,
    REPLAY_PART,
    REVIEW_PART,
    SNAPSHOT_PART,
    WATCHERS_PART,
)
from service.store.port import STATUSES, GameMeta


class RedisPurge:
    """Retention of ``RedisEventStore`` (a mixin: the keys come from the store)."""

    client: Client
    namespace: str

    def key(self, game_id: str, part: str) -> str:
        raise NotImplementedError

    def _idem_keys(self, game_id: str, version: int) -> list[str]:
        raise NotImplementedError

    def _index_key(self, game: str | None, status: str | None) -> str:
        raise NotImplementedError

    def _relisted_key(self) -> str:
        raise NotImplementedError  # RedisListing's

    def _ended_key(self) -> str:
        raise NotImplementedError

    def _creating_key(self) -> str:
        raise NotImplementedError

    def _clock_key(self) -> str:
        raise NotImplementedError

    def meta(self, game_id: str) -> GameMeta | None:
        raise NotImplementedError

    def version(self, game_id: str) -> int:
        raise NotImplementedError

    def ended_before(self, before: float, limit: int = 100) -> list[str]:
        ended = self._ended_key()
        unnoted = self.client.zdiff([self._index_key(None, "over"), ended])
        if unnoted:
            now = time.time()
            self.client.zadd(ended, {replies.text(i): now for i in unnoted}, nx=True)
        found = self.client.zrangebyscore(ended, "-inf", before, 0, limit)
        return [replies.text(i) for i in found]

    def purge(self, game_id: str) -> bool:
        meta = self.meta(game_id)
        pipe = self.client.pipeline(transaction=True)  # the listing's own slot
        for game in {None, meta.game if meta else None}:
            pipe.zrem(self._index_key(game, None), game_id)
            for status in STATUSES:
                pipe.zrem(self._index_key(game, status), game_id)
        pipe.zrem(self._relisted_key(), game_id)
        pipe.execute()
        self.client.zrem(self._clock_key(), game_id)
        self.client.zrem(self._creating_key(), game_id)
        events = self.key(game_id, "events")
        keys = [events, *(self.key(game_id, p) for p in ("meta", SNAPSHOT_PART, REPLAY_PART,
                                                       REVIEW_PART, WATCHERS_PART, HELD_PART))]
        keys += self._idem_keys(game_id, self.version(game_id))
        had_events = bool(self.client.exists(events))
        self.client.delete(*keys)  # one slot: the game's
        self.client.zrem(self._ended_key(), game_id)
        return had_events
