"""Bot names are owned (issue 28 §4): the operator's names cannot be taken by an account, an
account name can be revoked for good, accounts are bounded and rate-limited per address, and
``unknown_bot`` names the bad name, not every account."""

from __future__ import annotations

import time
from typing import Any

import fakeredis
import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.deps import EXTENSION
from service.bots import BUILTIN_BOTS, MemoryBotRegistry, RedisBotRegistry
from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app
from workers.runner import claim_names

TOKEN = "operator-secret-bots-31"
ADMIN = bearer(TOKEN)


@pytest.fixture
def app() -> Flask:
    return make_app(InMemoryEventStore(), CARDROOM_ADMIN_TOKEN=TOKEN)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _account(client: FlaskClient, name: str, address: str = "10.0.0.1") -> Any:
    return client.post("/bots", json={"name": name}, environ_base={"REMOTE_ADDR": address})


def _create(client: FlaskClient, bot: str) -> Any:
    seats = [{"type": "open"}, {"type": "bot", "bot": bot}]
    return client.post("/games", json={"game": "sixty_six", "seats": seats, "seed": "own"})


def _registry(app: Flask) -> Any:
    return app.extensions[EXTENSION].bots.registry


def test_a_name_the_operator_holds_cannot_be_taken_by_an_account(client: FlaskClient) -> None:
    added = client.put("/admin/bots/lowball", headers=ADMIN)
    assert added.status_code == 200 and added.json == {"name": "lowball", "kind": "operator"}
    squat = _account(client, "lowball")
    assert squat.status_code == 409 and squat.json["code"] == "bot_exists"
    assert client.put("/admin/bots/lowball", headers=ADMIN).status_code == 200  # idempotent
    assert client.put("/admin/bots/heuristic", headers=ADMIN).status_code == 400
    assert client.put("/admin/bots/lowball", headers=bearer("x")).status_code == 403


def test_a_worker_claims_its_names_and_refuses_a_name_an_account_holds(app: Flask) -> None:
    client = app.test_client()
    assert _account(client, "squatter").status_code == 201
    registry = _registry(app)
    assert claim_names(registry, ["lowball", "squatter"]) == ["squatter"]
    assert _account(client, "lowball").status_code == 409  # the worker's name now
    held = client.put("/admin/bots/squatter", headers=ADMIN)
    assert held.status_code == 409 and held.json["code"] == "bot_exists"
    assert client.delete("/admin/bots/squatter", headers=ADMIN).status_code == 200
    assert claim_names(registry, ["squatter"]) == []  # the operator may take a revoked name


def test_a_revoked_account_s_token_holds_nothing_and_its_name_stays_taken(
    client: FlaskClient,
) -> None:
    token = _account(client, "mybot").json["token"]
    game_id = _create(client, "mybot").json["id"]
    assert client.get(f"/games/{game_id}/view", headers=bearer(token)).status_code == 200
    listed = client.get("/admin/bots", headers=ADMIN).json["bots"]
    assert [(b["name"], b["kind"]) for b in listed] == [("mybot", "account")]
    revoked = client.delete("/admin/bots/mybot", headers=ADMIN)
    assert revoked.status_code == 200
    assert revoked.json == {"name": "mybot", "was": "account", "live_games": [game_id]}
    assert client.get(f"/games/{game_id}/view", headers=bearer(token)).status_code == 401
    assert client.get("/bots/stream", headers=bearer(token)).status_code == 401
    assert _account(client, "mybot").status_code == 409  # nobody else gets its seats
    assert _create(client, "mybot").json["code"] == "unknown_bot"  # no new game seats it
    assert client.get("/admin/bots", headers=ADMIN).json["bots"][0]["kind"] == "revoked"
    assert client.delete("/admin/bots/nobody", headers=ADMIN).status_code == 404


def test_bot_accounts_are_bounded_in_number() -> None:
    client = make_app(InMemoryEventStore(), CARDROOM_BOT_ACCOUNTS_MAX=3).test_client()
    assert [_account(client, f"b{i}").status_code for i in range(3)] == [201] * 3
    full = _account(client, "b3")
    assert full.status_code == 409 and full.json["code"] == "bot_accounts_full"
    assert "(3)" in full.json["detail"]


def test_bot_accounts_are_rate_limited_per_address() -> None:
    client = make_app(InMemoryEventStore(), CARDROOM_RATE_LIMITS=1,
                      CARDROOM_LIMIT_BOTS="2 per hour").test_client()  # fmt: skip
    assert [_account(client, f"a{i}", "10.0.0.7").status_code for i in range(2)] == [201] * 2
    refused = _account(client, "a2", "10.0.0.7")
    assert refused.status_code == 429 and refused.json["code"] == "rate_limited"
    assert "Retry-After" in refused.headers
    assert _account(client, "a3", "10.0.0.8").status_code == 201  # another client


def test_unknown_bot_names_the_bad_name_and_lists_only_the_service_s_own_bots(
    app: Flask,
) -> None:
    client = app.test_client()
    for i in range(50):
        assert _account(client, f"acct{i}").status_code == 201
    _registry(app).claim_operator("lowball")
    _registry(app).heartbeat("lowball", [], 1e12)
    refused = _create(client, "nosuch")
    assert refused.status_code == 422 and refused.json["code"] == "unknown_bot"
    assert refused.json["known"] == sorted([*BUILTIN_BOTS, "lowball"])
    assert "nosuch" in refused.json["detail"] and "acct" not in refused.get_data(as_text=True)
    assert _create(client, "acct7").status_code == 201  # an account is still seatable


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_both_registries_hold_names_the_same_way(kind: str) -> None:
    registry: Any = MemoryBotRegistry()
    if kind == "redis":
        registry = RedisBotRegistry(fakeredis.FakeRedis(), "names")
    assert registry.create_account("acct", "a" * 64)
    assert registry.claim_operator("mine") and registry.claim_operator("mine")
    assert not registry.claim_operator("acct") and not registry.create_account("mine", "b" * 64)
    assert registry.is_account("acct") and not registry.is_account("mine")
    assert registry.operators() == {"mine"} and registry.account_count() == 2
    assert registry.revoke("acct") == "a" * 64 and registry.account_of("a" * 64) is None
    assert registry.is_account("acct")  # revoked: still nobody's queue
    assert registry.held(["acct", "mine", "free"]) == {"acct": "@revoked", "mine": "@operator"}
    assert not registry.create_account("acct", "c" * 64)
    assert registry.revoke("mine") == "@operator" and registry.operators() == set()


def test_an_open_stream_of_a_revoked_account_ends_within_seconds() -> None:
    app = make_app(InMemoryEventStore(), CARDROOM_ADMIN_TOKEN=TOKEN, CARDROOM_SSE_SECONDS=60,
                   CARDROOM_SSE_HEARTBEAT=0.2)  # fmt: skip
    client = app.test_client()
    token = _account(client, "mybot").json["token"]
    response = client.get("/bots/stream", headers=bearer(token), buffered=False)
    chunks = iter(response.response)
    assert b"retry" in next(chunks)
    client.delete("/admin/bots/mybot", headers=ADMIN)
    started = time.monotonic()
    rest = list(chunks)  # the stream ends by itself, long before its 60 s
    assert time.monotonic() - started < 5
    assert all(b"keep-alive" in chunk for chunk in rest)
    assert "mybot" not in _registry(app).registered()  # its heartbeat is gone with it
