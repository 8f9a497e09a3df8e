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
FORMAT1 = sorted((GOLDEN_DIR / "format1").glob("*.replay.json"))


@pytest.mark.parametrize("path", FILES + FORMAT1, ids=[p.name for p in FILES] + [
    f"format1/{p.name}" for p in FORMAT1])  # fmt: skip
def test_a_golden_replay_still_verifies(path: Path) -> None:
    report = check(read(path))
    assert report.ok, report.summary()


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_golden_replay_is_in_the_current_format(path: Path) -> None:
    assert read(path).header.version == 2


def test_the_old_format_goldens_are_kept_and_read_as_format_1() -> None:
    assert len(FORMAT1) == 5
    assert {read(p).header.version for p in FORMAT1} == {1}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_golden_is_marked_prearranged_exactly_when_it_chose_its_cards(path: Path) -> None:
    golden = next(g for g in GOLDENS if g.path == path)
    assert read(path).header.prearranged == (golden.seed is not None or golden.deal is not None)


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_game_has_a_golden_replay(game: str) -> None:
    assert any(read(p).header.game == game for p in FILES), f"no golden replay of {game}"


def test_every_golden_game_is_committed() -> None:
    missing = [g.name for g in GOLDENS if g.game in all_games() and not g.path.exists()]
    assert not missing, f"run python -m tests.golden.generate and commit: {missing}"
