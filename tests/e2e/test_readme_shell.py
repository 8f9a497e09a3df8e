"""The README's shell walk-through, run word for word against a real stack."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT, Stack

pytestmark = pytest.mark.e2e

BLOCK = re.compile(r"<!-- walkthrough:start -->\n```sh\n(.*?)```\n<!-- walkthrough:end -->", re.S)


def readme_walkthrough() -> str:
    match = BLOCK.search((ROOT / "README.md").read_text())
    assert match, "README.md has a marked shell walk-through"
    return match.group(1)


def test_the_readme_shell_walkthrough_plays_a_game_and_verifies_its_replay(
    stack: Stack, tmp_path: Path
) -> None:
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parents[1])
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", readme_walkthrough()],
        cwd=tmp_path,
        env={**os.environ, "BASE": stack.base},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "OK shithead game" in done.stdout
    assert "as seat 0 saw it" in done.stdout
    replay = json.loads((tmp_path / "game.replay.json").read_text())
    assert replay["format"] == "cardroom-replay"
    assert replay["outcome"]["reason"] in ("finished", "action_limit")
    events = [e["event"] for b in replay["batches"] for e in b["events"]]
    filled = [e for e in events if e["type"] == "lifecycle.SeatFilled" and e["seat"] == 0]
    assert [e["source"] for e in filled] == ["client"]  # alice sent her own share of the deal
