"""Rate limits kept in the store's Redis: shared by every web process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.support.api import Table, bearer, make_app
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.unit.service.test_api_games import create, problem_of
from tests.unit.service.test_limits import DEAL

pytestmark = pytest.mark.integration


@pytest.fixture
def namespace() -> Iterator[str]:
    name = unique_namespace()
    yield name
    client = redis.Redis.from_url(redis_url())
    delete_namespace(client, name)
    for key in client.scan_iter(match=f"*{name}:limits*", count=1000):
        client.unlink(key)


def test_two_web_processes_share_one_create_budget(namespace: str) -> None:
    config = {"REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": namespace,
              "CARDROOM_RATE_LIMITS": 1, "RATELIMIT_STORAGE_URI": "",
              "CARDROOM_LIMIT_CREATE": "3 per minute"}  # fmt: skip
    first, second = (make_app(redis=True, **config).test_client() for _ in range(2))
    assert [create(c).status_code for c in (first, second, first)] == [201] * 3
    refused = create(second)
    problem_of(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) >= 1


def test_two_web_processes_share_a_seats_action_budget(namespace: str) -> None:
    config = {"REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": namespace,
              "CARDROOM_RATE_LIMITS": 1, "CARDROOM_LIMIT_ACTIONS": "2 per minute"}  # fmt: skip
    first, second = (make_app(redis=True, **config).test_client() for _ in range(2))
    table = Table(first, deal=DEAL, dealer=1)
    dealt = table.summary()["version"]
    assert table.act(0, {"type": "play", "card": "AS"}, version=dealt).status_code == 200
    table.client = second  # the seat's next requests reach the other web process
    problem_of(table.act(0, {"type": "play", "card": "9H"}, version=dealt), 409,
               "version_conflict")  # fmt: skip
    refused = table.act(0, {"type": "play", "card": "9H"}, version=dealt + 2)
    problem_of(refused, 429, "rate_limited")
    assert "2 per 1 minute" in problem_of(refused, 429, "rate_limited")["detail"]
    assert table.act(1, {"type": "play", "card": "KD"}, version=dealt + 1).status_code == 200
    assert table.summary()["version"] == dealt + 2  # the refused action stored nothing


def test_two_web_processes_share_a_bot_accounts_budget(namespace: str) -> None:
    config = {"REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": namespace,
              "CARDROOM_RATE_LIMITS": 1, "RATELIMIT_STORAGE_URI": "",
              "CARDROOM_LIMIT_BOT_REQUESTS": "3 per minute"}  # fmt: skip
    first, second = (make_app(redis=True, **config).test_client() for _ in range(2))
    token = first.post("/bots", json={"name": "sharedbot"}).json["token"]
    me = {"type": "bot", "bot": "sharedbot"}
    game = first.post("/games", json={"game": "sixty_six", "seats": [me, me]}).json["id"]
    views = [c.get(f"/games/{game}/view", headers=bearer(token)) for c in (first, second, first)]
    assert [v.status_code for v in views] == [200] * 3
    refused = second.get(f"/games/{game}/view", headers=bearer(token))
    problem_of(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60  # the window's time left, read
