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


def account(stack: Stack, prefix: str) -> tuple[str, str]:
    """A new bot account: its name and token."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    made = stack.http.post(f"{stack.base}/bots", json={"name": name})
    assert made.status_code == 201, made.text
    return name, str(made.json()["token"])


def bot_run_until_over(
    stack: Stack, spec: str, token: str, game_id: str, env: dict[str, str], timeout: float
) -> tuple[dict[str, object], bytes]:
    """``cardroom bot run SPEC`` until the game is over and it has stopped (one game)."""
    bot = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "bot", "run", spec, "--url", stack.base,
         "--token", token, "--max-games", "1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        summary = stack.wait_over(game_id, timeout=timeout)
        output, _ = bot.communicate(timeout=15)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, output.decode()
    return summary, output


def test_an_http_bot_plays_a_whole_game_against_a_built_in_bot(
    stack: Stack, tmp_path: Path
) -> None:
    (tmp_path / "docbot.py").write_text(DOC_BOT)
    name, token = account(stack, "docbot")
    created = stack.create(
        "sixty_six",
        [{"type": "bot", "bot": name}, {"type": "bot", "bot": "heuristic"}],
        seed="http-bot",
        options={"game_target": 2},
        wait_for_bots=True,  # its client starts below
    )
    env = {**stack.env, "PYTHONPATH": str(tmp_path)}
    summary, output = bot_run_until_over(stack, "docbot:FirstLegal", token, created["id"], env, 50)
    assert summary["outcome"]["reason"] != "action_limit"  # type: ignore[index]
    assert b": played" in output  # the HTTP bot made moves itself
    report = verify(read(stack.wait_replay(created["id"])))
    assert report.ok and report.events == summary["version"]


def test_the_bot_s_own_entropy_goes_into_the_seed_and_the_replay_shows_it(
    stack: Stack, tmp_path: Path
) -> None:
    """``cardroom bot run`` draws its seat's entropy and posts it before anything else: the
    deal waits for it, the replay records it as the client's, and the audit re-derives the
    seed from it (a game dealt from the server's secret and every seat's entropy)."""
    (tmp_path / "docbot.py").write_text(DOC_BOT)
    name, token = account(stack, "entropy")
    created = stack.create(
        "sixty_six",
        [{"type": "bot", "bot": "heuristic"}, {"type": "bot", "bot": name}],
        options={"game_target": 1},
        wait_for_bots=True,  # its client starts below
    )
    game_id = created["id"]
    assert created["to_act"] == [] and not created["prearranged"]  # not dealt without it
    assert stack.summary(game_id)["awaiting_entropy"] == [1]
    env = {**stack.env, "PYTHONPATH": str(tmp_path)}
    summary, output = bot_run_until_over(stack, "docbot:FirstLegal", token, game_id, env, 50)
    assert b"game %s seat 1: entropy sent" % game_id.encode() in output
    assert b"game %s seat 1: its own entropy is the one recorded" % game_id.encode() in output
    replay = read(stack.wait_replay(game_id))
    filled = {e.event["seat"]: e.event for e in replay.events
              if e.event["type"] == "lifecycle.SeatFilled"}  # fmt: skip
    assert filled[1]["source"] == "client" and filled[0]["source"] == "server"
    assert {"kind": "entropy", "seat": 1, "entropy": filled[1]["entropy"]} in [
        b.command for b in replay.batches]  # fmt: skip
    report = verify(replay)
    assert report.ok and report.events == summary["version"]
    assert "seat 1 sent their own" in report.dealing


def test_a_policy_over_the_training_environment_plays_a_whole_game_through_the_service(
    stack: Stack,
) -> None:
    name, token = account(stack, "policy")
    created = stack.create(
        "shithead",
        [{"type": "bot", "bot": name}, {"type": "bot", "bot": "heuristic"},
         {"type": "bot", "bot": name}],
        seed="policy-bot",
        wait_for_bots=True,  # its client starts below
    )  # fmt: skip
    spec = "workers.examples.policy:TinyPolicyBot"
    summary, output = bot_run_until_over(stack, spec, token, created["id"], stack.env, 90)
    assert summary["outcome"]["reason"] == "finished"  # type: ignore[index]
    assert b": played" in output
    assert verify(read(stack.wait_replay(created["id"]))).ok
