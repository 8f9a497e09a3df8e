"""``cardroom bot run`` under its account's rate limit (issue 28 §5): a 429 is sent again once
its ``Retry-After`` has passed, so a bot faster than its limit is slowed down, never failed."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from service.store import InMemoryEventStore
from tests.support.api import make_app
from tests.support.live_app import serving, serving_handler
from tests.unit.workers.test_http_bot_sdk import Service, run_until_over
from workers.http_bot import Client


class Refusing(BaseHTTPRequestHandler):
    """Answers its first request 429 with Retry-After: 1, then 200; notes when each came."""

    seen: list[float] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.seen.append(time.monotonic())
        refused = len(self.seen) == 1
        body = json.dumps({"code": "rate_limited"} if refused else {"ok": True}).encode()
        self.send_response(429 if refused else 200)
        if refused:
            self.send_header("Retry-After", "1")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def refusing() -> Iterator[str]:
    Refusing.seen = []
    with serving_handler(Refusing) as base:
        yield base


def test_a_429_is_sent_again_after_its_retry_after(refusing: str) -> None:
    status, body = Client(refusing, "token").request("POST", "/games/g/actions", {"type": "x"})
    assert (status, body) == (200, {"ok": True})
    first, second = Refusing.seen
    assert second - first >= 1.0


def test_a_bot_faster_than_its_limit_plays_its_games_to_the_end_by_itself(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(InMemoryEventStore(), CARDROOM_RATE_LIMITS=1, CARDROOM_SSE_SECONDS=5.0,
                   CARDROOM_LIMIT_BOT_REQUESTS="8 per second",
                   CARDROOM_BOT_REFUSAL_PAUSE=0.1)  # fmt: skip
    client = app.test_client()
    token = client.post("/bots", json={"name": "sdkbot"}).json["token"]
    with serving(app) as base:
        service = Service(client, base, token)
        games = [service.game(f"rate-{i}") for i in range(2)]
        with caplog.at_level(logging.INFO, logger="cardroom.bot"):
            run_until_over(service, First(), games)
    results = [r.getMessage() for r in caplog.records if r.getMessage().startswith("game ")]
    assert not [r for r in results if "not played" in r or "fell back" in r or "failed" in r]
    assert "over the bot's rate limit; again in 1 s" in caplog.text  # it was slowed down
    time.sleep(1.1)  # a new window for the history's reads
    moved = {"lifecycle.BotFellBack", "lifecycle.SeatIdled", "lifecycle.TimedOut"}
    for game in games:  # every move its own: no fallback, no idle rule, no timeout
        assert not [e for e in service.events(game) if e["type"] in moved]
        assert service.over(game)


class First:
    def choose(self, view: dict[str, Any], rng: Any) -> dict[str, Any]:
        return dict(view["legal_actions"][0])
