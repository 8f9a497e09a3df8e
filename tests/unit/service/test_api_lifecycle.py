"""Fair dealing and receipts over HTTP: the deal at the last join, seats' entropy, prearranged
games marked everywhere, retry-safe joins, head hashes as receipts checked by the verifier."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.fairness import commitment
from replays import build_replay, loads
from replays.verify import verify
from service.games import GameService
from service.store import InMemoryEventStore
from tests.support.api import Table, bearer
from tests.support.fakegame import GAMES
from tests.unit.service.test_api_games import problem_of

ENTROPY = "ab" * 32
OPEN2 = [{"type": "open"}, {"type": "open"}]




JOIN_KEY = "join-9f8e7d6c5b4a39281706"  # a join's key is a secret: 22 characters at least
ENTROPY = "c3" * 32


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/games", json={"game": "shithead", "seats": OPEN2, **body})
    assert response.status_code == 201, response.json
    return dict(response.json)


def join(client: FlaskClient, game_id: str, seat: int, **body: Any) -> Any:
    headers = {}
    if "key" in body:
        headers["Idempotency-Key"] = body.pop("key")
    return client.post(f"/games/{game_id}/seats/{seat}", json={"name": f"p{seat}", **body},
                       headers=headers)  # fmt: skip


def test_the_deal_is_made_when_the_last_seat_is_filled(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    game_id = create(client)["id"]
    first = join(client, game_id, 0)
    assert first.status_code == 201 and client.get(f"/games/{game_id}").json["to_act"] == []
    assert client.get(f"/games/{game_id}/view").json["view"]["open_seats"] == [1]
    last = join(client, game_id, 1, entropy=ENTROPY)
    assert last.status_code == 201, last.json
    summary = client.get(f"/games/{game_id}").json
    assert summary["status"] == "playing" and summary["to_act"] != []
    filled = [s.event for s in store.read(game_id) if s.event["type"] == "lifecycle.SeatFilled"]
    assert [(e["seat"], e["source"]) for e in filled] == [(0, "server"), (1, "client")]
    assert filled[1]["entropy"] == ENTROPY
    assert store.read(game_id)[-1].version == last.json["version"]


def test_a_creator_cannot_repeat_a_deal_without_choosing_the_seed(client: FlaskClient) -> None:
    hands = []
    for _ in range(2):  # the same request, the same entropy from every seat
        game_id = create(client)["id"]
        tokens = [join(client, game_id, s, entropy=ENTROPY).json["token"] for s in (0, 1)]
        view = client.get(f"/games/{game_id}/view", headers=bearer(tokens[0])).json["view"]
        hands.append(view["hand"])
    assert hands[0] != hands[1]  # the server's secret differs: nobody could foresee either


def test_a_chosen_seed_is_marked_prearranged_everywhere_before_anyone_joins(
    client: FlaskClient,
) -> None:
    chosen = create(client, seed="4711")
    fair = create(client)
    assert chosen["prearranged"] is True and fair["prearranged"] is False
    listed = {g["id"]: g["prearranged"] for g in client.get("/games").json["games"]}
    assert listed == {chosen["id"]: True, fair["id"]: False}
    assert client.get(f"/games/{chosen['id']}").json["prearranged"] is True
    assert client.get(f"/games/{chosen['id']}/view").json["view"]["prearranged"] is True
    assert client.get(f"/games/{fair['id']}/view").json["view"]["prearranged"] is False
    explicit = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
    dealt = client.post("/games", json={"game": "fake", "seats": OPEN2, "deal": explicit})
    assert dealt.json["prearranged"] is True


def test_a_join_retried_with_its_idempotency_key_returns_the_same_token(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    game_id = create(client)["id"]
    first = join(client, game_id, 0, key=JOIN_KEY, entropy=ENTROPY)
    again = join(client, game_id, 0, key=JOIN_KEY, entropy=ENTROPY)
    assert first.status_code == again.status_code == 201, again.json
    assert again.json["token"] == first.json["token"]
    assert again.json["version"] == first.json["version"] == store.version(game_id)
    view = client.get(f"/games/{game_id}/view", headers=bearer(first.json["token"]))
    assert view.status_code == 200 and view.json["seat"] == 0
    problem_of(join(client, game_id, 0), 409, "seat_taken")  # without the key: taken
    problem_of(join(client, game_id, 0, key=JOIN_KEY, entropy=ENTROPY, name="other"), 422,
               "idempotency_key_reused")  # fmt: skip
    assert store.version(game_id) == first.json["version"]


def test_a_join_s_key_gives_its_token_back_only_with_the_client_s_own_entropy(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    game_id = create(client)["id"]
    first = join(client, game_id, 0, key=JOIN_KEY, entropy=ENTROPY)
    assert first.status_code == 201
    # someone who learnt the key and the name: without the entropy, or with another, no token
    problem_of(join(client, game_id, 0, key=JOIN_KEY), 400, "invalid_request")
    problem_of(join(client, game_id, 0, key=JOIN_KEY, entropy="ab" * 32), 422,
               "idempotency_key_reused")  # fmt: skip
    assert store.version(game_id) == first.json["version"]


@pytest.mark.parametrize(("key", "entropy", "said"), [
    (JOIN_KEY, None, "sends its own entropy"), ("join-1", ENTROPY, "at least 22 characters"),
])  # fmt: skip
def test_a_join_s_key_is_a_secret_sent_with_the_client_s_entropy(
    client: FlaskClient, store: InMemoryEventStore, key: str, entropy: str | None, said: str
) -> None:
    game_id = create(client)["id"]
    body = {} if entropy is None else {"entropy": entropy}
    refused = problem_of(join(client, game_id, 0, key=key, **body), 400, "invalid_request")
    assert said in refused["detail"] and store.meta(game_id).seats[0].type == "open"


def test_malformed_entropy_is_refused_and_changes_nothing(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    game_id = create(client)["id"]
    for bad in ("xyz", "AB" * 32, "ab" * 31, 7):
        response = join(client, game_id, 0, entropy=bad)
        assert response.status_code in (400, 422) and response.json["code"] == "invalid_request"
    assert store.version(game_id) == 1


def test_every_response_carries_a_receipt_and_the_replay_verifies_against_them(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    table = Table(client, game="fake", players=2, seed=None)
    receipts = []
    while True:
        view = table.view(0)
        assert view["head_hash"] == store.read(table.id)[-1].hash
        receipts.append((view["version"], view["head_hash"]))
        seat, legal = next((s, table.view(s)["view"]["legal_actions"]) for s in (0, 1)
                           if table.view(s)["view"]["legal_actions"])  # fmt: skip
        response = table.act(seat, legal[0], version=view["version"])
        assert response.status_code == 200, response.json
        receipts.append((response.json["version"], response.json["head_hash"]))
        if table.summary()["status"] == "over":
            break
    summary = table.summary()
    assert commitment(summary["secret"]) == summary["commitment"] == table.created["commitment"]
    replay = loads(client.get(f"/games/{table.id}/replay").get_data())
    report = verify(replay, GAMES["fake"], receipts=receipts, expect_head=summary["head_hash"])
    assert report.ok
    assert replay.header.prearranged is False and replay.header.version == 2


def test_a_game_that_never_fills_expires_once_due_and_its_replay_verifies(
    store: InMemoryEventStore,
) -> None:
    service = GameService(store, games=GAMES, clock=lambda: 1000.0)
    game_id = service.create_game("shithead", OPEN2)["id"]
    service.join_seat(game_id, 0, "alice")
    assert not service.expire_if_due(game_id, now=1000.0 + 59, ttl=60)  # not yet due
    assert store.version(game_id) == 2
    assert service.expire_if_due(game_id, now=1000.0 + 60, ttl=60)
    assert not service.expire_if_due(game_id, now=1000.0 + 61, ttl=60)  # once
    summary = service.summary(game_id)
    assert summary["status"] == "over" and summary["outcome"]["reason"] == "expired"
    assert summary["outcome"]["open_seats"] == [1]
    assert [s.event["type"] for s in store.read(game_id)][-2:] == [
        "lifecycle.GameExpired", "lifecycle.SecretRevealed"]  # fmt: skip
    assert store.list_games(status="over")[0].id == game_id
    replay = build_replay(game_id, store.entries(game_id), game="shithead",
                          outcome=summary["outcome"])  # fmt: skip
    assert verify(replay).ok


def test_a_full_game_does_not_expire(store: InMemoryEventStore) -> None:
    service = GameService(store, games=GAMES, clock=lambda: 1000.0)
    game_id = service.create_game("shithead", [{"type": "bot", "bot": "random"}] * 2)["id"]
    assert not service.expire_if_due(game_id, now=10**9, ttl=60)
    assert service.summary(game_id)["status"] == "playing"


def test_a_seat_resigns_through_the_action_endpoint_and_the_replay_verifies(
    client: FlaskClient,
) -> None:
    table = Table(client, game="sixty_six", players=2, seed=None)
    view = table.view(1)
    assert view["view"]["may_send"] == ["resign", "abort", "leave"]
    assert all(a["type"] != "resign" for a in view["view"]["legal_actions"])
    response = table.act(1, {"type": "resign"}, version=view["version"])
    assert response.status_code == 200, response.json
    summary = table.summary()
    assert summary["status"] == "over"
    assert summary["outcome"] == {"reason": "resigned", "resigned": 1, "winners": [0],
                                  "losers": [1]}  # fmt: skip
    replay = loads(client.get(f"/games/{table.id}/replay").get_data())
    assert verify(replay).ok and replay.outcome == summary["outcome"]
    problem_of(table.act(0, {"type": "resign"}, version=summary["version"]), 409, "game_over")
