"""An outage is a 503 everywhere: Redis goes away at each call a request makes in turn (the
store's, the rate limiter's, the limiter's refusal's), and stays away for the rest of it. Every
answer is then 503 problem+json ``store_unavailable`` with Retry-After, or what the docs say
for that moment (a refused request's 429 with Retry-After; a request whose Redis calls were all
made already answers as usual) and never a 500."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from redis.connection import Connection

from service.app import create_app
from tests.support.redis_server import redis_url, unique_namespace

pytestmark = pytest.mark.integration

SEATS = [{"type": "open"}, {"type": "open"}]
PASS = {"type": "pass", "expected_version": 0}  # before the deal: 409 not_your_turn


class Outage:
    """Counts the Redis commands sent from this process; from the ``at``-th on, each fails."""

    def __init__(self) -> None:
        self.sent = 0
        self.at: int | None = None

    def send(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def sending(connection: Connection, *args: Any, **kwargs: Any) -> Any:
            if _handshake(args[0]):  # a (re)connection's own setup, not a call of the request
                return original(connection, *args, **kwargs)
            self.sent += 1
            if self.at is not None and self.sent >= self.at:
                raise redis.ConnectionError("Redis went away (test)")
            return original(connection, *args, **kwargs)

        return sending


HANDSHAKE = (b"HELLO", b"CLIENT", b"AUTH", b"SELECT")


def _handshake(packed: Any) -> bool:
    first = packed[0] if isinstance(packed, list) else packed
    lines = bytes(first).split(b"\r\n")
    return len(lines) > 2 and lines[2].upper() in HANDSHAKE


@pytest.fixture
def outage(monkeypatch: pytest.MonkeyPatch) -> Iterator[Outage]:
    found = Outage()
    monkeypatch.setattr(Connection, "send_packed_command",
                        found.send(Connection.send_packed_command))  # fmt: skip
    yield found


def _client(**config: Any) -> FlaskClient:
    settings = {"REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": unique_namespace(),
                "TESTING": True, "CARDROOM_RATE_LIMITS": "1", **config}  # fmt: skip
    return create_app(settings).test_client()


def _each_call(outage: Outage, request: Callable[[], Any], ok: int) -> list[tuple[int, int]]:
    """Run ``request`` with Redis failing from each of its calls on; (call, status) of every
    answer that is neither a 503 with Retry-After nor the request's own ``ok`` status."""
    outage.at, outage.sent = None, 0
    assert request().status_code == ok
    calls, wrong = outage.sent, []
    for at in range(1, calls + 1):
        outage.at, outage.sent = at, 0
        response = request()
        outage.at = None
        unavailable = response.status_code == 503 and int(response.headers["Retry-After"]) > 0
        if not unavailable and response.status_code != ok:
            wrong.append((at, response.status_code))
        if response.status_code >= 400:
            assert response.mimetype == "application/problem+json"
    return wrong


def test_every_call_of_every_request_failing_in_turn_answers_503_never_500(
    outage: Outage,
) -> None:
    client = _client()
    game_id = client.post("/games", json={"game": "sixty_six", "seats": SEATS}).get_json()["id"]
    token = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).get_json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    limited = _client(CARDROOM_LIMIT_CREATE="1 per minute")
    assert limited.post("/games", json={"game": "sixty_six", "seats": SEATS}).status_code == 201
    requests: list[tuple[Callable[[], Any], int]] = [
        (lambda: client.post("/games", json={"game": "sixty_six", "seats": SEATS}), 201),
        (lambda: client.get("/games"), 200),
        (lambda: client.get(f"/games/{game_id}"), 200),
        (lambda: client.get(f"/games/{game_id}/view", headers=auth), 200),
        (lambda: client.get(f"/games/{game_id}/events"), 200),
        (lambda: client.post(f"/games/{game_id}/actions", json=PASS, headers=auth), 409),
        # refused by the limit: the limiter's own count failing lets it through (docs), its
        # create then fails on the store (503); the refusal's rendering reads nothing
        (lambda: limited.post("/games", json={"game": "sixty_six", "seats": SEATS}), 429),
    ]
    for request, ok in requests:
        assert _each_call(outage, request, ok) == []
