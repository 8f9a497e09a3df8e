"""Listing keys written before the index had a hash tag of its own are adopted on start."""

from __future__ import annotations

import logging

import pytest
import redis

from service.store.redis import RedisEventStore
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.support.store_contract import START, events, make_meta

pytestmark = pytest.mark.integration


def test_a_store_started_on_old_listing_keys_renames_them_and_lists_every_game() -> None:
    client = redis.Redis.from_url(redis_url(), decode_responses=True)
    namespace = unique_namespace("legacy")
    try:
        store = RedisEventStore(client, namespace)
        metas = [make_meta(status="playing"), make_meta()]
        for meta in metas:
            store.create(meta, events("GameStarted"), START)
        new = sorted(client.scan_iter(match=f"{namespace}:index:{{*", count=500))
        assert f"{namespace}:index:{{{namespace}}}:all" in new
        for key in new:  # as the previous version named them
            client.rename(key, key.replace(f"{{{namespace}}}:", ""))
        assert store.list_games() == []

        started = RedisEventStore.from_url(redis_url(), namespace)
        assert [m.id for m in started.list_games()] == [m.id for m in reversed(metas)]
        assert [m.id for m in started.list_games(status="playing")] == [metas[0].id]
        left = [k for k in client.scan_iter(match=f"{namespace}:index:*") if "{" not in k]
        assert left == []
        assert started.adopt_legacy_index() == 0  # nothing more to do
    finally:
        delete_namespace(client, namespace)


def test_a_store_started_before_its_redis_answers_says_so_and_starts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="service.store.redis"):
        store = RedisEventStore.from_url("redis://127.0.0.1:1/0")  # nothing listens there
    [record] = caplog.records
    assert record.getMessage().startswith(
        "could not look for old listing keys (Redis unreachable: Error "
    )
    assert store.namespace == "cardroom"  # the default namespace, as RedisEventStore's
    assert RedisEventStore(store.client).key("g1", "events") == "cardroom:game:{g1}:events"
    brief = RedisEventStore.from_url(redis_url(), unique_namespace(), idempotency_ttl=60)
    assert brief.idempotency_ttl == 60
