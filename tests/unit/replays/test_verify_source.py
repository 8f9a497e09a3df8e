"""A fork's source replay (``check(..., source=...)``): it must verify first, and the audit says
so word for word; a source that verifies goes on to the origin's own check."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from replays import check, read

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
REPLAY = read(GOLDEN / "sixty_six-heuristic-vs-random.replay.json")


def test_a_source_that_does_not_verify_fails_the_fork_saying_why() -> None:
    forged = replace(REPLAY, header=replace(REPLAY.header, head_hash="0" * 64))
    said = check(forged)
    assert not said.ok
    report = check(REPLAY, source=forged)
    assert (report.ok, report.bad_version) == (False, None)
    assert report.reason == f"the source replay does not verify: {said.summary()}"


def test_a_source_that_verifies_goes_on_to_the_origins_check() -> None:
    assert check(REPLAY).ok
    report = check(REPLAY, source=REPLAY)  # not a fork: it has no origin to compare
    assert not report.ok
    assert report.reason == "this replay is not a fork's (no lifecycle.GameForked)"
