"""A clock's timeout in a replay: the audit refuses a timeout command it cannot re-run (a seat
that is no seat number, a time that is no integer, a default-move rule it does not know) at
the batch's first event, saying why word for word."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.default_move import RULE
from replays import check, read

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
CLOCKED = read(GOLDEN / "sixty_six-clock-timeouts-late-moves.replay.json")
INDEX = next(i for i, b in enumerate(CLOCKED.batches) if b.command["kind"] == "timeout")
TIMEOUT = CLOCKED.batches[INDEX].command


def refused(**command: Any) -> tuple[bool, int | None, str]:
    batches = list(CLOCKED.batches)
    batches[INDEX] = replace(batches[INDEX], command={**TIMEOUT, **command})
    report = check(replace(CLOCKED, batches=tuple(batches)))
    return report.ok, report.bad_version, report.reason


AT = TIMEOUT["at"]


@pytest.mark.parametrize(("seat", "at"), [(True, AT), ("0", AT), (None, AT), (0, None),
                                          (0, str(AT)), (0, AT + 0.5)])  # fmt: skip
def test_a_timeout_naming_no_seat_number_or_no_integer_time_is_refused_saying_so(
    seat: Any, at: Any
) -> None:
    assert check(CLOCKED).ok and TIMEOUT["seat"] == 0
    first = CLOCKED.batches[INDEX].events[0].version
    assert refused(seat=seat, at=at) == (
        False, first, f"a timeout command names seat {seat!r} at {at!r}"
    )


def test_a_timeout_naming_a_default_move_rule_not_known_is_refused_saying_which_is() -> None:
    first = CLOCKED.batches[INDEX].events[0].version
    assert refused(rule=RULE + 1) == (
        False, first, f"a timeout command names default-move rule {RULE + 1}; known: {RULE}"
    )
