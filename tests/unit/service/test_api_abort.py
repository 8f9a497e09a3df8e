"""Abort through the action endpoint: never a legal action, offered by the view's may_send;
before the deal one seated person ends the game, after it every person must agree."""

from __future__ import annotations

from flask.testing import FlaskClient

from replays import loads
from replays.verify import verify
from tests.support.api import Table, bearer
from tests.unit.service.test_api_games import problem_of

ABORT = {"type": "abort"}


def test_a_seated_person_aborts_a_game_still_waiting_for_players(client: FlaskClient) -> None:
    seats = [{"type": "open"}, {"type": "open"}, {"type": "bot", "bot": "random"}]
    created = client.post("/games", json={"game": "shithead", "seats": seats}).json
    game_id = created["id"]
    token = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).json["token"]
    view = client.get(f"/games/{game_id}/view", headers=bearer(token)).json
    assert view["view"]["may_send"] == ["abort", "leave"]
    response = client.post(f"/games/{game_id}/actions", headers=bearer(token),
                           json={**ABORT, "expected_version": view["version"]})  # fmt: skip
    assert response.status_code == 200, response.json
    summary = client.get(f"/games/{game_id}").json
    assert summary["status"] == "over"
    assert summary["outcome"] == {"reason": "aborted", "agreed": [0], "winners": [],
                                  "losers": []}  # fmt: skip
    listed = {g["id"]: g["status"] for g in client.get("/games?status=over").json["games"]}
    assert listed[game_id] == "over"
    replay = loads(client.get(f"/games/{game_id}/replay").get_data())
    assert verify(replay).ok and replay.outcome == summary["outcome"]
    problem_of(client.post(f"/games/{game_id}/seats/1", json={"name": "bo"}), 409, "game_over")


def test_after_the_deal_the_game_ends_once_every_person_agrees(client: FlaskClient) -> None:
    table = Table(client, game="sixty_six", players=2, seed=None)
    view = table.view(0)
    assert "abort" in view["view"]["may_send"]
    assert all(a["type"] != "abort" for a in view["view"]["legal_actions"])
    first = table.act(0, ABORT, version=view["version"])
    assert first.status_code == 200, first.json
    assert [e["event"]["type"] for e in first.json["events"]] == ["lifecycle.AbortAgreed"]
    assert table.summary()["status"] == "playing"
    assert table.view(1)["view"]["abort_agreed"] == [0]
    again = table.act(0, ABORT, version=first.json["version"])
    assert problem_of(again, 422, "illegal_action")["reason"] == "abort_already_agreed"
    last = table.act(1, ABORT, version=first.json["version"])
    assert last.status_code == 200, last.json
    summary = table.summary()
    assert summary["status"] == "over" and summary["outcome"]["reason"] == "aborted"
    assert summary["outcome"]["agreed"] == [0, 1] and summary["outcome"]["winners"] == []
    replay = loads(client.get(f"/games/{table.id}/replay").get_data())
    assert verify(replay).ok


def test_an_agreement_made_early_does_not_let_the_other_abort_when_it_suits_them(
    client: FlaskClient,
) -> None:
    """Issue 30: Alice agreed at move 1; much later Bob aborted when it suited him."""
    table = Table(client, game="sixty_six", players=2, seed=None)
    view = table.view(0)
    agreed = table.act(0, ABORT, version=view["version"])
    assert agreed.status_code == 200, agreed.json
    bob = table.view(1)
    while 1 not in bob["view"]["to_act"]:  # Alice (seat 0) moves on while Bob has the turn next
        alice = table.view(0)
        table.act(0, alice["view"]["legal_actions"][0], version=alice["version"])
        bob = table.view(1)
    played = table.act(1, bob["view"]["legal_actions"][0], version=bob["version"])
    assert played.json["events"][0]["event"]["type"] == "lifecycle.AbortLapsed"
    later = table.view(1)
    assert later["view"]["abort_agreed"] == []
    bob_aborts = table.act(1, ABORT, version=later["version"])
    assert [e["event"]["type"] for e in bob_aborts.json["events"]] == ["lifecycle.AbortAgreed"]
    assert table.summary()["status"] == "playing"
    withdrawn = table.act(1, {"type": "withdraw_abort"}, version=bob_aborts.json["version"])
    assert withdrawn.status_code == 200, withdrawn.json
    assert table.view(0)["view"]["abort_agreed"] == []
