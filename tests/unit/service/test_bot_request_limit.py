"""One HTTP bot account's requests are limited together (issue 28 §5): its reads and actions in
all its games share ``CARDROOM_LIMIT_BOT_REQUESTS``; past it a 429 problem+json
``rate_limited`` with ``Retry-After``, and nothing is stored; people and other accounts keep
their own budgets."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import EnvironBuilder

from service.api.limits import BOT_LIMIT, BotLimited, BotRequests
from service.api.security import HEADERS
from service.digests import token_hash
from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app, send_entropy
from tests.unit.service.test_api_games import problem_of

ME = {"type": "bot", "bot": "mybot"}


def limited(store: InMemoryEventStore, bot_requests: str, **config: Any) -> FlaskClient:
    settings = {"CARDROOM_RATE_LIMITS": 1, "CARDROOM_LIMIT_BOT_REQUESTS": bot_requests,
                "CARDROOM_LIMIT_CREATE": "1000 per minute",
                "CARDROOM_BOT_REFUSAL_PAUSE": 0, **config}  # fmt: skip
    return make_app(store, **settings).test_client()


def account(client: FlaskClient, name: str = "mybot") -> str:
    return str(client.post("/bots", json={"name": name}).json["token"])


def game(client: FlaskClient, seats: list[dict[str, Any]], seed: str, token: str = "") -> str:
    """A game; with the bot's ``token``, dealt: its entropy sent (one request per seat)."""
    created = client.post("/games", json={"game": "sixty_six", "seats": seats, "seed": seed})
    assert created.status_code == 201, created.json
    if token:
        send_entropy(client, token, str(created.json["id"]))
    return str(created.json["id"])


def view(client: FlaskClient, token: str, game_id: str) -> Any:
    return client.get(f"/games/{game_id}/view", headers=bearer(token))


def act(client: FlaskClient, token: str, game_id: str, seen: dict[str, Any]) -> Any:
    """The first legal action of a view the token read (a plain action: the hot path's)."""
    action = {**seen["view"]["legal_actions"][0], "expected_version": seen["version"],
              "seat": seen["seat"]}  # fmt: skip
    return client.post(f"/games/{game_id}/actions", json=action, headers=bearer(token))


def test_a_bot_accounts_reads_and_actions_in_all_its_games_share_one_budget() -> None:
    store = InMemoryEventStore()
    client = limited(store, "8 per minute")
    token = account(client)
    # the bot's entropy for its two seats of each game: requests 1 to 4
    first, second = game(client, [ME, ME], "one", token), game(client, [ME, ME], "two", token)
    seen_first = view(client, token, first).json  # 5
    seen_second = view(client, token, second).json  # 6
    assert act(client, token, first, seen_first).status_code == 200  # 7
    assert client.get(f"/games/{second}/events?after=0", headers=bearer(token)).status_code == 200
    before = store.version(second)
    refused = act(client, token, second, seen_second)  # the ninth, in the other game
    body = problem_of(refused, 429, "rate_limited")
    assert "8 per 1 minute per bot account" in body["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert all(refused.headers[name] == value for name, value in HEADERS)
    assert store.version(second) == before  # the refused action stored nothing
    problem_of(view(client, token, first), 429, "rate_limited")  # reads too
    problem_of(client.get("/bots/stream", headers=bearer(token)), 429, "rate_limited")


def test_people_and_other_accounts_keep_their_own_budgets() -> None:
    client = limited(InMemoryEventStore(), "1 per minute")
    token, other = account(client), account(client, "otherbot")
    game_id = game(client, [{"type": "open"}, ME], "people")
    person = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).json["token"]
    assert view(client, token, game_id).status_code == 200
    problem_of(view(client, token, game_id), 429, "rate_limited")
    for _ in range(5):  # a person's token is not a bot account's (CARDROOM_LIMIT_ACTIONS is)
        assert view(client, person, game_id).status_code == 200
        assert client.get(f"/games/{game_id}").status_code == 200  # a spectator neither
    # another account: its own budget (its token holds no seat of this game: a 401, counted)
    assert view(client, other, game_id).status_code == 401
    problem_of(view(client, other, game_id), 429, "rate_limited")


