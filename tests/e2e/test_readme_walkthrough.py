"""The README walk-through: create a game against three bots, play it to the end over HTTP,
download its replay and audit it with `cardroom replay verify`."""

from __future__ import annotations

import random
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import Stack

pytestmark = pytest.mark.e2e


def _cardroom() -> list[str]:
    script = Path(sys.executable).with_name("cardroom")
    return [str(script)] if script.exists() else [sys.executable, "-m", "service.cli"]


def test_the_readme_walkthrough(stack: Stack, tmp_path: Path) -> None:
    http, base = stack.http, stack.base
    bots = [{"type": "bot", "bot": "heuristic"}] * 3
    # 1. create a game: seat 0 open for you, three bots
    created = http.post(
        f"{base}/games",
        json={"game": "shithead",
              "seats": [{"type": "open"}, *bots]},
    ).json()  # fmt: skip
    game = created["id"]
    # 2. take seat 0 with your own entropy (your share of the deal): the token is shown once
    entropy = secrets.token_hex(32)
    joined = http.post(f"{base}/games/{game}/seats/0", json={"name": "alice", "entropy": entropy})
    token = joined.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    # 3. look at your view and send one of its legal actions, until the game is over
    rng = random.Random(3)
    while True:
        view = http.get(f"{base}/games/{game}/view", headers=auth).json()
        if view["view"]["outcome"] is not None:
            break
        if not view["view"]["legal_actions"]:
            time.sleep(0.01)  # the bots are thinking
            continue
        action = {**rng.choice(view["view"]["legal_actions"]), "expected_version": view["version"]}
        headers = {**auth, "Idempotency-Key": f"alice-{view['version']}"}
        http.post(f"{base}/games/{game}/actions", json=action, headers=headers)
    # 4. the public summary now reveals the seed
    summary = http.get(f"{base}/games/{game}").json()
    assert summary["status"] == "over" and "seed" in summary
    # 5. download the replay and audit it offline
    path = tmp_path / "game.replay.json"
    response = http.get(f"{base}/games/{game}/replay")
    assert response.status_code == 200
    path.write_bytes(response.content)
    verified = subprocess.run(
        [*_cardroom(), "replay", "verify", str(path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith(f"OK shithead game {game}")
    shown = subprocess.run(
        [*_cardroom(), "replay", "show", str(path), "--step", "3", "--as", "0"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert shown.returncode == 0 and "as seat 0 saw it" in shown.stdout
    # 6. any tampering is caught and named
    path.write_text(path.read_text().replace('"version": 5,', '"version": 6,', 1))
    tampered = subprocess.run(
        [*_cardroom(), "replay", "verify", str(path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert tampered.returncode == 1 and "event 5" in tampered.stderr
