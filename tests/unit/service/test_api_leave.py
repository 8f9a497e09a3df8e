"""Leave through the action endpoint: the leaver's token stops working (403 seat_left); a
seat left open pauses the game until someone joins it; bad leave options are refused."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.support.api import Table, bearer
from tests.unit.service.test_api_games import problem_of

LEAVE = {"type": "leave"}


def test_a_seat_left_open_waits_for_a_new_person_and_the_old_token_is_refused(
    client: FlaskClient,
) -> None:
    table = Table(client, game="sixty_six", players=2, seed=None)
    view = table.view(1)
    assert "leave" in view["view"]["may_send"]
    assert all(a["type"] != "leave" for a in view["view"]["legal_actions"])
    left = table.act(1, LEAVE, version=view["version"])
    assert left.status_code == 200, left.json
    summary = table.summary()
    assert summary["status"] == "waiting" and summary["seats"][1]["type"] == "open"
    assert summary["to_act"] == []
    problem_of(client.get(f"/games/{table.id}/view", headers=table.headers(1)), 403, "seat_left")
    problem_of(table.act(1, {"type": "declare_out"}, version=left.json["version"]), 403,
               "seat_left")  # fmt: skip
    paused = table.act(0, {"type": "declare_out"}, version=left.json["version"])
    assert problem_of(paused, 409, "not_your_turn")["reason"] == "seat_open"
    listed = {g["id"] for g in client.get("/games?status=waiting").json["games"]}
    assert table.id in listed

    joined = client.post(f"/games/{table.id}/seats/1", json={"name": "newcomer"})
    assert joined.status_code == 201, joined.json
    summary = table.summary()
    assert summary["status"] == "playing" and summary["to_act"] != []
    assert summary["seats"][1] == {"seat": 1, "type": "human", "name": "newcomer"}
    fresh = client.get(f"/games/{table.id}/view", headers=bearer(joined.json["token"])).json
    assert fresh["seat"] == 1
    problem_of(client.get(f"/games/{table.id}/view", headers=table.headers(1)), 403, "seat_left")


def test_a_seat_left_before_the_deal_opens_again(client: FlaskClient) -> None:
    seats = [{"type": "open"}, {"type": "open"}]
    game_id = client.post("/games", json={"game": "sixty_six", "seats": seats}).json["id"]
    token = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).json["token"]
    version = client.get(f"/games/{game_id}").json["version"]
    left = client.post(f"/games/{game_id}/actions", headers=bearer(token),
                       json={**LEAVE, "expected_version": version})  # fmt: skip
    assert left.status_code == 200, left.json
    assert client.get(f"/games/{game_id}").json["seats"][0]["type"] == "open"
    assert client.post(f"/games/{game_id}/seats/0", json={"name": "bo"}).status_code == 201
    assert client.post(f"/games/{game_id}/seats/1", json={"name": "cy"}).status_code == 201
    assert client.get(f"/games/{game_id}").json["status"] == "playing"


def test_leave_options_are_checked_at_creation_and_listed_in_the_catalogue(
    client: FlaskClient,
) -> None:
    body = {"game": "sixty_six", "seats": [{"type": "open"}] * 2,
            "options": {"on_leave": "bot", "leave_bot": "heuristc"}}  # fmt: skip
    refused = problem_of(client.post("/games", json=body), 422, "invalid_options")
    assert "heuristic" in refused["detail"]
    games = {g["name"]: g for g in client.get("/catalogue").json["games"]}
    names = {o["name"] for o in games["shithead"]["options"]}
    assert {"on_leave", "leave_bot"} <= names