@pytest.mark.parametrize("off", [{"CARDROOM_RATE_LIMITS": 0}, {"CARDROOM_LIMIT_BOT_REQUESTS": ""}])
def test_no_bot_limit_with_the_rate_limits_off_or_none_set(off: dict[str, Any]) -> None:
    client = limited(InMemoryEventStore(), "1 per minute", **off)
    token = account(client)
    game_id = game(client, [ME, ME], "off")
    assert all(view(client, token, game_id).status_code == 200 for _ in range(5))


def test_a_token_is_looked_up_once_and_a_failing_count_lets_the_request_through() -> None:
    client = limited(InMemoryEventStore(), "2 per minute")
    token = account(client)
    game_id = game(client, [ME, ME], "lookups")
    limit = client.application.extensions[BOT_LIMIT]
    looked_up: list[str] = []
    account_of = limit.account_of
    limit.account_of = lambda digest: looked_up.append(digest) or account_of(digest)
    assert [view(client, token, game_id).status_code for _ in range(3)] == [200, 200, 429]
    assert len(looked_up) == 1

    def broken(*args: Any) -> bool:
        raise ConnectionError("the limits' storage went away")

    limit.limiter.limiter.hit = broken  # type: ignore[method-assign]
    assert view(client, token, game_id).status_code == 200


def test_the_api_documents_the_429_where_a_bot_token_may_be_sent() -> None:
    spec = make_app(InMemoryEventStore()).test_client().get("/openapi.json").json
    for path, method in (("/games/{game_id}/view", "get"), ("/bots/stream", "get"),
                         ("/games/{game_id}/events", "get")):  # fmt: skip
        assert "429" in spec["paths"][path][method]["responses"], path


def test_a_refusal_is_held_for_its_pause_unless_too_many_are_held() -> None:
    client = limited(InMemoryEventStore(), "1 per minute", CARDROOM_BOT_REFUSAL_PAUSE=0.3)
    token = account(client)
    game_id = game(client, [ME, ME], "held")
    began = time.monotonic()
    assert view(client, token, game_id).status_code == 200
    assert time.monotonic() - began < 0.3  # a request within the limit is not held
    began = time.monotonic()
    problem_of(view(client, token, game_id), 429, "rate_limited")
    assert time.monotonic() - began >= 0.3
    front = client.application.wsgi_app
    assert isinstance(front, BotRequests) and front.held == 0
    front.HELD = 0  # as many held as a process holds: answered at once
    began = time.monotonic()
    problem_of(view(client, token, game_id), 429, "rate_limited")
    assert time.monotonic() - began < 0.3


def test_an_account_has_at_most_two_streams_open_in_a_web_process() -> None:
    client = make_app(InMemoryEventStore(), CARDROOM_SSE_SECONDS=30.0).test_client()
    token, other = account(client), account(client, "otherbot")
    opened = [client.get("/bots/stream", headers=bearer(token), buffered=False) for _ in "ab"]
    assert [s.status_code for s in opened] == [200, 200]
    refused = client.get("/bots/stream", headers=bearer(token), buffered=False)
    body = problem_of(refused, 429, "rate_limited")
    assert "2 open streams per bot account" in body["detail"]
    assert refused.headers["Retry-After"] == "1"
    others = client.get("/bots/stream", headers=bearer(other), buffered=False)
    assert others.status_code == 200  # another account's
    opened[0].close()  # however a stream ends, its place is given back
    again = client.get("/bots/stream", headers=bearer(token), buffered=False)
    assert again.status_code == 200
    for stream in (opened[1], again, others):
        stream.close()


@pytest.mark.parametrize(
    ("limit", "later", "retry_after"),
    [("1 per 10 seconds", 4.0, 6), ("1 per 10 seconds", 9.5, 1),
     ("1 per 2 seconds", 0.0, 2), ("1 per second", 0.0, 1)],
)  # fmt: skip
def test_a_refused_bot_is_told_the_whole_seconds_until_its_window_resets(
    monkeypatch: pytest.MonkeyPatch, limit: str, later: float, retry_after: int
) -> None:
    client = limited(InMemoryEventStore(), limit)
    token = account(client)
    bots = client.application.extensions[BOT_LIMIT]
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)  # the limits' storage reads it too
    bots.check(token)  # the window starts
    now += later
    with pytest.raises(BotLimited) as refused:
        bots.check(token)
    assert refused.value.retry_after == retry_after
    said = f"{bots.items[0]} per bot account (its actions and reads in all its games)"
    assert str(refused.value) == said


