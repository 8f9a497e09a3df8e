"""Through real gunicorn and RQ worker processes: bots finish games by themselves, a person
plays against bots over HTTP, and every finished game's exported replay verifies."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from replays.format import read
from replays.verify import verify
from tests.e2e.conftest import BOT, ROOT, SHORT, Stack, play_person

pytestmark = pytest.mark.e2e


def test_a_bots_only_shithead_game_finishes_and_its_replay_verifies(stack: Stack) -> None:
    created = stack.create("shithead", [BOT] * 4, seed="e2e-bots", options=SHORT)
    summary = stack.wait_over(created["id"])
    assert summary["outcome"]["reason"] in ("finished", "action_limit")
    report = verify(read(stack.wait_replay(created["id"])))
    assert report.events == summary["version"]
    assert report.head_hash == summary["head_hash"]


def test_a_person_plays_a_whole_game_against_three_bots_over_http(stack: Stack) -> None:
    created = stack.create(
        "shithead", [{"type": "open"}, BOT, BOT, BOT], seed="e2e-person", options=SHORT
    )
    moves = play_person(stack, created["id"], 0, "alice")
    summary = stack.wait_over(created["id"])
    assert moves > 0 and summary["outcome"] is not None
    replay = stack.http.get(f"{stack.base}/games/{created['id']}/replay")
    assert replay.status_code == 200
    assert replay.json()["seats"][0] == {"seat": 0, "type": "human", "name": "alice"}


def test_the_example_user_bot_plays_when_its_own_rq_worker_runs(stack: Stack) -> None:
    lowball = {"type": "bot", "bot": "lowball"}
    register = subprocess.run(
        [sys.executable, "-m", "service.cli", "worker", "--burst", "--bot", "lowball",
         "--import", "workers.examples.lowball"],
        cwd=ROOT, env=stack.env, capture_output=True, timeout=30,
    )  # fmt: skip  (a burst worker registers the name, finds its queue empty and exits)
    assert register.returncode == 0, register.stderr
    created = stack.create(
        "shithead", [lowball, BOT, lowball, BOT], seed="e2e-lowball", options=SHORT
    )
    time.sleep(0.5)
    assert stack.summary(created["id"])["status"] == "playing", "nobody serves bot:lowball yet"
    worker = subprocess.Popen(
        [sys.executable, "-m", "rq.cli", "worker", "-c", "workers.examples.lowball",
         "-w", "rq.worker.SimpleWorker", "-q"],
        cwd=ROOT, env=stack.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        summary = stack.wait_over(created["id"])
    finally:
        worker.terminate()
        worker.wait(10)
    assert summary["outcome"] is not None
    assert verify(read(stack.wait_replay(created["id"]))).ok
