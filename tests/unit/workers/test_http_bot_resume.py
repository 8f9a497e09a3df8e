"""``cardroom bot run``'s client resumes the bot stream after the last finished game it saw."""

from __future__ import annotations

from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest

from tests.support.live_app import serving_handler
from workers.http_bot import Client

STREAM = (
    "retry: 1000\n\n"
    'event: gameStart\ndata: {"type": "gameStart", "game": "g1", "seats": [0]}\n\n'
    'id: 7-0\nevent: gameFinish\ndata: {"type": "gameFinish", "game": "g1", "outcome": null}\n\n'
)


class _Handler(BaseHTTPRequestHandler):
    seen: list[str | None] = []

    def do_GET(self) -> None:
        _Handler.seen.append(self.headers.get("Last-Event-ID"))
        body = STREAM.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    with serving_handler(_Handler) as base:
        yield base


def test_a_reconnect_sends_the_last_finished_games_cursor(server: str) -> None:
    _Handler.seen = []
    client = Client(server, "token")
    first = list(client.events())
    assert [m["type"] for m in first] == ["gameStart", "gameFinish"]
    list(client.events())
    assert _Handler.seen == [None, "7-0"]
