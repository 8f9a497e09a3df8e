"""Input at the edges of its range is a clear 4xx, never a 5xx: a version past what the store
holds, a stream ticket asked for by a bot account or forged for a seat no person holds."""

from __future__ import annotations

import fakeredis
import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.store.port import MAX_VERSION
from service.store.redis import RedisEventStore
from tests.support.api import Table, bearer, make_app
from tests.unit.service.test_api_games import problem_of


@pytest.fixture
def app() -> Flask:
    """The app on the Redis store (fakeredis): its stream ids bound the versions."""
    return make_app(RedisEventStore(fakeredis.FakeRedis(decode_responses=True), "edges"))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.mark.parametrize("version", [MAX_VERSION + 1, 2**64, 2**64 + 5, 10**30])
def test_an_expected_version_past_any_version_is_an_invalid_field_on_a_cached_game(
    client: FlaskClient, version: int
) -> None:
    table = Table(client, game="sixty_six", players=2)
    now = table.view(0)["version"]  # the game is cached
    answer = problem_of(table.act(0, {"type": "resign"}, version=version), 422, "invalid_field")
    assert answer["field"] == "expected_version" and str(MAX_VERSION) in answer["detail"]
    assert table.view(0)["version"] == now


def test_the_largest_version_is_a_version_conflict(client: FlaskClient) -> None:
    table = Table(client, game="sixty_six", players=2)
    table.view(0)
    problem_of(table.act(0, {"type": "resign"}, version=MAX_VERSION), 409, "version_conflict")


def _bot_account(client: FlaskClient) -> str:
    return str(client.post("/bots", json={"name": "edgebot"}).json["token"])


def test_a_bot_account_asking_for_a_stream_ticket_is_forbidden(client: FlaskClient) -> None:
    token = _bot_account(client)
    seats = [{"type": "bot", "bot": "edgebot"}, {"type": "open"}]
    game_id = client.post("/games", json={"game": "sixty_six", "seats": seats}).json["id"]
    client.post(f"/games/{game_id}/seats/1", json={"name": "ann"})
    assert client.get(f"/games/{game_id}/view", headers=bearer(token)).status_code == 200
    answer = client.post(f"/games/{game_id}/stream-tickets", headers=bearer(token))
    assert "token" in problem_of(answer, 403, "forbidden")["detail"]


@pytest.mark.parametrize("seat", [0, 1])
def test_a_forged_ticket_for_a_seat_no_person_holds_is_unauthorized(
    client: FlaskClient, seat: int
) -> None:
    seats = [{"type": "open"}, {"type": "bot", "bot": "random"}]  # seat 0 open, seat 1 a bot's
    game_id = client.post("/games", json={"game": "sixty_six", "seats": seats}).json["id"]
    forged = f"{seat}.9999999999.{'0' * 64}"
    problem_of(client.get(f"/games/{game_id}/stream?ticket={forged}"), 401, "unauthorized")
