"""Idempotency records on Redis: a bot's keys (ending in the version they expect) are kept in
buckets of ``IDEM_BUCKET`` versions, each small enough for Redis's compact hash encoding."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.store import IdempotencyKeyReused, IdempotencyRecord
from service.store.game_keys import IDEM_BUCKET
from service.store.redis import RedisEventStore
from tests.support.redis_server import namespaced
from tests.support.store_contract import START, action, events, make_meta

pytestmark = pytest.mark.integration


@pytest.fixture
def store() -> Iterator[RedisEventStore]:
    with namespaced("idem", RedisEventStore.from_url) as made:
        yield made


def played(store: RedisEventStore, batches: int) -> str:
    """A game of ``batches`` one-event batches after its creation, each under a bot's key."""
    meta = make_meta()
    store.create(meta, events("GameStarted", "CardsDealt"), START)
    head = store.read(meta.id)[-1].hash
    for version in range(2, 2 + batches):
        record = IdempotencyRecord(f"seat:0:bot:0:{version}", "fp", version + 1, None)
        store.append(meta.id, version, events("CardPlayed"), action(), prev_hash=head,
                     idempotency=record)  # fmt: skip
        head = store.read(meta.id, version)[-1].hash
    return meta.id


def test_a_bots_records_fill_compact_buckets_of_versions(store: RedisEventStore) -> None:
    game_id = played(store, 2 * IDEM_BUCKET + 10)
    client = store.client
    buckets = [store.key(game_id, f"idem:{b}") for b in range(3)]
    assert [client.hlen(k) for k in buckets] == [IDEM_BUCKET - 2, IDEM_BUCKET, 12]
    assert {client.object("encoding", k) for k in buckets} == {"listpack"}
    assert not client.exists(store.key(game_id, "idem"))
    # a retry finds its record in its bucket; the key reused for another request is refused
    version = IDEM_BUCKET + 5
    retried = IdempotencyRecord(f"seat:0:bot:0:{version}", "fp", version + 1, None)
    head = store.read(game_id, version)[0].prev_hash
    again = store.append(game_id, version, events("CardPlayed"), action(), prev_hash=head,
                         idempotency=retried)  # fmt: skip
    assert again.replayed == retried
    assert store.fetch(game_id, 0, retried.key).idempotency == retried
    reused = IdempotencyRecord(retried.key, "other", version + 1, None)
    with pytest.raises(IdempotencyKeyReused):
        store.append(game_id, version, events("CardPlayed"), action("TH"), prev_hash=head,
                     idempotency=reused)  # fmt: skip


def test_every_bucket_expires_once_the_game_is_over(store: RedisEventStore) -> None:
    game_id = played(store, IDEM_BUCKET + 10)
    last = store.version(game_id)
    head = store.read(game_id, last - 1)[0].hash
    store.append(game_id, last, events("GameEnded"), action(), prev_hash=head, status="over")
    for part in ("idem:0", "idem:1"):
        assert 0 < store.client.pttl(store.key(game_id, part)) <= store.idempotency_ttl * 1000


def test_a_record_kept_in_the_main_hash_before_buckets_is_still_found(
    store: RedisEventStore,
) -> None:
    game_id = played(store, 0)
    earlier = IdempotencyRecord("seat:0:bot:0:2", "fp", 3, None)
    store.client.hset(store.key(game_id, "idem"), earlier.key, "fp:3")  # the old layout
    head = store.read(game_id)[-1].hash
    again = store.append(game_id, 2, events("CardPlayed"), action(), prev_hash=head,
                         idempotency=earlier)  # fmt: skip
    assert again.replayed == earlier and store.version(game_id) == 2
    assert store.fetch(game_id, 0, earlier.key).idempotency == earlier


def test_the_records_expire_when_the_status_is_set_over_not_before(store: RedisEventStore) -> None:
    game_id = played(store, IDEM_BUCKET + 10)
    kept = [store.key(game_id, part) for part in ("idem:0", "idem:1")]
    store.set_status(game_id, "playing")
    assert [store.client.pttl(k) for k in kept] == [-1, -1]  # a live game keeps them
    store.set_status(game_id, "over")
    for key in kept:
        assert 0 < store.client.pttl(key) <= store.idempotency_ttl * 1000


def test_a_records_time_to_live_of_zero_keeps_them_forever_and_of_a_millisecond_does_not(
    store: RedisEventStore,
) -> None:
    forever, brief = played(store, IDEM_BUCKET + 10), played(store, IDEM_BUCKET + 10)
    RedisEventStore(store.client, store.namespace, idempotency_ttl=0).set_status(forever, "over")
    assert store.client.pttl(store.key(forever, "idem:1")) == -1
    RedisEventStore(store.client, store.namespace, idempotency_ttl=0.001).set_status(brief, "over")
    assert store.client.pttl(store.key(brief, "idem:1")) in (-2, 0, 1)  # gone, or going
