"""The event store runs unchanged on a real Redis Cluster (three masters of the tests' own).

The cluster refuses any command, script or MULTI whose keys span two hash slots (CROSSSLOT),
so every port's contract suite passing here shows every multi-key step touches one slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from redis.cluster import RedisCluster, key_slot

from service.bots import RedisBotRegistry
from service.store.connect import client_from_url, cluster_nodes, is_cluster_url
from service.store.port import STATUSES
from service.store.redis import RedisEventStore
from tests.support.redis_cluster import OwnCluster
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.support.store_contract import make_meta, over, rewrite_redis_entry
from workers.scheduler import RQScheduler

pytestmark = pytest.mark.integration


@pytest.fixture
def cluster_store(cluster: OwnCluster) -> Iterator[RedisEventStore]:
    namespace = unique_namespace("cluster")
    store = RedisEventStore.from_url(cluster.url, namespace)
    yield store
    delete_namespace(store.client, namespace)  # type: ignore[arg-type]
    store.client.close()


class OnCluster:
    """The Redis adapter on the tests' own Redis Cluster."""

    @pytest.fixture
    def store(self, cluster_store: RedisEventStore) -> RedisEventStore:
        return cluster_store

    @pytest.fixture
    def tamper(self) -> Any:
        return rewrite_redis_entry


globals().update(over(OnCluster, "OnCluster"))


def test_a_cluster_url_makes_a_cluster_client(cluster: OwnCluster) -> None:
    assert is_cluster_url(cluster.url) and not is_cluster_url("redis://127.0.0.1:6379/0")
    assert cluster_nodes(cluster.url) == [("127.0.0.1", p) for p in cluster.ports]
    client = client_from_url(cluster.url, decode_responses=True)
    assert isinstance(client, RedisCluster)
    assert len(client.get_primaries()) == 3


def test_a_games_keys_share_one_slot_and_games_spread_over_the_nodes(
    cluster_store: RedisEventStore,
) -> None:
    client = cluster_store.client
    assert isinstance(client, RedisCluster)
    nodes = set()
    for _ in range(24):
        meta = make_meta()
        parts = ("events", "meta", "idem", "replay")
        slots = {key_slot(cluster_store.key(meta.id, p).encode()) for p in parts}
        assert len(slots) == 1
        nodes.add(client.get_node_from_key(cluster_store.key(meta.id, "meta")).name)
    assert len(nodes) == 3  # the games' slots spread over every master


def test_with_rq_apart_the_scheduler_reads_bot_accounts_from_the_store(
    cluster_store: RedisEventStore, cluster: OwnCluster
) -> None:
    namespace = cluster_store.namespace
    RedisBotRegistry(cluster_store.client, namespace).create_account("mybot", "h" * 64)
    scheduler = RQScheduler.from_url(redis_url(), namespace, store_url=cluster.url)
    assert scheduler.connection.connection_pool.connection_kwargs["port"] != cluster.ports[0]
    assert scheduler.is_http_bot("mybot")  # an HTTP bot account: never queued
    assert not scheduler.is_http_bot("someone-else")
    assert not scheduler.enqueue_turn("g1", 0, 3, "mybot")


def test_the_listing_lives_in_one_slot_of_its_own_apart_from_the_games(
    cluster_store: RedisEventStore,
) -> None:
    keys = [
        cluster_store._index_key(game, status)
        for game in (None, "shithead", "sixty_six")
        for status in (None, *STATUSES)
    ]
    slots = {key_slot(k.encode()) for k in keys}
    assert len(slots) == 1  # one MULTI moves a game between them
    assert key_slot(cluster_store.key(make_meta().id, "meta").encode()) not in slots
