"""Bot seats name bots that exist: an unknown name is a 422 listing the known ones, and a
user bot whose worker stopped heartbeating is reported in the summary and the views."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.deps import EXTENSION
from service.bots import BUILTIN_BOTS, BUILTIN_GAMES, LIVE_SECONDS
from service.store import InMemoryEventStore
from tests.support.api import make_app
from workers.bots.base import games_of


@pytest.fixture
def app() -> Flask:
    return make_app(InMemoryEventStore())


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _create(client: FlaskClient, bot: str, game: str = "sixty_six") -> Any:
    seats = [{"type": "open"}, {"type": "bot", "bot": bot}]
    return client.post("/games", json={"game": game, "seats": seats, "seed": "names"})


def _registry(app: Flask) -> Any:
    return app.extensions[EXTENSION].bots.registry


def test_a_mistyped_bot_name_is_refused_with_the_known_names_and_creates_nothing(
    client: FlaskClient,
) -> None:
    response = _create(client, "heuristc")
    assert response.status_code == 422
    assert response.content_type == "application/problem+json"
    body = response.json
    assert body["code"] == "unknown_bot" and "heuristc" in body["detail"]
    assert body["known"] == sorted(BUILTIN_BOTS)
    assert client.get("/games").json["games"] == []


def test_every_built_in_bot_is_known(client: FlaskClient) -> None:
    for bot in BUILTIN_BOTS:
        assert _create(client, bot).status_code == 201, bot


def test_a_registered_user_bot_may_be_seated_only_in_the_games_it_plays(app: Flask) -> None:
    client = app.test_client()
    _registry(app).claim_operator("lowball")  # as its worker does when it starts
    _registry(app).heartbeat("lowball", ["shithead"], 1e12)
    assert _create(client, "lowball", "sixty_six").status_code == 422
    assert "lowball" in _create(client, "nobot", "shithead").json["known"]
    assert _create(client, "lowball", "shithead").status_code == 201


def test_a_user_bot_without_a_live_worker_is_reported_in_the_summary_and_views(
    app: Flask,
) -> None:
    client = app.test_client()
    service = app.extensions[EXTENSION]
    now = [1000.0]
    service.bots.clock = lambda: now[0]
    _registry(app).heartbeat("lowball", [], now[0])
    game_id = _create(client, "lowball", "shithead").json["id"]
    assert client.get(f"/games/{game_id}").json["bots_missing"] == []
    now[0] += LIVE_SECONDS + 1  # no heartbeat since
    missing = [{"seat": 1, "bot": "lowball", "last_seen": 1000.0}]
    assert client.get(f"/games/{game_id}").json["bots_missing"] == missing
    assert client.get(f"/games/{game_id}/view").json["bots_missing"] == missing
    _registry(app).heartbeat("lowball", [], now[0])  # its worker is back
    assert client.get(f"/games/{game_id}").json["bots_missing"] == []


def test_the_search_bot_is_known_for_the_games_it_plays(client: FlaskClient) -> None:
    assert BUILTIN_GAMES["search"] == games_of("search")  # the service offers what is registered
    for game, players in (("sixty_six", 2), ("shithead", 4), ("sheepshead", 5)):
        seats = [{"type": "bot", "bot": "search"}] + [{"type": "open"}] * (players - 1)
        created = client.post("/games", json={"game": game, "seats": seats, "seed": "names"})
        assert created.status_code == 201, game


def test_built_in_bots_are_never_reported_missing(client: FlaskClient) -> None:
    game_id = _create(client, "heuristic").json["id"]
    assert client.get(f"/games/{game_id}").json["bots_missing"] == []


def test_a_user_bot_nobody_serves_is_refused_unless_the_create_waits_for_it(app: Flask) -> None:
    client = app.test_client()
    service = app.extensions[EXTENSION]
    now = [1000.0]
    service.bots.clock = lambda: now[0]
    _registry(app).claim_operator("lowball")
    _registry(app).heartbeat("lowball", [], now[0])
    now[0] += LIVE_SECONDS + 1  # its worker died
    refused = _create(client, "lowball")
    assert refused.status_code == 422 and refused.content_type == "application/problem+json"
    assert refused.json["code"] == "bot_unavailable" and "'lowball' (seat 1)" in refused.json[
        "detail"]  # fmt: skip
    assert refused.json["missing"] == [{"seat": 1, "bot": "lowball", "last_seen": 1000.0}]
    assert client.get("/games").json["games"] == []  # nothing created
    seats = [{"type": "open"}, {"type": "bot", "bot": "lowball"}]
    waits = client.post("/games", json={"game": "sixty_six", "seats": seats,
                                        "wait_for_bots": True})  # fmt: skip
    assert waits.status_code == 201
    assert client.get(f"/games/{waits.json['id']}").json["bots_missing"] == refused.json["missing"]
