"""A format 2 replay's command the lifecycle refuses, or cannot read, is named at its batch's
first event, saying which kind of command and why (docs/replay-format.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from replays import check, read

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
REPLAY = read(GOLDEN / "sixty_six-heuristic-vs-random.replay.json")


def first_of(kind: str) -> int:
    return next(i for i, b in enumerate(REPLAY.batches) if b.command["kind"] == kind)


def refused(index: int, command: dict[str, Any]) -> tuple[bool, int | None, str]:
    batches = list(REPLAY.batches)
    batches[index] = replace(batches[index], command=command)
    report = check(replace(REPLAY, batches=tuple(batches)))
    return report.ok, report.bad_version, report.reason


def test_an_action_the_rules_refuse_is_named_at_its_batch_saying_why() -> None:
    index = first_of("action")
    first = REPLAY.batches[index].events[0].version
    ok, bad, reason = refused(index, {**REPLAY.batches[index].command, "action": {"type": "fly"}})
    assert (ok, bad) == (False, first)
    assert reason.startswith("the rules refuse this action command: unknown action type 'fly'")


def test_a_command_missing_what_its_kind_needs_is_malformed_at_its_batch() -> None:
    for kind, missing in (("join", "entropy"), ("action", "action")):
        index = first_of(kind)
        command = {k: v for k, v in REPLAY.batches[index].command.items() if k != missing}
        assert refused(index, command) == (
            False, REPLAY.batches[index].events[0].version,
            f"malformed {kind} command: KeyError('{missing}')",
        )  # fmt: skip
