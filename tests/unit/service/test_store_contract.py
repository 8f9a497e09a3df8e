"""Every port's contract suite against the in-memory adapter and the Redis adapter on fakeredis."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import fakeredis
import pytest

from service.store import EventStore, InMemoryEventStore
from service.store.redis import RedisEventStore
from tests.support.redis_server import unique_namespace
from tests.support.store_contract import SUITES, over, rewrite_redis_entry


class InMemory:
    """The in-memory adapter, fresh for each test."""

    @pytest.fixture
    def store(self) -> InMemoryEventStore:
        return InMemoryEventStore()

    @pytest.fixture
    def tamper(self) -> Any:
        return lambda store, game_id, version, fields: store.tamper(game_id, version, fields)


class OnFakeredis:
    """The Redis adapter on a fakeredis server of its own."""

    @pytest.fixture
    def store(self) -> Iterator[RedisEventStore]:
        server = fakeredis.FakeServer()
        client = fakeredis.FakeRedis(server=server, decode_responses=True)
        yield RedisEventStore(client, unique_namespace())
        client.close()

    @pytest.fixture
    def tamper(self) -> Any:
        return rewrite_redis_entry


globals().update(over(InMemory, "InMemory"))  # every port's suite: TestEventLogInMemory, ...
globals().update(over(OnFakeredis, "OnFakeredis"))


def test_every_port_has_a_suite_run_over_each_adapter_here() -> None:
    ports = [base for base in EventStore.__bases__ if base is not Protocol]
    assert [suite.__name__ for suite in SUITES] == [f"{port.__name__}Contract" for port in ports]
    here = [cls for cls in globals().values() if isinstance(cls, type)]
    for adapter in (InMemory, OnFakeredis):
        run = {s for cls in here if issubclass(cls, adapter) for s in SUITES if issubclass(cls, s)}
        assert run == set(SUITES), adapter
