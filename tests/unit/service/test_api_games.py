"""Creating, joining, listing and reading games over HTTP; every request error is a problem."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.registry import all_games
from service.store import InMemoryEventStore
from tests.support.api import Table

PROBLEM = "application/problem+json"




def problem_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.content_type == PROBLEM
    body = dict(response.json)
    assert body["code"] == code and body["status"] == status
    assert body["title"] and body["detail"] and body["type"].endswith(code)
    return body


def create(client: FlaskClient, **body: Any) -> Any:
    payload = {"game": "fake", "seats": [{"type": "open"}, {"type": "bot", "bot": "random"}]}
    payload.update(body)
    return client.post("/games", json=payload)


def test_creating_a_game_returns_its_id_version_seats_and_commitment(client: FlaskClient) -> None:
    response = create(client, seed="abc")
    assert response.status_code == 201
    body = response.json
    assert response.headers["Location"] == f"/games/{body['id']}"
    assert body["version"] == 2 and body["game"] == "fake" and body["status"] == "waiting"
    assert body["seats"] == [
        {"seat": 0, "type": "open"},
        {"seat": 1, "type": "bot", "name": "random", "bot": "random"},
    ]
    assert len(body["commitment"]) == 64


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_registered_game_can_be_created_and_summarised(
    client: FlaskClient, name: str
) -> None:
    game = all_games()[name]
    seats = [{"type": "open"}] * game.min_players
    response = client.post("/games", json={"game": name, "seats": seats})
    assert response.status_code == 201, response.json
    summary = client.get(f"/games/{response.json['id']}").json
    assert summary["game"] == name and summary["version"] == response.json["version"]
    assert summary["outcome"] is None and "seed" not in summary
    assert set(summary["options"]) == {o.name for o in game.options}


def test_the_summary_keeps_the_seed_secret_while_playing(client: FlaskClient) -> None:
    game_id = create(client, seed="hidden-seed").json["id"]
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200 and response.headers["ETag"] == '"2"'  # created, bot seat
    summary = response.json
    assert "seed" not in summary and "hidden-seed" not in response.get_data(as_text=True)
    assert summary["to_act"] == []  # nobody acts before the last seat is filled
    assert summary["prearranged"] is True  # said before anyone joins
    assert len(summary["head_hash"]) == 64  # a salted chain's head is a receipt, safe to show
    assert "secret" not in summary
    assert summary["status"] == "waiting"


def test_joining_an_open_seat_returns_its_token_once(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    game_id = create(client).json["id"]
    joined = client.post(f"/games/{game_id}/seats/0", json={"name": "alice"})
    assert joined.status_code == 201
    token = joined.json["token"]
    assert len(token) >= 32
    assert joined.json["seats"][0] == {"seat": 0, "type": "human", "name": "alice"}
    summary = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert token not in summary
    assert token not in str(store.meta(game_id))  # only its hash is stored
    assert client.get(f"/games/{game_id}").json["status"] == "playing"


def test_a_seat_is_joined_only_once(client: FlaskClient) -> None:
    game_id = create(client).json["id"]
    client.post(f"/games/{game_id}/seats/0", json={"name": "alice"})
    problem_of(client.post(f"/games/{game_id}/seats/0", json={"name": "bob"}), 409, "seat_taken")
    problem_of(client.post(f"/games/{game_id}/seats/1", json={"name": "bob"}), 409, "seat_taken")


def test_joining_a_missing_seat_or_game_is_not_found(client: FlaskClient) -> None:
    game_id = create(client).json["id"]
    problem_of(client.post(f"/games/{game_id}/seats/7", json={"name": "x"}), 404, "not_found")
    problem_of(client.post(f"/games/{game_id}/seats/-1", json={"name": "x"}), 404, "not_found")
    problem_of(client.post("/games/nope/seats/0", json={"name": "x"}), 404, "not_found")


def test_a_join_needs_a_name(client: FlaskClient) -> None:
    game_id = create(client).json["id"]
    body = problem_of(client.post(f"/games/{game_id}/seats/0", json={}), 422, "invalid_request")
    assert "name" in body["errors"]
    problem_of(
        client.post(f"/games/{game_id}/seats/0", json={"name": "a" * 41}), 422, "invalid_request"
    )
    problem_of(
        client.post(f"/games/{game_id}/seats/0", json={"name": "a\x00b"}), 422, "invalid_field"
    )


def test_unknown_games_are_not_found(client: FlaskClient) -> None:
    for path in (
        "/games/nope",
        "/games/nope/view",
        "/games/nope/events",
        "/games/{x}",
        "/games/nope/stream",
    ):
        problem_of(client.get(path), 404, "not_found")


def test_games_are_listed_and_filtered(client: FlaskClient) -> None:
    waiting = create(client).json["id"]
    playing = create(client, seats=[{"type": "bot", "bot": "random"}] * 2).json["id"]
    listed = client.get("/games").json["games"]
    assert [g["id"] for g in listed] == [playing, waiting]
    assert [g["id"] for g in client.get("/games?status=playing").json["games"]] == [playing]
    assert [g["id"] for g in client.get("/games?game=fake&status=waiting").json["games"]] == [
        waiting
    ]
    assert client.get("/games?game=shithead").json["games"] == []
    assert [g["id"] for g in client.get("/games?limit=1&offset=1").json["games"]] == [waiting]
    problem_of(client.get("/games?status=sleeping"), 422, "invalid_request")
    problem_of(client.get("/games?limit=0"), 422, "invalid_request")


def test_the_catalogue_lists_games_and_their_options(client: FlaskClient) -> None:
    games = {g["name"]: g for g in client.get("/catalogue").json["games"]}
    assert set(all_games()) <= set(games)
    fake = games["fake"]
    assert fake["min_players"] == 2 and fake["max_players"] == 4
    assert {"name": "hand_size", "type": "int", "default": 3, "minimum": 1, "maximum": 6} in fake[
        "options"
    ]


def test_the_api_documents_itself(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    assert spec["openapi"].startswith("3.")
    paths = set(spec["paths"])
    assert {
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/seats/{seat}",
        "/games/{game_id}/view",
        "/games/{game_id}/actions",
        "/games/{game_id}/events",
        "/games/{game_id}/stream",
        "/catalogue",
    } <= paths
    assert client.get("/docs").status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess"}, 422, "unknown_game"),
        ({"options": {"hand_size": 99}}, 422, "invalid_options"),
        ({"options": {"colour": "red"}}, 422, "invalid_options"),
        ({"dealer": 5}, 422, "invalid_setup"),
        ({"seats": [{"type": "open"}] * 9}, 422, "invalid_setup"),
        ({"deal": {"seats": [{"hand": ["9H"]}, {"hand": ["9H"]}]}}, 422, "invalid_deal"),
        ({"deal": {"seats": [{"hand": ["ZZ"]}, {"hand": []}]}}, 422, "invalid_deal"),
        ({"seats": [{"type": "bot", "bot": "rm -rf"}]}, 422, "invalid_request"),
        ({"seats": [{"type": "bot"}]}, 422, "invalid_request"),
        ({"seats": [{"type": "robot"}]}, 422, "invalid_request"),
        ({"seats": []}, 422, "invalid_request"),
        ({"seats": "two"}, 422, "invalid_request"),
        ({"seed": ""}, 422, "invalid_request"),
        ({"dealer": "0"}, 422, "invalid_request"),
        ({"options": [1]}, 422, "invalid_request"),
        ({"game": None}, 422, "invalid_request"),
    ],
)
def test_a_bad_game_creation_is_a_problem_and_stores_nothing(
    client: FlaskClient, store: InMemoryEventStore, body: dict[str, Any], status: int, code: str
) -> None:
    problem_of(create(client, **body), status, code)
    assert store.list_games() == []


def test_malformed_json_is_an_invalid_request(client: FlaskClient) -> None:
    response = client.post("/games", data="{not json", content_type="application/json")
    body = problem_of(response, 400, "invalid_request")
    assert "JSON" in body["detail"]


def test_a_body_over_the_size_limit_is_refused(client: FlaskClient) -> None:
    response = create(client, seed="x" * 100, options={"pad": "y" * 70_000})
    problem_of(response, 413, "payload_too_large")


def test_a_wrong_method_is_refused_with_allow(client: FlaskClient) -> None:
    response = client.delete("/games")
    problem_of(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_an_explicit_deal_is_played_as_dealt(client: FlaskClient) -> None:
    deal = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
    table = Table(client, deal=deal, dealer=1)
    assert table.view(0)["view"]["hand"] == ["AS", "9H"]
    assert table.view(1)["view"]["hand"] == ["KD", "TC"]


@pytest.mark.parametrize("depth", [40, 900, 20_000])
def test_json_nested_absurdly_deep_is_an_invalid_request(client: FlaskClient, depth: int) -> None:
    body = '{"game": "fake", "seats": [{"type": "open"}], "options": {"a": '
    body += "[" * depth + "]" * depth + "}}"
    response = client.post("/games", data=body, content_type="application/json")
    problem_of(response, 400, "invalid_request")


def test_brackets_inside_strings_do_not_count_as_nesting(client: FlaskClient) -> None:
    response = create(client, seed="[" * 100 + "{" * 20)
    assert response.status_code == 201


def test_a_creation_retried_with_its_idempotency_key_creates_nothing_twice(
    client: FlaskClient,
) -> None:
    key = {"Idempotency-Key": "my-first-game"}
    first = client.post(
        "/games", json={"game": "fake", "seats": [{"type": "open"}] * 2}, headers=key
    )
    again = client.post(
        "/games", json={"game": "fake", "seats": [{"type": "open"}] * 2}, headers=key
    )
    assert first.status_code == again.status_code == 201
    assert first.get_data() == again.get_data()
    assert [g["id"] for g in client.get("/games").json["games"]] == [first.json["id"]]
    other = client.post(
        "/games", json={"game": "fake", "seats": [{"type": "open"}] * 3}, headers=key
    )
    problem_of(other, 422, "idempotency_key_reused")
    assert len(client.get("/games").json["games"]) == 1


def test_creations_without_a_key_are_separate_games(client: FlaskClient) -> None:
    body = {"game": "fake", "seats": [{"type": "open"}] * 2}
    ids = {client.post("/games", json=body).json["id"] for _ in range(3)}
    assert len(ids) == 3


@pytest.mark.parametrize("game", ["shithead", "sixty_six", "sheepshead"])
@pytest.mark.parametrize("limit", [10**30, 100_001])
def test_an_action_limit_above_the_maximum_is_refused(
    client: FlaskClient, store: InMemoryEventStore, game: str, limit: int
) -> None:
    players = 4 if game == "sheepshead" else 2
    body = {"game": game, "seats": [{"type": "open"}] * players, "options": {"action_limit": limit}}
    problem = problem_of(client.post("/games", json=body), 422, "invalid_options")
    assert "action_limit" in problem["detail"] and "100000" in problem["detail"]
    assert store.list_games() == []
    body["options"] = {"action_limit": 100_000}
    assert client.post("/games", json=body).status_code == 201


def test_the_catalogue_names_the_bots_each_game_may_seat(client: FlaskClient) -> None:
    games = {g["name"]: g for g in client.get("/catalogue").json["games"]}
    for name in ("shithead", "sixty_six", "sheepshead"):
        assert {"heuristic", "random", "search"} <= set(games[name]["bots"]), games[name]["bots"]
