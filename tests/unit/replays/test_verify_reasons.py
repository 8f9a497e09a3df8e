"""The audit's reasons, word for word: what a person reads when a replay does not verify (the
first bad event and why) is part of the audit, not a by-product of it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.events import canonical_json
from domain.registry import all_games
from replays import Replay, check
from replays.checks import Discrepancy
from tests.support.fakegame import FAKE
from tests.unit.replays.conftest import events_of, rechained


def reason(replay: Replay) -> tuple[int | None, str]:
    report = check(replay, FAKE)
    assert not report.ok
    return report.bad_version, report.reason


def test_a_forged_head_hash_is_named_at_the_last_event(replay: Replay) -> None:
    forged = replace(replay, header=replace(replay.header, head_hash="f" * 64))
    last = replay.events[-1].version
    assert reason(forged) == (last, "the header's head hash is not the last event's hash")


def test_a_replay_without_events_is_reported_not_raised(replay: Replay) -> None:
    empty = replace(replay, batches=(), header=replace(replay.header, head_version=0))
    assert reason(empty) == (0, "the header's head hash is not the last event's hash")


def test_a_header_naming_another_game_is_named_at_event_one(replay: Replay) -> None:
    forged = replace(replay, header=replace(replay.header, game="othergame"))
    assert reason(forged) == (1, "the header names game 'othergame', the events are fake")


def test_a_false_outcome_says_both_outcomes(replay: Replay) -> None:
    true = replay.outcome
    assert true is not None
    forged = {**true, "winners": true["losers"], "losers": true["winners"]}
    assert reason(replace(replay, outcome=forged)) == (
        replay.header.head_version,
        f"the recorded outcome {canonical_json(forged)} is not the outcome of the events "
        f"{canonical_json(true)}",
    )


def test_an_event_of_another_type_names_both_types(replay: Replay) -> None:
    batches = events_of(replay)
    index = next(i for i, b in enumerate(batches)
                 if i > 0 and len(b) >= 2 and b[0]["type"] != b[1]["type"])  # fmt: skip
    first = replay.batches[index].events[0].version
    wanted, recorded = batches[index][0]["type"], batches[index][1]["type"]
    batches[index].reverse()
    assert reason(rechained(replay, batches)) == (
        first, f"the rules produce a {wanted} here, the replay records a {recorded}"
    )


def test_a_different_field_names_it_with_both_values_shortened(replay: Replay) -> None:
    batches = events_of(replay)
    dealt = batches[0][1]
    assert dealt["type"] == "fake.CardsDealt"
    wanted = canonical_json(dealt["hands"])
    long = [["QC"] * 20, ["KD"] * 20]  # its JSON is past 80 characters: shortened to 80
    batches[0][1] = {**dealt, "hands": long}
    shown = canonical_json(long)[:77] + "..."
    assert len(wanted) <= 80
    assert reason(rechained(replay, batches)) == (
        2, f"the rules produce a different fake.CardsDealt here (hands: rules {wanted}, "
        f"replay {shown})",
    )


def test_a_discrepancy_reads_as_its_reason() -> None:
    found = Discrepancy(3, "why")
    assert (found.version, found.reason, str(found)) == (3, "why", "why")


def test_every_different_field_is_named_and_a_value_of_80_characters_is_shown_whole(
    replay: Replay,
) -> None:
    batches = events_of(replay)
    index = next(i for i, b in enumerate(batches) if b[0]["type"] == "fake.CardPlayed")
    played = batches[index][0]
    card = "X" * 78  # its JSON, quotes included, is exactly 80 characters
    batches[index][0] = {**played, "card": card, "seat": 1 - played["seat"]}
    assert reason(rechained(replay, batches)) == (
        replay.batches[index].events[0].version,
        f'the rules produce a different fake.CardPlayed here (card: rules "{played["card"]}", '
        f'replay "{card}"; seat: rules {played["seat"]}, replay {1 - played["seat"]})',
    )


def with_command(replay: Replay, index: int, command: dict[str, Any]) -> Replay:
    batches = list(replay.batches)
    batches[index] = replace(batches[index], command=command)
    return replace(replay, batches=tuple(batches))


def test_a_first_batch_that_is_no_start_with_a_setup_is_named_at_event_one(
    replay: Replay,
) -> None:
    start = replay.batches[0].command
    why = "the first batch is not a start command with a setup"
    assert reason(with_command(replay, 0, {**start, "kind": "action"})) == (1, why)
    assert reason(with_command(replay, 0, {"kind": "start", "setup": "s1"})) == (1, why)


def test_a_start_command_the_rules_refuse_is_named_at_event_one(replay: Replay) -> None:
    start = replay.batches[0].command
    setup = {k: v for k, v in start["setup"].items() if k != "players"}
    assert reason(with_command(replay, 0, {**start, "setup": setup})) == (
        1, "the rules refuse the start command: 'players'"
    )


def test_a_later_batch_that_is_no_action_is_named_at_its_first_event(replay: Replay) -> None:
    command = replay.batches[1].command
    first = replay.batches[1].events[0].version
    why = "the batch's command is not an action"
    assert reason(with_command(replay, 1, {**command, "kind": "start"})) == (first, why)
    assert reason(with_command(replay, 1, {**command, "action": "play"})) == (first, why)


def test_a_command_whose_seat_is_not_a_number_is_named(replay: Replay) -> None:
    command = replay.batches[1].command
    first = replay.batches[1].events[0].version
    for seat in (True, "0", None):
        assert reason(with_command(replay, 1, {**command, "seat": seat})) == (
            first, f"the command's seat {seat!r} is not a seat number"
        )


def test_a_command_the_rules_refuse_says_whose_and_why(replay: Replay) -> None:
    command = replay.batches[1].command
    first = replay.batches[1].events[0].version
    bad, why = reason(with_command(replay, 1, {**command, "action": {"type": "fly"}}))
    assert bad == first
    assert why.startswith(f"the rules refuse seat {command['seat']}'s command here: ")
    assert len(why) > len(f"the rules refuse seat {command['seat']}'s command here: ")


def test_the_summary_line_says_what_was_proven_or_where_it_failed(replay: Replay) -> None:
    ok = check(replay, FAKE)
    assert ok.summary() == (
        f"OK fake game g-s1: {len(replay.events)} events in {len(replay.batches)} batches; "
        f"hash chain intact (head {replay.header.head_hash[:16]}); deal and deck commitment "
        f"re-derived from the seed; every batch is what the rules produce; outcome "
        f"{canonical_json(replay.outcome)}"
    )
    unknown = check(replace(replay, header=replace(replay.header, game="nosuchgame")))
    assert unknown.bad_version is None
    assert unknown.summary() == f"FAILED nosuchgame game g-s1: the file: {unknown.reason}"
    forged = check(replace(replay, header=replace(replay.header, head_hash="f" * 64)), FAKE)
    assert forged.summary() == (
        f"FAILED fake game g-s1: event {replay.header.head_version}: the header's head "
        "hash is not the last event's hash"
    )


def test_a_replay_of_an_unknown_game_says_which_games_are_known(replay: Replay) -> None:
    report = check(replace(replay, header=replace(replay.header, game="nosuchgame")))
    assert (report.bad_version, report.reason) == (
        None, f"unknown game 'nosuchgame'; known games: {', '.join(sorted(all_games()))}"
    )


def test_an_unexpected_head_is_named_at_the_head_with_both_hashes_shortened(
    replay: Replay,
) -> None:
    expected = "e" * 64
    report = check(replay, FAKE, expect_head=expected)
    head = replay.header.head_hash
    assert (report.bad_version, report.reason) == (
        replay.header.head_version,
        f"the head hash {head[:16]}... is not the expected {'e' * 16}...",
    )
