"""Real processes: a bot written only against docs/bots.md (a class with ``choose(view, rng)``)
plays a whole game against a built-in bot through ``cardroom bot run``, which speaks only HTTP."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from replays.format import read
from replays.verify import verify
from tests.e2e.conftest import ROOT, Stack

pytestmark = pytest.mark.e2e

DOC_BOT = '''
import random


AVOID = ("swap", "stack", "declare_out")


class FirstLegal:
    """The first legal action that moves the game on (docs/bots.md's example)."""

    def choose(self, view: dict, rng: random.Random) -> dict:
        legal = view["legal_actions"]
        moves = [a for a in legal if a["type"] not in AVOID]
        return dict((moves or legal)[0])
'''


def test_an_http_bot_plays_a_whole_game_against_a_built_in_bot(
    stack: Stack, tmp_path: Path
) -> None:
    (tmp_path / "docbot.py").write_text(DOC_BOT)
    name = f"docbot_{uuid.uuid4().hex[:8]}"
    account = stack.http.post(f"{stack.base}/bots", json={"name": name})
    assert account.status_code == 201, account.text
    token = account.json()["token"]
    created = stack.create(
        "sixty_six",
        [{"type": "bot", "bot": name}, {"type": "bot", "bot": "heuristic"}],
        seed="http-bot",
        options={"game_target": 2},
    )
    env = {**stack.env, "PYTHONPATH": str(tmp_path)}
    bot = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "bot", "run", "docbot:FirstLegal",
         "--url", stack.base, "--token", token, "--max-games", "1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        summary = stack.wait_over(created["id"], timeout=50)
        output, _ = bot.communicate(timeout=15)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, output.decode()
    assert summary["outcome"]["reason"] != "action_limit"
    assert b": played" in output  # the HTTP bot made moves itself
    report = verify(read(stack.wait_replay(created["id"])))
    assert report.ok and report.events == summary["version"]
