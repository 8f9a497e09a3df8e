"""Bots over HTTP: bot accounts, seating them by name, their token's reach, their event stream."""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app, send_entropy


@pytest.fixture
def client() -> FlaskClient:
    return make_app(InMemoryEventStore()).test_client()


def _account(client: FlaskClient, name: str = "mybot") -> str:
    response = client.post("/bots", json={"name": name})
    assert response.status_code == 201, response.json
    assert response.json["name"] == name
    return str(response.json["token"])


def _game(client: FlaskClient, seats: list[dict[str, Any]], seed: str = "http-bots") -> str:
    response = client.post("/games", json={"game": "sixty_six", "seats": seats, "seed": seed})
    assert response.status_code == 201, response.json
    return str(response.json["id"])


def _messages(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    response = client.get("/bots/stream", headers=bearer(token))
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


ME = {"type": "bot", "bot": "mybot"}


def test_a_bot_account_name_is_taken_once_and_never_a_built_in_one(client: FlaskClient) -> None:
    _account(client)
    again = client.post("/bots", json={"name": "mybot"})
    assert again.status_code == 409 and again.json["code"] == "bot_exists"
    builtin = client.post("/bots", json={"name": "heuristic"})
    assert builtin.status_code == 409 and builtin.json["code"] == "bot_exists"
    assert client.post("/bots", json={"name": "no spaces"}).status_code in (400, 422)


def test_a_game_seats_an_http_bot_only_once_its_account_exists(client: FlaskClient) -> None:
    refused = client.post("/games", json={"game": "sixty_six", "seats": [{"type": "open"}, ME]})
    assert refused.status_code == 422 and refused.json["code"] == "unknown_bot"
    _account(client)
    _game(client, [{"type": "open"}, ME])


def _bot_to_act(client: FlaskClient, token: str, game_id: str) -> tuple[int, dict[str, Any]]:
    view = client.get(f"/games/{game_id}/view", headers=bearer(token)).json
    return int(view["seat"]), view


def test_the_bot_token_plays_its_own_seat(client: FlaskClient) -> None:
    token = _account(client)
    game_id = _game(client, [ME, ME])
    send_entropy(client, token, game_id)  # the deal waits for the bot's own entropy
    seat, view = _bot_to_act(client, token, game_id)  # the seat the game waits on
    assert seat in client.get(f"/games/{game_id}").json["to_act"]
    action = {**view["view"]["legal_actions"][0], "expected_version": view["version"]}
    response = client.post(f"/games/{game_id}/actions", json=action, headers=bearer(token))
    assert response.status_code == 200, response.json
    assert client.get(f"/games/{game_id}").json["version"] > view["version"]


def test_a_bot_token_cannot_act_for_any_other_seat(client: FlaskClient) -> None:
    token = _account(client)
    _account(client, "otherbot")
    other = {"type": "bot", "bot": "otherbot"}
    game_id = _game(client, [{"type": "open"}, ME], seed="reach")
    person = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).json["token"]
    view = client.get(f"/games/{game_id}/view", headers=bearer(person)).json
    version = view["version"]
    url = f"/games/{game_id}/actions"
    for action in view["view"]["legal_actions"] or [{"type": "declare_out"}]:
        body = {**action, "expected_version": version, "seat": 0}
        refused = client.post(url, json=body, headers=bearer(token))
        assert refused.status_code == 403 and refused.json["code"] == "forbidden"
    elsewhere = _game(client, [other, {"type": "bot", "bot": "heuristic"}], seed="elsewhere")
    for seat in (0, 1):
        body = {"type": "declare_out", "expected_version": 1, "seat": seat}
        refused = client.post(f"/games/{elsewhere}/actions", json=body, headers=bearer(token))
        assert refused.status_code == 401 and refused.json["code"] == "unauthorized"
    assert client.get(f"/games/{game_id}/view").json["version"] == version  # nothing played


