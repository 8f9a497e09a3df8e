"""GET /games/{id}/replay serves the replay file of a finished game and any step of it."""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest
from flask.testing import FlaskClient

from replays import loads
from replays.verify import verify
from service.app import create_app
from service.store import InMemoryEventStore
from service.store.redis import RedisEventStore
from tests.unit.workers.conftest import Stack
from workers import process

BOTS = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}]


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CARDROOM_NAMESPACE", "unit")
    built = Stack()
    process.use_service(built.service)
    yield built
    process.use_service(None)


def _client(store: Any) -> FlaskClient:
    return create_app({"TESTING": True}, store=store).test_client()


def _finished_game(stack: Stack) -> str:
    game_id = str(stack.service.create_game("sixty_six", BOTS, seed="api")["id"])
    stack.work()
    return game_id


def test_the_exported_replay_is_served_and_verifies(stack: Stack) -> None:
    game_id = _finished_game(stack)
    response = _client(stack.store).get(f"/games/{game_id}/replay")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert verify(loads(response.get_data(as_text=True))).ok


def test_before_the_export_runs_the_replay_is_built_from_the_stream(stack: Stack) -> None:
    game_id = _finished_game(stack)
    stack.client.delete(stack.store.key(game_id, "replay"))
    response = _client(stack.store).get(f"/games/{game_id}/replay")
    assert (
        verify(loads(response.get_data(as_text=True))).head_hash
        == stack.service.summary(game_id)["head_hash"]
    )


def test_a_step_is_served_as_json_as_a_seat_saw_it(stack: Stack) -> None:
    game_id = _finished_game(stack)
    response = _client(stack.store).get(f"/games/{game_id}/replay?at=3&as=1")
    data = response.get_json()
    assert response.status_code == 200
    assert data["step"] == 3 and data["as_seat"] == 1 and data["table"]["seat"] == 1


def test_a_step_past_the_end_is_an_invalid_request(stack: Stack) -> None:
    game_id = _finished_game(stack)
    response = _client(stack.store).get(f"/games/{game_id}/replay?at=99999")
    assert response.status_code == 400
    assert response.get_json()["code"] == "invalid_request"


def test_a_live_game_has_no_replay_yet() -> None:
    store = InMemoryEventStore()
    client = _client(store)
    created = client.post("/games", json={"game": "sixty_six", "seats": [{"type": "open"}] * 2})
    response = client.get(f"/games/{created.get_json()['id']}/replay")
    assert response.status_code == 409
    assert response.get_json()["code"] == "game_not_over"


def test_an_unknown_game_is_not_found() -> None:
    store = RedisEventStore(fakeredis.FakeRedis(decode_responses=True), "unit")
    response = _client(store).get("/games/nope/replay")
    assert response.status_code == 404