def test_a_refused_bot_whose_window_cannot_be_read_is_told_the_windows_length() -> None:
    client = limited(InMemoryEventStore(), "1 per 10 seconds")
    token = account(client)
    bots = client.application.extensions[BOT_LIMIT]
    bots.check(token)

    def unreadable(*args: Any) -> Any:
        raise ConnectionError("the limits' storage went away")

    bots.limiter.limiter.get_window_stats = unreadable
    with pytest.raises(BotLimited) as refused:
        bots.check(token)
    assert refused.value.retry_after == 10


def test_refusals_held_at_once_are_counted_and_past_the_most_answered_at_once() -> None:
    client = limited(InMemoryEventStore(), "1 per minute", CARDROOM_BOT_REFUSAL_PAUSE=1.0)
    token = account(client)
    game_id = game(client, [ME, ME], "three")
    assert view(client, token, game_id).status_code == 200
    front = client.application.wsgi_app
    assert isinstance(front, BotRequests)
    front.HELD = 2
    request = EnvironBuilder(f"/games/{game_id}/view", headers=list(bearer(token).items()))
    environ = request.get_environ()
    took: list[float] = []

    def refused() -> None:
        began = time.monotonic()
        front(dict(environ), lambda status, headers: None)
        took.append(time.monotonic() - began)

    threads = [threading.Thread(target=refused) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(seconds >= 1.0 for seconds in took) == 2  # the third was answered at once
    assert front.held == 0


def test_a_bot_token_sent_with_spaces_around_it_is_counted_like_any() -> None:
    client = limited(InMemoryEventStore(), "1 per minute")
    token = account(client)
    game_id = game(client, [ME, ME], "spaces")
    spaced = {"Authorization": f"Bearer  {token} "}  # the app reads it as the same token
    assert client.get(f"/games/{game_id}/view", headers=spaced).status_code == 200
    refused = client.get(f"/games/{game_id}/view", headers=spaced)
    problem_of(refused, 429, "rate_limited")
    assert refused.headers["Content-Length"] == str(len(refused.get_data()))


def test_a_count_or_look_up_that_fails_lets_the_request_through_and_the_log_says_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = limited(InMemoryEventStore(), "1 per minute")
    token = account(client)
    bots = client.application.extensions[BOT_LIMIT]

    def broken(*args: Any) -> Any:
        raise ConnectionError("the limits' storage went away")

    with caplog.at_level(logging.ERROR, logger="service.api.limits"):
        bots.account_of = broken
        bots.check(token)  # not known yet: the registry cannot tell
        bots.account_of = lambda digest: "mybot"
        bots.limiter.limiter.hit = broken
        bots.check(token)
    assert [record.getMessage() for record in caplog.records] == [
        "could not tell whether a token is a bot account's",
        "the bot accounts' limit could not be counted; the request goes through",
    ]


def test_a_process_remembers_the_newest_tokens_it_looked_up() -> None:
    client = limited(InMemoryEventStore(), "100 per minute")
    bots = client.application.extensions[BOT_LIMIT]
    bots.KNOWN = 2
    looked_up: list[str] = []
    bots.account_of = lambda digest: looked_up.append(digest)
    for token in ("one", "two", "three", "three", "two", "one"):
        bots.check(token)
    assert looked_up == [token_hash(t) for t in ("one", "two", "three", "one")]


def test_a_bot_token_sent_under_another_scheme_is_no_bot_request() -> None:
    client = limited(InMemoryEventStore(), "1 per minute")
    token = account(client)
    game_id = game(client, [ME, ME], "scheme")
    other = {"Authorization": f"Token {token}"}  # refused by the app, not counted as the bot's
    for _ in range(3):
        problem_of(client.get(f"/games/{game_id}/view", headers=other), 401, "unauthorized")
