"""The operator's endpoints (docs/operations.md, "Admin"): the token, listing games by creator,
ending a game with a recorded reason, purging games nobody plays; every admin act is logged."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.registry import get_game
from replays.format import loads
from replays.verify import verify
from service.store import InMemoryEventStore
from tests.support.api import Table, bearer, make_app

TOKEN = "operator-secret-7f3a9c"
ADMIN = bearer(TOKEN)
OPEN2 = [{"type": "open"}, {"type": "open"}]


@pytest.fixture
def store() -> InMemoryEventStore:
    return InMemoryEventStore()


@pytest.fixture
def client(store: InMemoryEventStore) -> FlaskClient:
    return make_app(store, CARDROOM_ADMIN_TOKEN=TOKEN).test_client()


def _create(client: FlaskClient, address: str = "10.0.0.1", game: str = "shithead") -> str:
    response = client.post("/games", json={"game": game, "seats": OPEN2},
                           environ_base={"REMOTE_ADDR": address})  # fmt: skip
    assert response.status_code == 201, response.json
    return str(response.json["id"])


def test_admin_is_off_without_a_configured_token_and_has_no_default() -> None:
    off = make_app(InMemoryEventStore()).test_client()
    for headers in ({}, bearer(""), bearer("admin"), ADMIN):
        response = off.get("/admin/games", headers=headers)
        assert response.status_code in (401, 403), response.json
        assert response.status_code == 403 or headers == {} or headers == bearer("")
    assert "CARDROOM_ADMIN_TOKEN" in off.get("/admin/games", headers=ADMIN).json["detail"]


def test_an_admin_request_without_the_token_is_401_and_with_another_token_403(
    client: FlaskClient,
) -> None:
    missing = client.get("/admin/games")
    assert missing.status_code == 401 and missing.json["code"] == "unauthorized"
    assert missing.headers["Content-Type"] == "application/problem+json"
    wrong = client.get("/admin/games", headers=bearer(TOKEN + "x"))
    assert wrong.status_code == 403 and wrong.json["code"] == "forbidden"
    game_id = _create(client)
    refused = client.post(f"/admin/games/{game_id}/end", json={"reason": "x"},
                          headers=bearer("nope"))  # fmt: skip
    assert refused.status_code == 403
    assert client.get(f"/games/{game_id}").json["status"] == "waiting"  # nothing changed
    assert client.delete(f"/admin/games/{game_id}").status_code == 401
    assert client.get(f"/games/{game_id}").status_code == 200


def test_the_admin_endpoints_are_documented_under_their_own_tag(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    admin_paths = {p: ops for p, ops in spec["paths"].items() if p.startswith("/admin/")}
    assert {"/admin/games", "/admin/games/{game_id}", "/admin/games/{game_id}/end"} <= set(
        admin_paths
    )
    for operations in admin_paths.values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            assert operation["tags"] == ["admin"]
            assert {"401", "403"} <= set(operation["responses"])
            assert operation["security"] == [{"adminAuth": []}]
    assert "admin" in {t["name"] for t in spec["tags"]}


def test_the_operator_lists_games_by_creator_status_and_game(client: FlaskClient) -> None:
    junk = [_create(client, "10.6.6.6") for _ in range(3)]
    other = _create(client, "10.0.0.2", game="sixty_six")
    listed = client.get("/admin/games?creator=10.6.6.6", headers=ADMIN).json["games"]
    assert sorted(g["id"] for g in listed) == sorted(junk)
    assert all(g["creator"] == "10.6.6.6" and g["status"] == "waiting" for g in listed)
    by_game = client.get("/admin/games?game=sixty_six", headers=ADMIN).json["games"]
    assert [g["id"] for g in by_game] == [other]
    assert client.get("/admin/games?limit=2", headers=ADMIN).json["games"][1]["id"] == junk[2]
    bad = client.get("/admin/games?status=sleeping", headers=ADMIN)
    assert bad.status_code == 422
    # the public listing does not show the creator
    assert all("creator" not in g for g in client.get("/games").json["games"])


def test_ending_a_game_records_the_operator_s_reason_and_the_replay_verifies(
    client: FlaskClient,
) -> None:
    table = Table(client, game="shithead", players=2, seed=None)
    before = table.summary()["version"]
    ended = client.post(f"/admin/games/{table.id}/end", json={"reason": "cheating reported"},
                        headers=ADMIN)  # fmt: skip
    assert ended.status_code == 200, ended.json
    assert ended.json["outcome"] == {"reason": "stopped", "note": "cheating reported",
                                     "winners": [], "losers": []}  # fmt: skip
    summary = table.summary()
    assert summary["status"] == "over" and summary["version"] == before + 2
    events = client.get(f"/games/{table.id}/events?after={before}").json["events"]
    types = [e["event"]["type"] for e in events]
    assert types == ["lifecycle.GameStopped", "lifecycle.SecretRevealed"]
    assert events[0]["event"]["reason"] == "cheating reported"
    replay = loads(client.get(f"/games/{table.id}/replay").get_data())
    assert verify(replay, get_game("shithead")).ok
    again = client.post(f"/admin/games/{table.id}/end", json={"reason": "twice"}, headers=ADMIN)
    assert again.status_code == 409 and again.json["code"] == "game_over"


def test_a_waiting_game_can_be_ended_and_an_end_needs_a_reason(client: FlaskClient) -> None:
    game_id = _create(client)
    assert client.post(f"/admin/games/{game_id}/end", json={}, headers=ADMIN).status_code == 422
    assert client.post(f"/admin/games/{game_id}/end", json={"reason": ""},
                       headers=ADMIN).status_code == 422  # fmt: skip
    assert client.post("/admin/games/nosuchgame/end", json={"reason": "x"},
                       headers=ADMIN).status_code == 404  # fmt: skip
    ended = client.post(f"/admin/games/{game_id}/end", json={"reason": "junk"}, headers=ADMIN)
    assert ended.status_code == 200 and client.get(f"/games/{game_id}").json["status"] == "over"


def test_purging_forgets_waiting_and_finished_games_but_not_one_being_played(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    waiting = _create(client)
    table = Table(client, game="shithead", players=2, seed=None)
    playing = client.delete(f"/admin/games/{table.id}", headers=ADMIN)
    assert playing.status_code == 409 and playing.json["code"] == "game_playing"
    assert client.get(f"/games/{table.id}").status_code == 200
    purged = client.delete(f"/admin/games/{waiting}", headers=ADMIN)
    assert purged.status_code == 200 and purged.json == {"id": waiting, "status": "waiting",
                                                         "purged": True}  # fmt: skip
    assert client.get(f"/games/{waiting}").status_code == 404
    assert store.meta(waiting) is None and waiting not in [g["id"] for g in
                                                           client.get("/games").json["games"]]
    client.post(f"/admin/games/{table.id}/end", json={"reason": "done"}, headers=ADMIN)
    assert client.delete(f"/admin/games/{table.id}", headers=ADMIN).status_code == 200
    assert client.delete(f"/admin/games/{table.id}", headers=ADMIN).status_code == 404


def test_every_admin_act_is_logged_with_its_client(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = _create(client)
    with caplog.at_level(logging.INFO, logger="service"):
        client.get("/admin/games", headers=bearer("wrong"), environ_base=_from("10.9.9.9"))
        client.post(f"/admin/games/{game_id}/end", json={"reason": "spam"}, headers=ADMIN,
                    environ_base=_from("10.1.2.3"))  # fmt: skip
    lines = [r.getMessage() for r in caplog.records]
    assert any("GET /admin/games -> 403 from 10.9.9.9" in line for line in lines), lines
    assert any(f"POST /admin/games/{game_id}/end -> 200 from 10.1.2.3" in line for line in lines)
    assert any(game_id in line and "stopped by the operator: spam" in line for line in lines)


def _from(address: str) -> dict[str, Any]:
    return {"REMOTE_ADDR": address}
