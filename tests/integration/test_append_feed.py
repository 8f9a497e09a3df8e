"""Two processes on one real Redis: the one whose fold is behind catches up from what it heard
the other append (``service.store.feed``), in the action's one round trip, without reading
the stream; what it did not hear it still reads."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from service import metrics
from service.games import GameService
from service.store.redis import RedisEventStore
from tests.support.fakegame import GAMES
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace

pytestmark = pytest.mark.integration

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
BOTS = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy"}]
DEALT = 5  # as in tests/unit/service/test_service.py


class ReadCounting(RedisEventStore):
    reads = 0

    def read(self, *args: Any, **kwargs: Any) -> Any:
        self.reads += 1
        return super().read(*args, **kwargs)


@pytest.fixture
def two() -> Iterator[tuple[GameService, GameService, ReadCounting]]:
    namespace = unique_namespace("feed")
    one = RedisEventStore.from_url(redis_url(), namespace, feed=True)
    other = ReadCounting.from_url(redis_url(), namespace, feed=True)
    assert isinstance(other, ReadCounting)
    yield GameService(one, games=GAMES), GameService(other, games=GAMES), other
    for store in (one, other):
        if store._feed is not None:
            store._feed.stop()
    delete_namespace(one.client, namespace)  # type: ignore[arg-type]


def heard(store: RedisEventStore, game_id: str, version: int) -> bool:
    """Wait (at most 5 s) until ``store``'s process heard of ``version`` of the game."""
    feed = store._feed
    assert feed is not None
    deadline = time.monotonic() + 5
    while feed.latest(game_id) < version and time.monotonic() < deadline:
        time.sleep(0.005)
    return feed.latest(game_id) >= version


def catch_ups(source: str) -> float:
    return metrics.CATCH_UPS.labels(source)._value.get()  # type: ignore[attr-defined,no-any-return]


def test_a_fold_behind_catches_up_from_what_its_process_heard(
    two: tuple[GameService, GameService, ReadCounting],
) -> None:
    one, other, store = two
    assert store._feed is not None and store._feed.start(wait=5)
    game_id = one.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
    assert other.view(game_id, 0)["version"] == DEALT  # its fold is warm at DEALT
    one.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert heard(store, game_id, DEALT + 1)
    before = catch_ups("heard")
    played = other.submit_action(game_id, 1, {"type": "play", "card": "KD"}, DEALT + 1)
    assert played["version"] == DEALT + 2
    assert store.reads == 0 and catch_ups("heard") == before + 1
    # and the first process, behind now, catches up in turn from what it heard
    assert one.store.heard(game_id, 0, 1) is None  # (starts its listener)
    one_feed = one.store._feed  # type: ignore[attr-defined]
    assert one_feed is not None and one_feed.start(wait=5)
    other.submit_action(game_id, 0, {"type": "play", "card": "9H"}, DEALT + 2)
    assert heard(one.store, game_id, DEALT + 3)  # type: ignore[arg-type]
    assert one.submit_action(game_id, 1, {"type": "play", "card": "TC"}, DEALT + 3)["version"]
    assert one.view(game_id, None)["version"] == other.view(game_id, None)["version"]


def test_what_a_process_did_not_hear_it_reads(
    two: tuple[GameService, GameService, ReadCounting],
) -> None:
    one, other, store = two
    game_id = one.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
    assert other.view(game_id, 0)["version"] == DEALT
    one.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)  # not listening yet
    played = other.submit_action(game_id, 1, {"type": "play", "card": "KD"}, DEALT + 1)
    assert played["version"] == DEALT + 2 and store.reads == 1


def test_without_the_feed_an_append_publishes_nothing() -> None:
    namespace = unique_namespace("feed-off")
    store = RedisEventStore.from_url(redis_url(), namespace)  # the default: no feed
    listener = store.client.pubsub(ignore_subscribe_messages=True)  # type: ignore[union-attr]
    listener.subscribe(f"{namespace}:appended")
    try:
        service = GameService(store, games=GAMES)
        game_id = service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
        service.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
        assert listener.get_message(timeout=0.3) is None
    finally:
        listener.close()
        delete_namespace(store.client, namespace)  # type: ignore[arg-type]
