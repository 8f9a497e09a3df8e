"""A rematch of a finished game, proposed or accepted by any seated person (POST
/games/{id}/rematch): the same rules, options and seats, dealt afresh, one game for everyone."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.support.api import bearer
from tests.unit.service.test_api_games import create, problem_of

PEOPLE_AND_A_BOT = [{"type": "open"}, {"type": "open"}, {"type": "bot", "bot": "random"}]


def finished(client: FlaskClient) -> tuple[str, list[str]]:
    """A prearranged fake game of two people and a bot that seat 1 resigned: its id, tokens."""
    made = create(client, seats=PEOPLE_AND_A_BOT, seed="rematch-seed",
                  options={"hand_size": 2}).json  # fmt: skip
    tokens = [client.post(f"/games/{made['id']}/seats/{s}", json={"name": f"p{s}"}).json["token"]
              for s in (0, 1)]  # fmt: skip
    version = client.get(f"/games/{made['id']}").json["version"]
    resigned = client.post(f"/games/{made['id']}/actions", headers=bearer(tokens[1]),
                           json={"type": "resign", "expected_version": version})  # fmt: skip
    assert resigned.status_code == 200, resigned.json
    return made["id"], tokens


def rematch(client: FlaskClient, game_id: str, token: str | None) -> Any:
    return client.post(f"/games/{game_id}/rematch", headers={} if token is None else bearer(token))


def test_any_seated_person_proposes_and_the_others_accept_the_same_game(
    client: FlaskClient,
) -> None:
    game_id, tokens = finished(client)
    old = client.get(f"/games/{game_id}").json
    assert old["status"] == "over" and old["rematch"] is None
    proposed = rematch(client, game_id, tokens[1])  # not the creator's seat, and the loser
    assert proposed.status_code == 201, proposed.json
    new = proposed.json
    assert proposed.headers["Location"] == f"/games/{new['id']}"
    assert new["id"] != game_id and new["game"] == "fake" and new["status"] == "waiting"
    assert [(s["type"], s.get("bot")) for s in new["seats"]] == [
        ("open", None), ("open", None), ("bot", "random")]  # fmt: skip
    assert new["prearranged"] is False  # dealt afresh: the chosen seed is not reused
    summary = client.get(f"/games/{new['id']}").json
    assert summary["options"] == old["options"]
    assert client.get(f"/games/{game_id}").json["rematch"] == new["id"]  # the offer, for all
    accepted = rematch(client, game_id, tokens[0])
    assert accepted.status_code == 201 and accepted.json["id"] == new["id"]
    listed = client.get("/games?game=fake&limit=100").json["games"]
    assert sum(1 for g in listed if g["id"] == new["id"]) == 1


def test_a_rematch_is_refused_before_the_end_and_to_anyone_not_seated(
    client: FlaskClient,
) -> None:
    made = create(client, seats=PEOPLE_AND_A_BOT).json
    token = client.post(f"/games/{made['id']}/seats/0", json={"name": "p0"}).json["token"]
    before = client.get("/games?limit=100").json["games"]
    problem_of(rematch(client, made["id"], token), 409, "game_not_over")
    game_id, tokens = finished(client)
    problem_of(rematch(client, game_id, None), 401, "unauthorized")
    problem_of(rematch(client, game_id, "not-a-token"), 401, "unauthorized")
    problem_of(rematch(client, game_id, token), 401, "unauthorized")  # another game's seat
    problem_of(rematch(client, "nosuchgame000000", tokens[0]), 404, "not_found")
    assert client.get(f"/games/{game_id}").json["rematch"] is None  # nothing was made
    after = client.get("/games?limit=100").json["games"]
    assert len(after) == len(before) + 1  # only the finished game itself


def test_no_client_can_take_a_rematchs_id_beforehand(client: FlaskClient) -> None:
    game_id, tokens = finished(client)
    squat = client.post("/games", headers={"Idempotency-Key": f"rematch of {game_id}"},
                        json={"game": "fake", "seats": [{"type": "open"}] * 3})  # fmt: skip
    problem_of(squat, 422, "invalid_request")
    assert rematch(client, game_id, tokens[0]).status_code == 201
