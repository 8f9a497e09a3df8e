"""``cardroom bot run`` survives its bot: a bot that raises, runs late or answers illegally
gets the fallback (the service's default move, recorded as such) and the runner carries on to
the end of the game; turns of several games are played at once, never more than asked; the
stream is followed again after a broken connection."""

from __future__ import annotations

import logging
import random
import threading
import time
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app
from tests.support.live_app import serving
from workers import http_bot
from workers.http_bot import Client, Turns, follow


class Service:
    """The app on an in-memory store, over HTTP, with one bot account."""

    def __init__(self, client: FlaskClient, base: str, token: str) -> None:
        self.client, self.base, self.token = client, base, token

    def game(self, seed: str, players_of_bot: int = 2) -> str:
        me = {"type": "bot", "bot": "sdkbot"}
        body = {"game": "sixty_six", "seats": [me] * players_of_bot, "seed": seed,
                "options": {"game_target": 1}}  # fmt: skip
        return str(self.client.post("/games", json=body).json["id"])

    def events(self, game_id: str) -> list[dict[str, Any]]:
        page = self.client.get(f"/games/{game_id}/events?after=0&limit=1000",
                               headers=bearer(self.token)).json  # fmt: skip
        return [item["event"] for item in page["events"]]

    def over(self, game_id: str) -> bool:
        return bool(self.client.get(f"/games/{game_id}").json["status"] == "over")


@pytest.fixture
def service() -> Iterator[Service]:
    app = make_app(InMemoryEventStore())
    client = app.test_client()
    token = client.post("/bots", json={"name": "sdkbot"}).json["token"]
    with serving(app) as base:
        yield Service(client, base, token)


def run_until_over(service: Service, bot: Any, games: list[str], **settings: Any) -> None:
    """The runner's turns for the bot until every game is over (or 60 s)."""
    client = Client(service.base, service.token)
    turns = Turns(bot, client, settings.get("games_at_once", 4), settings.get("move_seconds", 5))
    done = threading.Event()
    runner = threading.Thread(target=lambda: (follow(client, turns, len(games)), done.set()))
    runner.daemon = True
    runner.start()
    deadline = time.monotonic() + 60
    while not all(service.over(g) for g in games):
        assert time.monotonic() < deadline, "the games did not finish"
        time.sleep(0.05)
    done.wait(10)
    turns.close()


