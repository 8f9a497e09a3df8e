"""Golden replays pin history: every committed golden file verifies, forever.

A golden file that stops verifying is a compatibility break (of the rules, the shuffle, the
deck commitment or an event's shape), not a test to update: fix the code or add an upcaster.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.registry import all_games
from replays.format import read
from replays.verify import check
from tests.golden.generate import GOLDENS

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "golden"
FILES = sorted(GOLDEN_DIR.glob("*.replay.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_golden_replay_still_verifies(path: Path) -> None:
    report = check(read(path))
    assert report.ok, report.summary()


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_game_has_a_golden_replay(game: str) -> None:
    assert any(read(p).header.game == game for p in FILES), f"no golden replay of {game}"


def test_every_golden_game_is_committed() -> None:
    missing = [g.name for g in GOLDENS if g.game in all_games() and not g.path.exists()]
    assert not missing, f"run python -m tests.golden.generate and commit: {missing}"