def test_the_stream_tells_the_bot_its_games_and_turns(client: FlaskClient) -> None:
    token = _account(client)
    game_id = _game(client, [ME, ME], seed="stream")
    messages = _messages(client, token)
    assert messages[0] == {"type": "gameStart", "game": game_id, "seats": [0, 1]}
    turns = [m for m in messages if m["type"] == "yourTurn"]
    summary = client.get(f"/games/{game_id}").json
    assert turns == [
        {"type": "yourTurn", "game": game_id, "seat": s, "version": summary["version"]}
        for s in summary["to_act"]
    ]


def _unseeded(client: FlaskClient) -> str:
    """A Sixty-Six game of the bot's two seats that waits for the bot's own entropy."""
    response = client.post("/games", json={"game": "sixty_six", "seats": [ME, ME]})
    assert response.status_code == 201, response.json
    game_id = str(response.json["id"])
    assert client.get(f"/games/{game_id}").json["awaiting_entropy"] == [0, 1]
    return game_id


def test_a_bot_stream_reads_a_game_again_only_once_it_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the stream waits on its games' event streams instead of polling them: a game nobody
    # moves (its deal awaits the bot's entropy, never sent) is read once per connection
    client = make_app(InMemoryEventStore(), CARDROOM_SSE_SECONDS=1.0).test_client()
    token = _account(client)
    game_id = _unseeded(client)
    service = client.application.extensions["cardroom"]
    reads: Counter[str] = Counter()
    summary = service.summary
    monkeypatch.setattr(service, "summary", lambda g: (reads.update([g]), summary(g))[1])
    messages = _messages(client, token)
    assert messages[:3] == [{"type": "gameStart", "game": game_id, "seats": [0, 1]},
                            {"type": "entropyWanted", "game": game_id, "seat": 0},
                            {"type": "entropyWanted", "game": game_id, "seat": 1}]  # fmt: skip
    assert reads[game_id] == 1


def test_the_bot_stream_tells_the_turn_a_move_made_while_it_waited(client: FlaskClient) -> None:
    # the stream is open and waiting when the bot's entropy deals the game: it tells the turn
    # of the new version
    token = _account(client)
    game_id = _unseeded(client)
    other = client.application.test_client()
    timer = threading.Timer(0.15, lambda: send_entropy(other, token, game_id))
    timer.start()
    messages = _messages(client, token)
    timer.join()
    summary = client.get(f"/games/{game_id}").json
    assert summary["awaiting_entropy"] == [] and summary["to_act"]
    turns = [m for m in messages if m["type"] == "yourTurn"]
    assert turns == [{"type": "yourTurn", "game": game_id, "seat": s, "version": summary["version"]}
                     for s in summary["to_act"]]  # fmt: skip


def test_the_stream_needs_a_bot_token(client: FlaskClient) -> None:
    assert client.get("/bots/stream").status_code == 401
    assert client.get("/bots/stream", headers=bearer("nope")).status_code == 401


def test_each_bot_stream_lives_its_own_share_of_the_stream_lifetime(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bots connected together (a worker's restart, a crowd of clients) must not all end and
    reconnect together: each bot stream's lifetime is drawn between half of
    CARDROOM_SSE_SECONDS and all of it, as a game stream's is."""
    import random
    import time

    client = make_app(
        InMemoryEventStore(), CARDROOM_SSE_SECONDS=1.2, CARDROOM_SSE_HEARTBEAT=0.05
    ).test_client()
    token = _account(client)
    draws = iter([0.0, 0.999])
    monkeypatch.setattr(random, "random", lambda: next(draws))
    lasted = []
    for _ in range(2):
        started = time.monotonic()
        response = client.get("/bots/stream", headers=bearer(token))
        assert response.status_code == 200
        response.get_data()
        lasted.append(time.monotonic() - started)
    assert 1.15 <= lasted[0] < 1.9  # the whole lifetime
    assert 0.55 <= lasted[1] < 0.95  # half of it