class Flaky:
    """Raises on every third decision, answers illegally on every fifth, is late on every
    seventh, plays its first legal action otherwise."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        self.calls += 1
        if self.calls % 3 == 0:
            raise ValueError("a bug in the bot")
        if self.calls % 5 == 0:
            return {"type": "play", "cards": ["XX"]}
        if self.calls % 7 == 0:
            time.sleep(1.0)
        return dict(view["legal_actions"][0])


@pytest.mark.slow  # whole games over HTTP
def test_a_failing_bot_gets_recorded_fallbacks_and_its_game_finishes(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    game = service.game("flaky")
    with caplog.at_level(logging.INFO, logger="cardroom.bot"):
        run_until_over(service, Flaky(), [game], move_seconds=0.3)
    fell = [e for e in service.events(game) if e["type"] == "lifecycle.BotFellBack"]
    assert {e["reason"] for e in fell} == {"raised", "illegal", "timeout"}
    assert "ValueError: a bug in the bot" in caplog.text
    assert "fell back (timeout): the default move was played" in caplog.text


class Counting:
    """Takes a while per decision and counts how many decisions run at once."""

    def __init__(self) -> None:
        self.lock, self.now, self.most = threading.Lock(), 0, 0

    def choose(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.05)
        with self.lock:
            self.now -= 1
        return dict(view["legal_actions"][0])


@pytest.mark.slow  # whole games over HTTP
def test_turns_of_several_games_are_played_at_once_never_more_than_asked(
    service: Service,
) -> None:
    games = [service.game(f"many-{i}") for i in range(5)]
    bot = Counting()
    run_until_over(service, bot, games, games_at_once=3)
    assert bot.most == 3


class Broken(Client):
    """A stream that fails once, then tells one finished game."""

    def __init__(self) -> None:
        super().__init__("http://127.0.0.1:9", "token")
        self.connections = 0

    def events(self) -> Iterator[dict[str, Any]]:
        self.connections += 1
        if self.connections == 1:
            raise urllib.error.URLError("connection refused")
        yield {"type": "gameFinish", "game": "g1", "outcome": None}


def test_the_runner_follows_the_stream_again_after_a_broken_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http_bot.time, "sleep", lambda seconds: None)
    client = Broken()
    assert follow(client, Turns(Flaky(), client, 1, 1), max_games=1) == 0
    assert client.connections == 2


def test_the_runner_sends_each_seat_s_own_entropy_before_anything_else(service: Service) -> None:
    body = {"game": "sixty_six", "seats": [{"type": "bot", "bot": "sdkbot"}] * 2,
            "options": {"game_target": 1}}  # fmt: skip
    game = str(service.client.post("/games", json=body).json["id"])  # no seed: not prearranged
    run_until_over(service, Counting(), [game])
    events = service.events(game)
    filled = [e for e in events if e["type"] == "lifecycle.SeatFilled"]
    assert sorted((e["seat"], e["source"]) for e in filled) == [(0, "client"), (1, "client")]
    assert len({e["entropy"] for e in filled}) == 2  # drawn afresh for each seat
    first_move = next(i for i, e in enumerate(events) if e["type"].startswith("sixty_six."))
    assert all(events.index(e) < first_move for e in filled)


class Asking(Client):
    """A stream that asks twice for the same seat's entropy (a reconnect), then finishes; the
    posts it is sent are kept, answered as the service does; the finished game's history
    records ``recorded`` for the seat (the value posted when None)."""

    def __init__(self, recorded: str | None = None) -> None:
        super().__init__("http://127.0.0.1:9", "token")
        self.posts: list[tuple[str, Any]] = []
        self.recorded = recorded

    def events(self) -> Iterator[dict[str, Any]]:
        yield {"type": "entropyWanted", "game": "g1", "seat": 1}
        yield {"type": "entropyWanted", "game": "g1", "seat": 1}
        yield {"type": "gameFinish", "game": "g1", "outcome": None}

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:  # fmt: skip
        if method == "GET":  # the finished game's history
            value = self.recorded or self.posts[-1][1]["entropy"]
            filled = {"type": "lifecycle.SeatFilled", "seat": 1, "entropy": value,
                      "source": "client"}  # fmt: skip
            return 200, {"events": [{"event": filled}], "next_after": None}
        self.posts.append((path, body))
        return 200, {"entropy": body["entropy"], "source": "client", "dealt": False}


def test_the_runner_sends_the_same_entropy_when_asked_again_and_checks_it_at_the_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = Asking()
    with caplog.at_level(logging.INFO, logger="cardroom.bot"):
        assert follow(client, Turns(Flaky(), client, 1, 1), max_games=1) == 0
    assert [path for path, _ in client.posts] == ["/games/g1/seats/1/entropy"] * 2
    values = [body["entropy"] for _, body in client.posts]
    assert values[0] == values[1] and len(values[0]) == 64 and int(values[0], 16) >= 0
    assert "game g1 seat 1: its own entropy is the one recorded" in caplog.text


def test_the_runner_says_when_the_history_records_another_entropy_than_it_sent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = Asking(recorded="00" * 32)  # a server that put another value in the bot's place
    with caplog.at_level(logging.INFO, logger="cardroom.bot"):
        assert follow(client, Turns(Flaky(), client, 1, 1), max_games=1) == 0
    assert "the recorded entropy is NOT the one it sent" in caplog.text
    assert not [r for r in caplog.records if "is the one recorded" in r.getMessage()]
