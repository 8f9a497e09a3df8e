"""Playing over HTTP: versions, tokens, rules refused as problems, idempotent retries."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api.deps import EXTENSION
from service.store import InMemoryEventStore
from service.store.records import idempotency_to_json, seat_key
from tests.support.api import Table, bearer
from tests.unit.service.test_api_games import problem_of

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
DEALT = 5  # GameCreated, a SeatFilled per seat, then the fake game's start and deal




@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client, deal=DEAL, dealer=1)  # seat 0 leads


def play(card: str) -> dict[str, Any]:
    return {"type": "play", "card": card}


def test_a_legal_action_returns_the_new_version_events_and_view(table: Table) -> None:
    response = table.act(0, play("AS"), version=DEALT)
    assert response.status_code == 200, response.json
    assert response.headers["ETag"] == f'"{DEALT + 1}"'
    body = response.json
    assert body["version"] == DEALT + 1
    played = {"type": "fake.CardPlayed", "schema": 1, "seat": 0, "card": "AS"}
    assert body["events"] == [{"version": DEALT + 1, "event": played}]
    assert body["view"]["hand"] == ["9H"] and body["view"]["legal_actions"] == []
    assert table.summary()["version"] == DEALT + 1 and table.summary()["to_act"] == [1]


def test_if_match_can_carry_the_expected_version(table: Table) -> None:
    assert table.act(0, play("AS"), **{"If-Match": f'"{DEALT}"'}).status_code == 200
    assert table.act(1, play("KD"), **{"If-Match": f'W/"{DEALT + 1}"'}).status_code == 200
    problem_of(table.act(0, play("9H"), **{"If-Match": "*"}), 400, "invalid_request")
    problem_of(table.act(0, play("9H"), version=DEALT + 2, **{"If-Match": f'"{DEALT + 3}"'}), 400,
               "invalid_request")


def test_an_action_without_an_expected_version_is_refused(table: Table) -> None:
    problem_of(table.act(0, play("AS")), 400, "invalid_request")


def test_a_stale_version_is_a_conflict_naming_the_current_one(
    table: Table, store: InMemoryEventStore
) -> None:
    table.act(0, play("AS"), version=DEALT)
    body = problem_of(table.act(1, play("KD"), version=DEALT), 409, "version_conflict")
    assert body["current_version"] == DEALT + 1
    assert store.version(table.id) == DEALT + 1


def test_acting_out_of_turn_is_not_your_turn(table: Table, store: InMemoryEventStore) -> None:
    problem_of(table.act(1, play("KD"), version=DEALT), 409, "not_your_turn")
    assert store.version(table.id) == DEALT


def test_a_card_not_held_is_an_illegal_action_with_its_reason(
    table: Table, store: InMemoryEventStore
) -> None:
    body = problem_of(table.act(0, play("KD"), version=DEALT), 422, "illegal_action")
    assert body["reason"] == "not_in_hand"
    assert store.version(table.id) == DEALT


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (play("ZZ"), "invalid_card"),
        ({"type": "fly"}, "invalid_action"),
        ({"type": "play", "card": "AS", "extra": 1}, "invalid_action"),
        ({"type": "play"}, "invalid_action"),
    ],
)
def test_malformed_actions_are_refused(
    table: Table, store: InMemoryEventStore, action: dict[str, Any], code: str
) -> None:
    problem_of(table.act(0, action, version=DEALT), 422, code)
    assert store.version(table.id) == DEALT


@pytest.mark.parametrize(
    "body",
    [
        {"expected_version": 2},
        {"type": 5, "expected_version": 2},
        {"type": "play", "card": "AS", "expected_version": str(DEALT)},
        {"type": "play", "card": "AS", "expected_version": -1},
        [1, 2],
    ],
)
def test_an_action_body_off_the_schema_is_an_invalid_request(table: Table, body: Any) -> None:
    response = table.client.post(f"/games/{table.id}/actions", json=body,
                                 headers=table.headers(0))
    problem_of(response, 422, "invalid_request")


def test_acting_needs_a_valid_token(table: Table) -> None:
    url = f"/games/{table.id}/actions"
    body = {**play("AS"), "expected_version": 2}
    response = table.client.post(url, json=body)
    problem_of(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    problem_of(table.client.post(url, json=body, headers=bearer("wrong")), 401, "unauthorized")
    problem_of(table.client.post(url, json=body, headers={"Authorization": "Basic x"}), 401,
               "unauthorized")


def test_a_token_of_another_game_is_unauthorized(client: FlaskClient, table: Table) -> None:
    other = Table(client, deal=DEAL, dealer=1)
    response = client.post(f"/games/{table.id}/actions", json={**play("AS"),
                           "expected_version": 2}, headers=bearer(other.tokens[0]))
    problem_of(response, 401, "unauthorized")


def test_acting_for_another_seat_is_forbidden(table: Table) -> None:
    response = table.act(1, {**play("AS"), "seat": 0}, version=DEALT)
    problem_of(response, 403, "forbidden")


def test_bot_seats_cannot_be_played_over_http(client: FlaskClient) -> None:
    seats = [{"type": "open"}, {"type": "bot", "bot": "random"}]
    game_id = client.post("/games", json={"game": "fake", "seats": seats, "deal": DEAL,
                                          "dealer": 0}).json["id"]
    token = client.post(f"/games/{game_id}/seats/0", json={"name": "a"}).json["token"]
    response = client.post(f"/games/{game_id}/actions", json={**play("KD"),
                           "expected_version": 2, "seat": 1}, headers=bearer(token))
    problem_of(response, 403, "forbidden")


def test_a_retried_idempotency_key_returns_the_identical_response(
    table: Table, store: InMemoryEventStore
) -> None:
    first = table.act(0, play("AS"), version=DEALT, key="k-1")
    again = [table.act(0, play("AS"), version=DEALT, key="k-1") for _ in range(5)]
    assert all(r.status_code == 200 for r in again)
    assert all(r.get_data() == first.get_data() for r in again)
    assert all(r.headers["ETag"] == first.headers["ETag"] for r in again)
    assert store.version(table.id) == DEALT + 1


def test_a_retry_after_the_game_moved_on_still_gets_its_first_response(table: Table) -> None:
    first = table.act(0, play("AS"), version=DEALT, key="k-1")
    table.act(1, play("KD"), version=DEALT + 1)
    assert table.act(0, play("AS"), version=DEALT, key="k-1").get_data() == first.get_data()


def test_an_action_record_keeps_no_copy_of_its_response(
    table: Table, store: InMemoryEventStore
) -> None:
    """The record holds the request's fingerprint and the version; a retry renders the first
    response again from the events, also on a process that never saw the game (a full fold)."""
    first = table.act(0, play("AS"), version=DEALT, key="k-1")
    table.act(1, play("KD"), version=DEALT + 1)
    record = store.fetch(table.id, 0, seat_key(0, "k-1")).idempotency
    assert record is not None and record.response is None and record.version == DEALT + 1
    assert len(idempotency_to_json(record)) < 32
    table.client.application.extensions[EXTENSION].cache.clear()
    assert table.act(0, play("AS"), version=DEALT, key="k-1").get_data() == first.get_data()


def test_an_idempotency_key_reused_for_another_request_is_refused(
    table: Table, store: InMemoryEventStore
) -> None:
    table.act(0, play("AS"), version=DEALT, key="k-1")
    problem_of(table.act(0, play("9H"), version=DEALT, key="k-1"), 422, "idempotency_key_reused")
    again = table.act(0, play("9H"), version=DEALT + 2, key="k-1")
    problem_of(again, 422, "idempotency_key_reused")
    assert store.version(table.id) == DEALT + 1


def test_a_key_belongs_to_its_seat_another_seat_can_neither_read_nor_block_it(
    table: Table, store: InMemoryEventStore
) -> None:
    first = table.act(0, play("AS"), version=DEALT, key="k-1")
    # seat 1 sends seat 0's key: it is seat 1's own, fresh key (no replay of seat 0's response)
    other = table.act(1, play("KD"), version=DEALT + 1, key="k-1")
    assert other.status_code == 200, other.json
    assert other.json["version"] == DEALT + 2 and other.get_data() != first.get_data()
    # seat 0 now sends the key seat 1 used: not blocked, not answered with seat 1's response
    mine = table.act(0, play("9H"), version=DEALT + 2, key="k-1")
    problem_of(mine, 422, "idempotency_key_reused")  # seat 0's own k-1 (its first action)
    assert table.act(0, play("9H"), version=DEALT + 2, key="k-2").status_code == 200
    # seat 0's k-2 does not block seat 1
    last = table.act(1, play("TC"), version=DEALT + 3, key="k-2")
    assert last.status_code == 200, last.json
    assert store.version(table.id) == last.json["version"]


def test_a_refused_action_does_not_use_up_its_key(table: Table) -> None:
    problem_of(table.act(0, play("KD"), version=DEALT, key="k-1"), 422, "illegal_action")
    assert table.act(0, play("AS"), version=DEALT, key="k-1").status_code == 200


def test_a_bad_idempotency_key_is_an_invalid_request(table: Table) -> None:
    problem_of(table.act(0, play("AS"), version=DEALT, key="x" * 201), 422, "invalid_request")


def test_nothing_can_be_played_once_the_game_is_over(table: Table) -> None:
    for step, (seat, card) in enumerate(((0, "AS"), (1, "KD"), (0, "9H"), (1, "TC"))):
        assert table.act(seat, play(card), version=DEALT + step).status_code == 200
    summary = table.summary()
    assert summary["status"] == "over" and summary["outcome"]["reason"] == "finished"
    assert summary["seed"] == "table-seed" and summary["prearranged"] is True
    problem_of(table.act(0, play("AS"), version=summary["version"]), 409, "game_over")
    problem_of(table.join(0, "late"), 409, "game_over")
    listed = table.client.get("/games?status=over").json["games"]
    assert [g["id"] for g in listed] == [table.id]
