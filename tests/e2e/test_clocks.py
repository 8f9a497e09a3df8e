"""Clocks with real processes (`cardroom serve`: gunicorn, RQ workers with RQ's scheduler, the
sweeper): a person who joins and never moves does not hold the table. The clock ends the game
(forfeit) or moves for them (move), by the scheduled job or, with no job at all, by the sweeper.
The slack asserted is generous (the machine is shared): how late clocks fire is measured by
benchmarks/bench_clocks.py."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import BOT, ROOT, Stack

pytestmark = pytest.mark.e2e

SLACK_MS = 10_000  # what the recorded timeout may trail the seat's time by, on a busy machine


def events(stack: Stack, game_id: str) -> list[dict[str, Any]]:
    body = stack.http.get(f"{stack.base}/games/{game_id}/events?after=0").json()
    return [e["event"] for e in body["events"]]


def lateness(history: list[dict[str, Any]]) -> list[int]:
    """For every TimedOut: how long after the seat's time (deadline + bank) it was recorded."""
    out, clock = [], None
    for event in history:
        if event["type"] == "lifecycle.ClockSet":
            clock = event
        elif event["type"] == "lifecycle.TimedOut":
            assert clock is not None
            seat = event["seat"]
            out.append(event["at"] - (clock["deadlines"][seat] + clock["banks"][seat]))
    return out


def person_who_never_moves(stack: Stack, game: str, options: dict[str, Any]) -> tuple[str, str]:
    """The person's seat (0) leads: the clock is on them first, not on the bot, whose turn
    job may take over the 1 s of these clocks on a busy machine (it then times out, as it
    should: a bot is on the clock like a person)."""
    created = stack.create(game, [{"type": "open"}, BOT], options=options, dealer=1)
    joined = stack.http.post(f"{stack.base}/games/{created['id']}/seats/0", json={"name": "gone"})
    assert joined.status_code == 201, joined.text
    return created["id"], joined.json()["token"]


def persons_timeout(event: dict[str, Any]) -> bool:
    return bool(event["type"] == "lifecycle.TimedOut" and event["seat"] == 0)


def resign(stack: Stack, game_id: str, token: str) -> Any:
    """The seat's resignation at the game's version now (the response)."""
    version = stack.summary(game_id)["version"]
    return stack.http.post(
        f"{stack.base}/games/{game_id}/actions",
        json={"type": "resign", "expected_version": version},
        headers={"Authorization": f"Bearer {token}"},
    )


def assert_replay_verifies(stack: Stack, game_id: str) -> None:
    replay = stack.wait_replay(game_id)
    verified = subprocess.run(
        [sys.executable, "-m", "service.cli", "replay", "verify", str(replay)],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_person_who_never_moves_forfeits_on_time(stack: Stack) -> None:
    options = {"turn_seconds": 1, "on_timeout": "forfeit"}
    game_id, _ = person_who_never_moves(stack, "sixty_six", options)
    summary = stack.wait_over(game_id, timeout=30)
    assert summary["outcome"]["reason"] == "timed_out"
    assert summary["outcome"]["losers"] == [0] and summary["outcome"]["winners"] == [1]
    late = lateness(events(stack, game_id))
    assert len(late) == 1 and 0 <= late[0] < SLACK_MS, late
    assert_replay_verifies(stack, game_id)


def test_a_person_who_never_moves_is_moved_for_and_the_replay_verifies(stack: Stack) -> None:
    options = {"turn_seconds": 1, "on_timeout": "move"}
    game_id, token = person_who_never_moves(stack, "sixty_six", options)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        history = events(stack, game_id)
        if sum(map(persons_timeout, history)) >= 3:
            break
        time.sleep(0.2)
    late = lateness(history)
    assert len(late) >= 3 and all(0 <= ms < SLACK_MS for ms in late), late
    after = [history[i + 1] for i, e in enumerate(history[:-1]) if persons_timeout(e)]
    assert len(after) >= 3, history
    assert all(e["type"].startswith("sixty_six.") and e.get("seat") == 0 for e in after), after
    resigned = resign(stack, game_id, token)
    if resigned.status_code == 409:  # the clock moved meanwhile: resign on the new version
        resigned = resign(stack, game_id, token)
    assert resigned.status_code == 200 or stack.summary(game_id)["status"] == "over"
    stack.wait_over(game_id, timeout=30)
    assert_replay_verifies(stack, game_id)


@pytest.fixture
def sweeper_only(tmp_path: Path) -> Iterator[Stack]:
    running = Stack(tmp_path, bot_workers=1, web_workers=1, env={"CARDROOM_CLOCK_JOBS": "0"})
    yield running
    running.stop()


def test_with_no_clock_job_at_all_the_sweeper_still_ends_the_game(sweeper_only: Stack) -> None:
    options = {"turn_seconds": 2, "on_timeout": "forfeit"}
    game_id, _ = person_who_never_moves(sweeper_only, "shithead", options)
    summary = sweeper_only.wait_over(game_id, timeout=30)
    assert summary["outcome"]["reason"] == "timed_out" and summary["outcome"]["losers"] == [0]
    late = lateness(events(sweeper_only, game_id))
    assert len(late) == 1 and 0 <= late[0] < SLACK_MS, late
