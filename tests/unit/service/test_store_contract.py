"""The store contract against the in-memory adapter and the Redis adapter on fakeredis."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest

from service.store import InMemoryEventStore
from service.store.redis import RedisEventStore
from tests.support.redis_server import unique_namespace
from tests.support.store_contract import StoreContract, rewrite_redis_entry


class TestInMemoryStore(StoreContract):
    @pytest.fixture
    def store(self) -> InMemoryEventStore:
        return InMemoryEventStore()

    @pytest.fixture
    def tamper(self) -> Any:
        return lambda store, game_id, version, fields: store.tamper(game_id, version, fields)


class TestRedisStoreOnFakeredis(StoreContract):
    @pytest.fixture
    def store(self) -> Iterator[RedisEventStore]:
        server = fakeredis.FakeServer()
        client = fakeredis.FakeRedis(server=server, decode_responses=True)
        yield RedisEventStore(client, unique_namespace())
        client.close()

    @pytest.fixture
    def tamper(self) -> Any:
        return rewrite_redis_entry
