"""A format 2 replay's command the lifecycle refuses, or cannot read, is named at its batch's
first event, saying which kind of command and why (docs/replay-format.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from domain.lifecycle import Keys
from domain.registry import get_game
from replays import check, read
from replays.record import record_fair_game

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


def test_a_replay_not_started_by_one_create_command_is_named_where_it_goes_wrong() -> None:
    create, join = REPLAY.batches[0].command, first_of("join")
    assert refused(0, {**create, "kind": "join"}) == (
        False, 1, "the first batch is not a create command"
    )
    assert refused(join, create) == (
        False, REPLAY.batches[join].events[0].version, "a second create command"
    )


def test_a_create_command_that_names_no_seat_filled_at_creation_needs_no_filled_list() -> None:
    replay, _ = record_fair_game(get_game("sixty_six"), "g-joined", keys=Keys(secret="7a" * 32),
                                 entropy=["01" * 32, "02" * 32], bots=0,
                                 choose=lambda *_: {"type": "resign"})  # fmt: skip
    create = replay.batches[0].command
    assert create["filled"] == []
    unlisted = replace(replay.batches[0], command={k: v for k, v in create.items()
                                                   if k != "filled"})  # fmt: skip
    report = check(replace(replay, batches=(unlisted, *replay.batches[1:])))
    assert report.ok, report.summary()


def test_an_action_whose_seat_is_no_seat_number_is_named_at_its_batch() -> None:
    index = first_of("action")
    for seat in ("0", None, 0.0):
        assert refused(index, {**REPLAY.batches[index].command, "seat": seat}) == (
            False, REPLAY.batches[index].events[0].version,
            f"the command's seat {seat!r} is not a seat number",
        )  # fmt: skip


def test_a_command_of_no_known_kind_is_named_at_its_batch() -> None:
    index = first_of("action")
    assert refused(index, {**REPLAY.batches[index].command, "kind": "fly"}) == (
        False, REPLAY.batches[index].events[0].version, "unknown command kind 'fly'"
    )


def test_a_create_command_whose_fork_is_no_origin_says_what_it_is() -> None:
    create, created = REPLAY.batches[0].command, REPLAY.events[0].event
    assert refused(0, {**create, "fork": created}) == (
        False, 1, "the create command's fork is a 'lifecycle.GameCreated', not an origin"
    )
