"""The API on a real Redis: concurrent writers, concurrent retries, tampering by hand."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask

from domain.registry import all_games
from tests.support.api import Table, bearer, make_app
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.support.store_contract import rewrite_redis_entry
from tests.support.threads import in_parallel

pytestmark = pytest.mark.integration

THREADS = 64
PROCESSES = 8  # apps with their own caches, as gunicorn workers would have
GAMES = sorted({"fake", *all_games()})


@pytest.fixture
def namespace() -> Iterator[str]:
    name = unique_namespace("it")
    yield name
    delete_namespace(redis.Redis.from_url(redis_url()), name)


@pytest.fixture
def apps(namespace: str) -> list[Flask]:
    config = {"REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": namespace}
    return [make_app(redis=True, **config) for _ in range(PROCESSES)]


def all_moves(table: Table) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    moves, version = [], 0
    for seat in range(len(table.tokens)):
        view = table.view(seat)
        version = view["version"]
        moves += [(seat, a) for a in view["view"]["legal_actions"]]
    return moves, version


@pytest.mark.parametrize("game", GAMES)
def test_of_64_concurrent_actions_on_one_version_exactly_one_is_accepted(
    apps: list[Flask], game: str
) -> None:
    players = 3 if game == "sheepshead" else 2
    table = Table(apps[0].test_client(), game=game, players=players, seed=f"race-{game}")
    moves, version = all_moves(table)
    assert moves
    store = apps[0].extensions["cardroom"].store
    before = store.version(table.id)
    clients = [app.test_client() for app in apps]

    def post(i: int) -> tuple[int, Any]:
        seat, action = moves[i % len(moves)]
        response = clients[i % PROCESSES].post(
            f"/games/{table.id}/actions",
            json={**action, "expected_version": version},
            headers=table.headers(seat),
        )
        return response.status_code, response.json

    results = in_parallel(THREADS, post)
    statuses = Counter(status for status, _ in results)
    assert statuses == {200: 1, 409: THREADS - 1}, statuses
    assert all(body["code"] == "version_conflict" for status, body in results if status == 409)
    (winner,) = [body for status, body in results if status == 200]
    assert store.version(table.id) == winner["version"] > before
    # creation, a join per seat (the last one deals), the one accepted action
    assert len(store.batches(table.id)) == 1 + players + 1
    assert store.verify_chain(table.id).ok


def test_concurrent_retries_of_one_key_append_once_and_answer_identically(
    apps: list[Flask],
) -> None:
    table = Table(apps[0].test_client(), game="fake", players=2, seed="retry")
    moves, version = all_moves(table)
    seat, action = moves[0]
    clients = [app.test_client() for app in apps]

    def post(i: int) -> tuple[int, bytes]:
        response = clients[i % PROCESSES].post(
            f"/games/{table.id}/actions",
            json={**action, "expected_version": version},
            headers={**table.headers(seat), "Idempotency-Key": "same-key"},
        )
        return response.status_code, response.get_data()

    results = in_parallel(THREADS, post) + in_parallel(8, post)
    assert {status for status, _ in results} == {200}
    assert len({body for _, body in results}) == 1
    store = apps[0].extensions["cardroom"].store
    assert store.version(table.id) == json.loads(results[0][1])["version"] == version + 1
    assert len(store.batches(table.id)) == 4  # creation, two joins, the one action


def test_a_whole_game_on_redis_ends_with_an_intact_chain(apps: list[Flask]) -> None:
    rnd = random.Random(7)
    table = Table(apps[0].test_client(), game="fake", players=3, seed="whole")
    while (move := table.random_move(rnd)) is not None:
        seat, action, version = move
        client = apps[rnd.randrange(PROCESSES)].test_client()
        response = client.post(
            f"/games/{table.id}/actions",
            json={**action, "expected_version": version},
            headers=table.headers(seat),
        )
        assert response.status_code == 200, response.json
    summary = table.summary()
    assert summary["status"] == "over"
    store = apps[0].extensions["cardroom"].store
    report = store.verify_chain(table.id)
    assert report.ok and report.head_hash == summary["head_hash"]
    listed = apps[1].test_client().get("/games?status=over").json["games"]
    assert [g["id"] for g in listed] == [table.id]


def test_an_event_edited_in_redis_is_caught_by_the_chain_check(apps: list[Flask]) -> None:
    table = Table(apps[0].test_client(), game="fake", players=2, seed="tamper")
    store = apps[0].extensions["cardroom"].store
    forged = {"type": "fake.CardsDealt", "schema": 1, "hands": [["AS", "AH"], ["AD", "AC"]]}
    rewrite_redis_entry(store, table.id, 2, {"event": json.dumps(forged)})
    report = store.verify_chain(table.id)
    assert not report.ok and report.broken_at == 2
    fresh = make_app(store)  # a process that has not cached the game reads the forged stream
    response = fresh.test_client().get(f"/games/{table.id}/view")
    assert response.status_code == 500 and response.json["code"] == "integrity_error"


def test_an_event_deleted_with_xdel_is_caught_by_the_chain_check(apps: list[Flask]) -> None:
    table = Table(apps[0].test_client(), game="fake", players=2, seed="xdel")
    store = apps[0].extensions["cardroom"].store
    store.client.xdel(store.key(table.id, "events"), "1-0")
    report = store.verify_chain(table.id)
    assert not report.ok and report.broken_at == 1


def test_a_forged_last_event_re_added_with_xadd_is_caught(apps: list[Flask]) -> None:
    table = Table(apps[0].test_client(), game="fake", players=2, seed="xadd")
    store = apps[0].extensions["cardroom"].store
    key = store.key(table.id, "events")
    head = store.version(table.id)  # the deal, the last event
    ((_, last),) = store.client.xrange(key, f"{head}-0", f"{head}-0")
    store.client.xdel(key, f"{head}-0")
    forged = {"type": "fake.CardsDealt", "schema": 1, "hands": [["AS"], ["AH"]]}
    store.client.xadd(key, {**last, "event": json.dumps(forged)}, id=f"{head + 1}-0")
    report = store.verify_chain(table.id)
    assert not report.ok and report.broken_at == head


def test_concurrent_retries_of_one_creation_create_one_game_and_answer_identically(
    apps: list[Flask],
) -> None:
    clients = [app.test_client() for app in apps]
    body = {"game": "fake", "seats": [{"type": "open"}, {"type": "bot", "bot": "random"}]}

    def post(i: int) -> tuple[int, bytes]:
        response = clients[i % PROCESSES].post(
            "/games", json=body, headers={"Idempotency-Key": "create-once"}
        )
        return response.status_code, response.get_data()

    results = in_parallel(THREADS, post)
    assert {status for status, _ in results} == {201}
    assert len({payload for _, payload in results}) == 1
    listed = clients[0].get("/games").json["games"]
    assert [g["id"] for g in listed] == [json.loads(results[0][1])["id"]]


JOIN_KEY = "j-3f9c1e7a5b2d4c6e8f0a1b2c3d4e5f60"  # a join's key is a secret the client draws


@pytest.mark.parametrize("seats", [1, 2])  # the join that deals, and one that does not
def test_concurrent_retries_of_one_join_key_all_get_the_one_token(
    apps: list[Flask], seats: int
) -> None:
    client = apps[0].test_client()
    clients = [app.test_client() for app in apps]
    for _ in range(3):  # the race is lost now and then only: three games of it
        body = {"game": "sixty_six", "seats": [{"type": "open"}] * 2}
        game_id = client.post("/games", json=body).json["id"]
        if seats == 1:
            assert client.post(f"/games/{game_id}/seats/1", json={"name": "b"}).status_code == 201

        def join(i: int, game_id: str = game_id) -> tuple[int, str]:
            response = clients[i % PROCESSES].post(
                f"/games/{game_id}/seats/0", json={"name": "ann", "entropy": "5a" * 32},
                headers={"Idempotency-Key": JOIN_KEY},
            )  # fmt: skip
            return response.status_code, str(response.json.get("token") or response.json)

        results = in_parallel(20, join)
        assert Counter(status for status, _ in results) == {201: 20}, results
        assert len({token for _, token in results}) == 1
        view = client.get(f"/games/{game_id}/view", headers=bearer(results[0][1]))
        assert view.status_code == 200 and view.json["seat"] == 0
