"""A bot's games: finished games leave the active set once and are told once, the history of
finished games is bounded and resumable from a cursor (memory and Redis registries alike), and
the stream does not tell a finished game again on reconnect unless asked from a cursor."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.bots import FINISHED_KEPT, BotRegistry, MemoryBotRegistry, RedisBotRegistry
from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app, send_entropy
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace


@pytest.fixture(params=["memory", "redis"])
def registry(request: pytest.FixtureRequest) -> Iterator[BotRegistry]:
    if request.param == "memory":
        yield MemoryBotRegistry()
        return
    client = redis.Redis.from_url(redis_url())
    namespace = unique_namespace("botgames")
    try:
        yield RedisBotRegistry(client, namespace)
    finally:
        delete_namespace(client, namespace)


def test_a_finished_game_leaves_the_active_games_once(registry: BotRegistry) -> None:
    for game in ("g1", "g2", "g3"):
        registry.add_game("b", game)
    start = registry.finished_cursor("b")
    assert registry.active("b") == ["g1", "g2", "g3"]
    assert registry.finish_game("b", "g2") is True
    assert registry.finish_game("b", "g2") is False  # a second stream moves nothing
    assert registry.active("b") == ["g1", "g3"]
    finished = registry.finished_since("b", start)
    assert [game for _, game in finished] == ["g2"]
    assert registry.finished_since("b", finished[0][0]) == []
    assert registry.finished_cursor("b") == finished[0][0]
    assert registry.active("other") == [] and registry.finished_since("other", "0-0") == []


def test_the_history_of_finished_games_is_bounded(registry: BotRegistry) -> None:
    games = [f"g{i}" for i in range(FINISHED_KEPT + 7)]
    for game in games:
        registry.add_game("b", game)
        registry.finish_game("b", game)
    assert registry.active("b") == []
    kept = registry.finished_since("b", "0-0")
    assert [game for _, game in kept] == games[-FINISHED_KEPT:]
    middle = kept[FINISHED_KEPT - 3][0]
    assert [game for _, game in registry.finished_since("b", middle)] == games[-2:]


class _DiesAt:
    """A Redis client whose process dies at its ``at``-th command: that one and every later
    one fail, as if nothing after it ran (no ``finally`` of the dead process reaches Redis)."""

    def __init__(self, client: redis.Redis, at: int) -> None:
        self.client, self.at, self.calls = client, at, 0

    def __getattr__(self, command: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls >= self.at:
                raise redis.ConnectionError("the process died")
            return getattr(self.client, command)(*args, **kwargs)

        return call


def test_a_process_dying_while_it_finishes_a_game_loses_no_game() -> None:
    """Wherever the process dies while it moves a game, a later stream moves it (once the dead
    one's claim lapsed), and the history tells it exactly once."""
    client = redis.Redis.from_url(redis_url())
    for at in range(1, 7):
        namespace = unique_namespace("botgames")
        try:
            RedisBotRegistry(client, namespace).add_game("b", "g")
            dying = RedisBotRegistry(_DiesAt(client, at), namespace, claim_ms=50)
            with pytest.raises(redis.ConnectionError):
                dying.finish_game("b", "g")
            later = RedisBotRegistry(client, namespace, claim_ms=50)
            for _ in range(100):  # the stream's next polls
                if later.active("b") == []:
                    break
                later.finish_game("b", "g")
                time.sleep(0.01)
            assert later.active("b") == [], at
            assert [game for _, game in later.finished_since("b", "0-0")] == ["g"], at
            assert later.finish_game("b", "g") is False
        finally:
            delete_namespace(client, namespace)


def test_the_old_unbounded_list_becomes_the_active_set() -> None:
    client = redis.Redis.from_url(redis_url())
    namespace = unique_namespace("botgames")
    try:
        client.rpush(f"{namespace}:bot-games:b", "old1", "old2")
        registry = RedisBotRegistry(client, namespace)
        registry.add_game("b", "new")
        assert registry.active("b") == ["old1", "old2", "new"]
        assert not client.exists(f"{namespace}:bot-games:b")
    finally:
        delete_namespace(client, namespace)


# --- the stream ---------------------------------------------------------------------------

ME = {"type": "bot", "bot": "mybot"}


@pytest.fixture
def client() -> FlaskClient:
    return make_app(InMemoryEventStore()).test_client()


def _stream(
    client: FlaskClient, token: str, since: str | None = None
) -> list[tuple[str | None, dict[str, Any]]]:
    headers = bearer(token) | ({"Last-Event-ID": since} if since else {})
    response = client.get("/bots/stream", headers=headers)
    assert response.status_code == 200
    out: list[tuple[str | None, dict[str, Any]]] = []
    event_id = None
    text = response.get_data(as_text=True)
    response.close()  # as a WSGI server does when a stream ends: the account's place is given back
    for line in text.splitlines():
        if line.startswith("id: "):
            event_id = line[4:]
        elif line.startswith("data: "):
            out.append((event_id, json.loads(line[6:])))
            event_id = None
    return out


def _finished_game(client: FlaskClient, token: str, seed: str) -> str:
    """A one-point match the bot ends at once (a false declaration gives the other seat 3)."""
    body = {"game": "sixty_six", "seats": [ME, ME], "seed": seed, "options": {"game_target": 1}}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    game_id = str(response.json["id"])
    send_entropy(client, token, game_id)  # the deal waits for the bot's own entropy
    version = client.get(f"/games/{game_id}").json["version"]
    action = {"type": "declare_out", "seat": 0, "expected_version": version}
    played = client.post(f"/games/{game_id}/actions", json=action, headers=bearer(token))
    assert played.status_code == 200, played.json
    assert client.get(f"/games/{game_id}").json["status"] == "over"
    return game_id


def test_reconnecting_does_not_tell_finished_games_again(client: FlaskClient) -> None:
    token = client.post("/bots", json={"name": "mybot"}).json["token"]
    live = client.post("/games", json={"game": "sixty_six", "seats": [ME, ME], "seed": "live"})
    live_id = live.json["id"]
    done = _finished_game(client, token, "done")
    first = [m for _, m in _stream(client, token)]
    assert {"type": "gameStart", "game": live_id, "seats": [0, 1]} in first
    finishes = [m for m in first if m["type"] == "gameFinish"]
    assert [m["game"] for m in finishes] == [done]  # told once, when the stream first sees it
    assert all(m.get("game") != done or m["type"] == "gameFinish" for m in first)
    again = [m for _, m in _stream(client, token)]
    assert all(m["game"] != done for m in again)  # neither gameStart nor gameFinish again
    assert {"type": "gameStart", "game": live_id, "seats": [0, 1]} in again


def test_a_bot_resumes_finished_games_from_a_cursor(client: FlaskClient) -> None:
    token = client.post("/bots", json={"name": "mybot"}).json["token"]
    first = _finished_game(client, token, "one")
    told = _stream(client, token)
    cursor = next(i for i, m in told if m["type"] == "gameFinish" and m["game"] == first)
    assert cursor is not None
    second = _finished_game(client, token, "two")
    _stream(client, token)  # another connection sees the second one finish meanwhile
    resumed = [m for _, m in _stream(client, token, since=cursor) if m["type"] == "gameFinish"]
    assert [m["game"] for m in resumed] == [second]
    assert resumed[0]["outcome"]["reason"]
    everything = client.get("/bots/stream?since=0-0", headers=bearer(token))
    assert everything.get_data(as_text=True).count("gameFinish") == 2 * 2  # event: + data:


def test_a_bad_cursor_is_refused(client: FlaskClient) -> None:
    token = client.post("/bots", json={"name": "mybot"}).json["token"]
    response = client.get("/bots/stream?since=nope", headers=bearer(token))
    assert response.status_code == 422 and response.json["code"] == "invalid_field"
