"""The append's EVALSHA on one pooled connection (``connect.ParkedCalls``) falls back to
redis-py's own path when Redis has forgotten the script or the connection broke."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service.games import GameService
from service.store.redis import RedisEventStore
from tests.support.fakegame import GAMES
from tests.support.redis_server import namespaced

pytestmark = pytest.mark.integration

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
BOTS = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy"}]
DEALT = 5


@pytest.fixture
def store() -> Iterator[RedisEventStore]:
    with namespaced("evalsha", RedisEventStore.from_url) as made:
        yield made


def break_once(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The next command sent on any connection fails as a broken connection would; the list
    the broken connection is put in."""
    broken: list[object] = []
    real = redis.Connection.send_packed_command

    def once(self: redis.Connection, *args: Any, **kwargs: Any) -> None:
        if not broken:
            broken.append(self)
            raise redis.ConnectionError("the connection broke")
        real(self, *args, **kwargs)

    monkeypatch.setattr(redis.Connection, "send_packed_command", once)
    return broken


def test_an_append_after_redis_forgot_the_script_loads_it_again(store: RedisEventStore) -> None:
    service = GameService(store, games=GAMES)
    game_id = service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
    store.client.script_flush()
    assert service.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)["version"]
    assert store.version(game_id) == DEALT + 1


def test_an_append_whose_connection_breaks_is_sent_again_by_redis_py(
    store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(store, games=GAMES)
    game_id = service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
    broken = break_once(monkeypatch)
    assert service.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)["version"]
    assert broken and store.version(game_id) == DEALT + 1


def test_a_read_of_the_newer_events_runs_on_a_parked_connection(store: RedisEventStore) -> None:
    """A catch-up's read (``read`` after a version) goes out as the append does, on a
    connection parked between calls, and gives what the stream holds."""
    service = GameService(store, games=GAMES)
    game_id = service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
    service.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    store._parked._spare.clear()  # whatever the appends parked
    newer = store.read(game_id, DEALT - 2)
    assert len(store._parked._spare) == 1
    entries = store.entries(game_id)[DEALT - 2 :]
    assert [e.version for e in newer] == [version for version, _ in entries] == [4, 5, 6]
    assert [e.hash for e in newer] == [fields["hash"] for _, fields in entries]
    assert store.read(game_id, DEALT - 2, DEALT) == newer[:2]
    assert store.read(game_id, DEALT + 1) == []


def test_a_read_whose_connection_breaks_is_sent_again_by_redis_py(
    store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(store, games=GAMES)
    game_id = service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")["id"]
    expected = store.read(game_id)
    broken = break_once(monkeypatch)
    assert store.read(game_id) == expected and len(expected) == DEALT
    assert broken
