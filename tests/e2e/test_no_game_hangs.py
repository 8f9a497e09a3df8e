"""Real processes: no game hangs, clock or none (docs/service.md, "Inactivity"). Each way a
game could wait for ever ends or goes on by itself within the game's ``idle_seconds`` plus a
margin: a person who never acts, a user's HTTP bot whose client dies, the only worker serving
a user bot killed. Every game ends and its replay verifies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from replays import loads
from replays.verify import verify
from tests.e2e.conftest import BOT, ROOT, Stack

pytestmark = pytest.mark.e2e

IDLE = 5  # the games' idle_seconds
MARGIN = 3.0  # sweeps every 0.5 s, a bot's heartbeat lapses after 1 s
QUICK = {"CARDROOM_BOT_HEARTBEAT_SECONDS": "0.2", "CARDROOM_BOT_LIVE_SECONDS": "1",
         "CARDROOM_WAITING_TTL": "4"}  # fmt: skip


@pytest.fixture(scope="module")
def idle_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = Stack(Path(tmp_path_factory.mktemp("idle")), bot_workers=1, env=QUICK)
    yield running
    running.stop()


class Watch:
    """Follows a game's version: when it last moved, and when ``moved_on`` first held."""

    def __init__(self, stack: Stack, game_id: str) -> None:
        self.stack, self.game_id = stack, game_id
        self.version, self.since = -1, time.monotonic()

    def until(self, moved_on: Callable[[dict[str, Any]], bool], timeout: float) -> float:
        """Seconds the game stood still before ``moved_on`` held of its summary."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            summary = self.stack.summary(self.game_id)
            if moved_on(summary):
                return time.monotonic() - self.since
            if summary["version"] != self.version:
                self.version, self.since = summary["version"], time.monotonic()
            time.sleep(0.1)
        raise AssertionError(f"game {self.game_id} never moved on: {summary}")


def _events(stack: Stack, game_id: str) -> list[dict[str, Any]]:
    page = stack.http.get(f"{stack.base}/games/{game_id}/events?after=0").json()
    return [e["event"] for e in page["events"]]


def _ends_and_verifies(stack: Stack, game_id: str, timeout: float = 60) -> dict[str, Any]:
    summary = stack.wait_over(game_id, timeout=timeout)
    replay = stack.http.get(f"{stack.base}/games/{game_id}/replay")
    assert replay.status_code == 200 and verify(loads(replay.content)).ok
    return summary


def _seat_is(seat: int, kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda summary: summary["seats"][seat]["type"] == kind


@pytest.mark.parametrize("on_leave", ["bot", "open"])
def test_a_person_who_never_acts_does_not_hang_the_game(idle_stack: Stack, on_leave: str) -> None:
    stack = idle_stack
    game_id = stack.create("sixty_six", [{"type": "open"}, BOT], seed=f"idle-{on_leave}",
                           options={"idle_seconds": IDLE, "on_leave": on_leave})["id"]  # fmt: skip
    stack.http.post(f"{stack.base}/games/{game_id}/seats/0", json={"name": "silent"})
    stood = Watch(stack, game_id).until(_seat_is(0, on_leave), IDLE + 30)
    assert IDLE - 0.5 <= stood <= IDLE + MARGIN
    assert "lifecycle.SeatIdled" in [e["type"] for e in _events(stack, game_id)]
    summary = _ends_and_verifies(stack, game_id)
    if on_leave == "open":  # the seat opened, nobody took it: the game expired
        assert summary["outcome"]["reason"] == "expired"


def test_a_user_http_bot_whose_client_died_is_taken_over(idle_stack: Stack) -> None:
    stack = idle_stack
    name = f"flaky_{uuid.uuid4().hex[:8]}"
    made = stack.http.post(f"{stack.base}/bots", json={"name": name})
    assert made.status_code == 201, made.text
    client = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "bot", "run", "workers.examples.lowball:LowballBot",
         "--url", stack.base, "--token", str(made.json()["token"])],
        cwd=ROOT, env=stack.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _until_live(stack, name)
    client.send_signal(signal.SIGKILL)  # before the game: it would play it out in a blink
    client.wait(10)
    seats = [{"type": "bot", "bot": name}, BOT]
    time.sleep(1.5)  # its last heartbeat lapses (CARDROOM_BOT_LIVE_SECONDS)
    refused = stack.http.post(f"{stack.base}/games", json={"game": "sixty_six", "seats": seats})
    assert refused.status_code == 422 and refused.json()["code"] == "bot_unavailable"
    game_id = stack.create("sixty_six", seats, seed="idle-http", options={"idle_seconds": IDLE},
                           wait_for_bots=True)["id"]  # fmt: skip
    # the deal awaited its own entropy, which never came: the fallback fixed at creation
    stood = Watch(stack, game_id).until(lambda s: not s["awaiting_entropy"], IDLE + 30)
    assert IDLE - 0.5 <= stood <= IDLE + MARGIN
    events = _events(stack, game_id)
    fallback = next(e["fallback"] for e in events if e["type"] == "lifecycle.EntropyAwaited")
    filled = next(e for e in events if e["type"] == "lifecycle.SeatFilled" and e["seat"] == 0)
    assert (filled["entropy"], filled["source"]) == (fallback, "server")
    stood = Watch(stack, game_id).until(_bot_is(0, "heuristic"), IDLE + 30)
    assert IDLE - 0.5 <= stood <= IDLE + MARGIN
    _ends_and_verifies(stack, game_id)


def test_a_user_bot_whose_only_worker_was_killed_is_taken_over(idle_stack: Stack) -> None:
    stack = idle_stack
    worker = stack.start_worker("--bot", "lowball", "--import", "workers.examples.lowball")
    _until_live(stack, "lowball")
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait(10)
    game_id = stack.create("sixty_six", [{"type": "bot", "bot": "lowball"}, BOT],
                           seed="idle-worker", options={"idle_seconds": IDLE},
                           wait_for_bots=True)["id"]  # fmt: skip
    stood = Watch(stack, game_id).until(_bot_is(0, "heuristic"), IDLE + 30)
    assert IDLE - 0.5 <= stood <= IDLE + MARGIN
    _ends_and_verifies(stack, game_id)


def _bot_is(seat: int, bot: str) -> Callable[[dict[str, Any]], bool]:
    return lambda summary: summary["seats"][seat].get("bot") == bot


def _until_live(stack: Stack, bot: str) -> None:
    """Until a game seating ``bot`` reports it served (its worker's or client's heartbeat)."""
    body = {"game": "sixty_six", "seats": [{"type": "bot", "bot": bot}, {"type": "open"}]}
    deadline = time.monotonic() + 20
    while (created := stack.http.post(f"{stack.base}/games", json=body)).status_code != 201:
        assert time.monotonic() < deadline, f"{bot} never registered: {created.text}"
        time.sleep(0.1)
    while stack.summary(created.json()["id"])["bots_missing"]:
        assert time.monotonic() < deadline, f"{bot} never came up"
        time.sleep(0.1)
