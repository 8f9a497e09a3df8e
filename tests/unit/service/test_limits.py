"""Rate limits: 429 problem+json rate_limited with Retry-After; creates per client, actions per
seat; nothing refused is stored."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api.limits import ACTION_LIMIT, ActionLimit, seat_key, token_key
from service.store import InMemoryEventStore, Quota, QuotaExceeded
from service.store.replies import quota_exceeded
from tests.support.api import Table, make_app
from tests.unit.service.test_api_games import create, problem_of

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}


@pytest.fixture
def store() -> InMemoryEventStore:
    return InMemoryEventStore()


def limited(store: InMemoryEventStore, **config: Any) -> FlaskClient:
    settings = {"CARDROOM_RATE_LIMITS": 1, "CARDROOM_LIMIT_CREATE": "3 per minute",
                "CARDROOM_LIMIT_ACTIONS": "2 per minute", **config}  # fmt: skip
    return make_app(store, **settings).test_client()


def test_creates_past_the_limit_are_a_429_with_retry_after(store: InMemoryEventStore) -> None:
    client = limited(store)
    assert [create(client).status_code for _ in range(3)] == [201] * 3
    refused = create(client)
    body = problem_of(refused, 429, "rate_limited")
    assert "3 per 1 minute" in body["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert len(store.list_games()) == 3  # the refused create stored nothing
    assert client.get("/games").status_code == 200  # reading is not limited


def test_forks_are_creations_with_the_same_limit(store: InMemoryEventStore) -> None:
    client = limited(store)
    body = {"at": 5, "as": "open", "seats": [{"type": "open"}] * 2}
    assert [client.post("/games/nosuchgame00/forks", json=body).status_code
            for _ in range(3)] == [404] * 3  # fmt: skip
    problem_of(client.post("/games/nosuchgame00/forks", json=body), 429, "rate_limited")


def test_rematches_are_creations_with_the_same_limit(store: InMemoryEventStore) -> None:
    client = limited(store)
    assert [client.post("/games/nosuchgame00/rematch").status_code
            for _ in range(3)] == [401] * 3  # fmt: skip
    problem_of(client.post("/games/nosuchgame00/rematch"), 429, "rate_limited")


def test_another_client_has_its_own_budget(store: InMemoryEventStore) -> None:
    client = limited(store)
    for _ in range(3):
        create(client)
    problem_of(create(client), 429, "rate_limited")
    other = client.post("/games", json={"game": "fake", "seats": [{"type": "open"}] * 2},
                        environ_base={"REMOTE_ADDR": "10.0.0.7"})  # fmt: skip
    assert other.status_code == 201


def test_actions_are_limited_per_seat(store: InMemoryEventStore) -> None:
    client = limited(store, CARDROOM_LIMIT_ACTIONS="1 per minute")
    table = Table(client, deal=DEAL, dealer=1)
    dealt = store.version(table.id)  # the lifecycle's creation and joins, then the deal
    assert table.act(0, {"type": "play", "card": "AS"}, version=dealt).status_code == 200
    refused = table.act(0, {"type": "play", "card": "9H"}, version=dealt + 2)
    problem_of(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) >= 1
    assert table.act(1, {"type": "play", "card": "KD"}, version=dealt + 1).status_code == 200
    assert store.version(table.id) == dealt + 2  # seat 1 had its own budget


def dealt_table(store: InMemoryEventStore, actions: str) -> tuple[Table, int]:
    """A dealt table of the fake game under an action limit, and its version."""
    table = Table(limited(store, CARDROOM_LIMIT_ACTIONS=actions), deal=DEAL, dealer=1)
    return table, store.version(table.id)


def test_an_action_refused_after_it_was_counted_is_counted_once(
    store: InMemoryEventStore,
) -> None:
    table, dealt = dealt_table(store, "2 per minute")
    assert table.act(0, {"type": "play", "card": "AS"}, version=dealt).status_code == 200
    # counted by the hot path, refused by the rules there, answered there: still one count
    problem_of(table.act(0, {"type": "play", "card": "9H"}, version=dealt), 409,
               "version_conflict")  # fmt: skip
    problem_of(table.act(0, {"type": "play", "card": "9H"}, version=dealt + 2), 429,
               "rate_limited")  # fmt: skip


class CountingStore(InMemoryEventStore):
    """Counts the quota counts that took a call of their own (not an append's)."""

    def __init__(self) -> None:
        super().__init__()
        self.counts = 0

    def count(self, game_id: str, quota: Quota) -> None:
        self.counts += 1
        super().count(game_id, quota)


def test_a_played_action_is_counted_by_its_own_append() -> None:
    store = CountingStore()
    client = limited(store, CARDROOM_LIMIT_ACTIONS="3 per minute")
    table = Table(client, deal=DEAL, dealer=1)
    dealt = store.version(table.id)
    assert table.act(0, {"type": "play", "card": "AS"}, version=dealt).status_code == 200
    assert store.counts == 0  # no step of its own: one round trip on Redis
    problem_of(table.act(0, {"type": "play", "card": "9H"}, version=dealt), 409,
               "version_conflict")  # fmt: skip
    assert store.counts == 1  # refused before any append: counted on its own
    assert table.act(0, {"type": "play", "card": "9H"}, version=dealt,
                     **{"If-Match": f'"{dealt}"'}).status_code == 409  # fmt: skip
    assert store.counts == 2  # Flask's path (If-Match) counts before its view
    assert table.act(1, {"type": "play", "card": "KD"}, version=dealt + 1).status_code == 200
    after = store.version(table.id)
    refused = table.act(0, {"type": "play", "card": "9H"}, version=after)
    problem_of(refused, 429, "rate_limited")  # the fourth: refused by the append's own count
    assert store.counts == 2 and store.version(table.id) == after


def test_limits_can_be_switched_off(store: InMemoryEventStore) -> None:
    client = limited(store, CARDROOM_RATE_LIMITS=0)
    assert all(create(client).status_code == 201 for _ in range(10))


def test_the_limits_are_kept_in_redis_by_default() -> None:
    from flask import Flask

    from service.api import limits

    app = Flask(__name__)
    app.config.update(REDIS_URL="unix:///run/none.sock?db=3", CARDROOM_NAMESPACE="ns",
                      CARDROOM_RATE_LIMITS=1, CARDROOM_LIMIT_CREATE="1 per minute",
                      CARDROOM_LIMIT_ACTIONS="1 per minute")  # fmt: skip
    app.add_url_rule("/games", "games.Games", lambda: "", methods=["POST"])
    app.add_url_rule("/f", "games.Forks", lambda: "", methods=["POST"])
    app.add_url_rule("/r", "games.Rematch", lambda: "", methods=["POST"])
    app.add_url_rule("/a", "actions.Actions", lambda: "", methods=["POST"])
    limiter = limits.install(app, InMemoryEventStore())
    assert type(limiter.storage).__name__ == "RedisStorage"  # a unix socket URL too
    pool = limiter.storage.storage.connection_pool  # type: ignore[union-attr]
    assert pool.connection_kwargs["path"] == "/run/none.sock"
    assert pool.connection_kwargs["db"] == 3


def test_retries_of_one_idempotency_key_are_counted_like_any_request(
    store: InMemoryEventStore,
) -> None:
    table, version = dealt_table(store, "2 per minute")
    play = {"type": "play", "card": "AS"}
    first = table.act(0, play, version=version, key="k1")
    assert first.status_code == 200
    assert table.act(0, play, version=version, key="k1").json == first.json  # a retry, counted
    problem_of(table.act(0, play, version=version, key="k1"), 429, "rate_limited")


def test_a_refused_action_says_to_retry_after_one_second_at_least() -> None:
    limit = make_app(InMemoryEventStore(), CARDROOM_RATE_LIMITS=1).extensions[ACTION_LIMIT]
    for left_ms in (0, 1, 999, 1000):
        assert limit.refusal(QuotaExceeded(0, left_ms)).retry_after == 1
        assert limit.refusal(quota_exceeded(f"0:{left_ms - 1000}")).retry_after == 1


@pytest.mark.parametrize("hops", [1, 2])
def test_behind_trusted_proxies_each_forwarded_client_has_its_own_budget(
    store: InMemoryEventStore, hops: int
) -> None:
    client = limited(store, CARDROOM_TRUSTED_PROXIES=hops, CARDROOM_LIMIT_CREATE="2 per minute")

    def create_as(forwarded: str) -> int:
        return int(client.post("/games", json={"game": "fake", "seats": [{"type": "open"}] * 2},
                               headers={"X-Forwarded-For": forwarded}).status_code)  # fmt: skip

    proxies = ", 10.9.9.9" * (hops - 1)  # the hops in front of the last proxy
    for i in range(1, 5):
        assert [create_as(f"10.0.0.{i}{proxies}") for _ in range(2)] == [201, 201]
    # what a client writes itself stands before what the trusted proxies added: not believed
    assert create_as(f"10.7.7.7, 10.0.0.1{proxies}") == 429


def test_without_trusted_proxies_a_forwarded_address_is_not_believed(
    store: InMemoryEventStore,
) -> None:
    client = limited(store, CARDROOM_LIMIT_CREATE="2 per minute")
    statuses = [client.post("/games", json={"game": "fake", "seats": [{"type": "open"}] * 2},
                            headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
                for i in range(3)]  # fmt: skip
    assert statuses == [201, 201, 429]


def test_a_refusal_rounds_the_wait_up_to_whole_seconds_and_names_its_window(
    store: InMemoryEventStore,
) -> None:
    app = limited(store, CARDROOM_LIMIT_ACTIONS="5 per second;100 per minute").application
    limit = app.extensions[ACTION_LIMIT]
    refused = limit.refusal(QuotaExceeded(1, 1001))
    assert (refused.limit, refused.retry_after) == (str(limit.items[1]), 2)
    assert str(refused) == str(limit.items[1])
    assert limit.refusal(QuotaExceeded(0, 1000)).retry_after == 1


def test_with_limits_off_an_action_carries_no_quota(store: InMemoryEventStore) -> None:
    app = make_app(store, CARDROOM_RATE_LIMITS=0)
    assert app.extensions[ACTION_LIMIT].quota("seat:x") is None


def test_an_action_without_a_token_under_the_limit_is_a_401(store: InMemoryEventStore) -> None:
    table, dealt = dealt_table(store, "5 per minute")
    body = {"type": "play", "card": "AS", "expected_version": dealt}
    problem_of(table.client.post(f"/games/{table.id}/actions", json=body), 401, "unauthorized")


def test_a_seats_actions_are_counted_by_its_bearer_token_else_by_its_address() -> None:
    def key(address: str, authorization: str | None = None) -> str:
        environ = {"REMOTE_ADDR": address}
        if authorization is not None:
            environ["HTTP_AUTHORIZATION"] = authorization
        return seat_key(environ)

    assert key("10.0.0.7", "Bearer abc") == key("10.0.0.8", "bearer abc") == token_key("abc")
    assert key("10.0.0.7", "Bearer xbc") != token_key("abc")  # every character of it counts
    assert key("10.0.0.7", "Bearer a") == token_key("a")  # a token of one character too
    for without_token in (None, "Basic dXNlcjpwYXNz", "Bearer   "):
        assert key("10.0.0.7", without_token) == "ip:10.0.0.7"
    assert key("10.0.0.8") == "ip:10.0.0.8"


class UncountingStore(InMemoryEventStore):
    """A store whose quota counts fail (its Redis went away)."""

    def count(self, game_id: str, quota: Quota) -> None:
        raise ConnectionError("the store went away")


def test_an_action_its_store_cannot_count_goes_through_and_the_log_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(InMemoryEventStore(), CARDROOM_RATE_LIMITS=1)
    limit = ActionLimit(app.extensions[ACTION_LIMIT].limiter, "1 per minute", UncountingStore())
    quota = limit.quota("seat:x")
    assert quota is not None
    with caplog.at_level(logging.ERROR, logger="service.api.limits"):
        limit.settle("game", quota)
    [record] = caplog.records
    assert record.getMessage() == (
        "the action limit could not be checked; the request goes through"
    )


def test_a_seats_quota_counts_the_limits_windows_in_milliseconds() -> None:
    app = make_app(InMemoryEventStore(), CARDROOM_RATE_LIMITS=1,
                   CARDROOM_LIMIT_ACTIONS="5 per second;100 per minute")  # fmt: skip
    quota = app.extensions[ACTION_LIMIT].quota("seat:x")
    assert quota is not None and quota.windows == ((5, 1_000), (100, 60_000))


def test_a_limiter_whose_storage_fails_lets_creates_through(store: InMemoryEventStore) -> None:
    # nothing listens on port 1: counting fails, and the request is served, not a 500
    client = limited(store, RATELIMIT_STORAGE_URI="redis://127.0.0.1:1")
    assert [create(client).status_code for _ in range(4)] == [201] * 4


def test_answers_carry_no_rate_limit_headers(store: InMemoryEventStore) -> None:
    client = limited(store)
    answers = [create(client) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    named = [k.lower() for a in answers for k, _ in a.headers.items()]
    assert [k for k in named if k.startswith("x-ratelimit")] == []


def test_new_bot_accounts_are_limited_by_their_own_setting(store: InMemoryEventStore) -> None:
    client = limited(store, CARDROOM_LIMIT_BOTS="2 per minute")
    made = [client.post("/bots", json={"name": f"lim{i}"}).status_code for i in range(2)]
    assert made == [201, 201]
    body = problem_of(client.post("/bots", json={"name": "lim2"}), 429, "rate_limited")
    assert "2 per 1 minute" in body["detail"]  # CARDROOM_LIMIT_BOTS, not the create limit
