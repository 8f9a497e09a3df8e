"""A format 2 replay's header facts are checked: its seed is the revealed seed and
explicit_deal says whether the reveal holds a deal (docs/replay-format.md). Issue 30: verify
printed OK with either edited."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replays import check, loads, read

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
DERIVED = GOLDEN / "shithead-4p-heuristic.replay.json"
CHOSEN = GOLDEN / "shithead-3p-variant-seeded.replay.json"
DEALT = GOLDEN / "shithead-2p-explicit-deal.replay.json"


def _edited(path: Path, **header: Any) -> tuple[int | None, str]:
    data = json.loads(path.read_text())
    assert check(loads(json.dumps(data))).ok
    data.update(header)
    report = check(loads(json.dumps(data)))
    assert not report.ok, f"{path.name} with {header} verified"
    return report.bad_version, report.reason


@pytest.mark.parametrize("path", [DERIVED, CHOSEN, DEALT], ids=lambda p: p.stem)
def test_a_header_seed_other_than_the_revealed_one_fails(path: Path) -> None:
    revealed = [e for e in read(path).events if e.event["type"] == "lifecycle.SecretRevealed"]
    assert _edited(path, seed="4711") == (
        revealed[-1].version, "the header's seed is not the revealed seed"
    )


def test_a_header_with_no_seed_fails() -> None:
    _, reason = _edited(DERIVED, seed=None)
    assert "seed" in reason


@pytest.mark.parametrize(("path", "flag"), [(DERIVED, True), (CHOSEN, True), (DEALT, False)],
                         ids=["derived", "chosen", "dealt"])  # fmt: skip
def test_a_header_explicit_deal_the_reveal_does_not_bear_out_fails(path: Path, flag: bool) -> None:
    revealed = [e for e in read(path).events if e.event["type"] == "lifecycle.SecretRevealed"]
    said = "holds" if flag else "holds no"
    assert _edited(path, explicit_deal=flag) == (
        revealed[-1].version, f"the header's explicit_deal says the reveal {said} deal; it does not"
    )
