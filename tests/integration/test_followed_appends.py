"""Two web processes' caches on one real Redis, each following the other's appends
(``service.store.appends``): a game's next action finds its fold current without a read."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service.cache import StateCache
from service.games import GameService
from service.store.redis import RedisEventStore
from tests.support.fakegame import GAMES
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace

pytestmark = pytest.mark.integration

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
BOTS = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy"}]
DEALT = 5


class Counting(RedisEventStore):
    calls: list[str]

    def fetch(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("fetch")
        return super().fetch(*args, **kwargs)

    def read(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("read")
        return super().read(*args, **kwargs)


@pytest.fixture
def store() -> Iterator[Counting]:
    namespace = unique_namespace("follow")
    made = Counting(redis.Redis.from_url(redis_url(), decode_responses=True), namespace)
    made.calls = []
    yield made
    delete_namespace(redis.Redis.from_url(redis_url()), namespace)


def following(store: RedisEventStore) -> GameService:
    service = GameService(store, games=GAMES, cache=StateCache(), follow_appends=True)
    time.sleep(0.2)  # subscribed
    return service


def cached_version(service: GameService, game_id: str, at_least: int) -> int | None:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        folded = service.cache.peek(game_id)
        if folded is None or folded.version >= at_least:
            return None if folded is None else folded.version
        time.sleep(0.01)
    folded = service.cache.peek(game_id)
    return None if folded is None else folded.version


def test_each_process_folds_the_other_s_appends_and_acts_without_reading(
    store: Counting,
) -> None:
    one, two = following(store), following(store)
    game_id = one.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
    two.view(game_id, 0)
    one.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert cached_version(two, game_id, DEALT + 1) == DEALT + 1
    store.calls.clear()
    assert two.submit_action(game_id, 1, {"type": "play", "card": "KD"}, DEALT + 1)["version"]
    assert store.calls == []  # the append alone
    assert cached_version(one, game_id, DEALT + 2) == DEALT + 2
    assert one.view(game_id, 0) == GameService(store, games=GAMES).view(game_id, 0)


def test_a_game_whose_seats_may_still_change_is_dropped_from_the_cache_not_followed(
    store: Counting,
) -> None:
    one, two = following(store), following(store)
    seats = [{"type": "open"}, {"type": "bot", "bot": "random"}]
    game_id = one.create_game("fake", seats, deal=DEAL, dealer=1, seed="s")["id"]
    two.view(game_id, None)  # cached while seat 0 is open
    one.join_seat(game_id, 0, "ann")
    version = one.load(game_id).version
    one.submit_action(game_id, 0, {"type": "play", "card": "AS"}, version)
    deadline = time.monotonic() + 5
    while two.cache.peek(game_id) is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert two.cache.peek(game_id) is None  # its metadata would have missed ann's join
    assert two.load(game_id).meta.open_seats == ()  # read again, with the join
