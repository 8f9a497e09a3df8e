"""Golden replays pin history: every committed golden file verifies, forever.

A golden file that stops verifying is a compatibility break (of the rules, the shuffle, the
deck commitment or an event's shape), not a test to update: fix the code or add an upcaster.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.chain import GENESIS, link_hash
from domain.fairness import chain_salt
from domain.lifecycle import lifecycle
from domain.registry import all_games, get_game
from replays.format import Replay, read
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


@pytest.mark.parametrize("path", FORMAT1, ids=[p.name for p in FORMAT1])
def test_a_format_1_golden_verifies_against_its_game_given_with_its_lifecycle(path: Path) -> None:
    replay = read(path)
    report = check(replay, lifecycle(get_game(replay.header.game)))  # as a service holds it
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


BEFORE_RULE = sorted((GOLDEN_DIR / "timeouts-before-rule").glob("*.replay.json"))


def _kinds(path: Path) -> set[str]:
    replay = read(path)
    return {str(e.event["type"]) for e in replay.events} | {
        f"command:{b.command['kind']}" for b in replay.batches
    }


def test_the_goldens_hold_timeouts_late_moves_leaves_retakes_aborts_and_a_forfeit() -> None:
    seen = set().union(*(_kinds(p) for p in FILES))
    wanted = {f"lifecycle.{name}" for name in ("TimedOut", "SeatLeft", "SeatRetaken",
                                                 "AbortAgreed", "GameAborted", "SeatResigned")}
    assert wanted <= seen
    reasons = {str((read(p).outcome or {}).get("reason")) for p in FILES}
    assert {"timed_out", "aborted", "resigned"} <= reasons


@pytest.mark.parametrize("path", BEFORE_RULE, ids=[p.name for p in BEFORE_RULE])
def test_a_replay_whose_timeouts_the_heuristic_bot_moved_still_verifies(path: Path) -> None:
    replay = read(path)
    report = check(replay)
    assert report.ok, report.summary()
    assert report.legacy_timeouts == sum(b.command["kind"] == "timeout" for b in replay.batches)
    assert report.legacy_timeouts > 0
    assert (f"every batch is what the rules produce ({report.legacy_timeouts} timeout move(s) "
            "recorded before the default-move rule: checked to be legal, not re-derived); "
            "outcome ") in report.summary()  # fmt: skip


@pytest.mark.parametrize("path", BEFORE_RULE, ids=[p.name for p in BEFORE_RULE])
def test_those_timeouts_are_not_the_rules_moves_so_a_command_naming_the_rule_fails(
    path: Path,
) -> None:
    replay = read(path)
    ruled = tuple(
        replace(b, command={**b.command, "rule": 1}) if b.command["kind"] == "timeout" else b
        for b in replay.batches
    )
    assert not check(replace(replay, batches=ruled)).ok


def test_a_timeout_before_the_rule_whose_move_is_no_legal_move_fails() -> None:
    replay = read(BEFORE_RULE[-1])  # sixty_six: a timeout's move is one CardPlayed
    index = next(i for i, b in enumerate(replay.batches) if b.command["kind"] == "timeout")
    played = replay.batches[index].events[1]
    assert played.event["type"] == "sixty_six.CardPlayed"
    forged = _rechained(replay, played.version, {**played.event, "card": "XX"})
    report = check(forged)
    assert not report.ok and report.bad_version == played.version, report.summary()


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_golden_replay_counts_no_timeout_from_before_the_rule(path: Path) -> None:
    report = check(read(path))  # the clocked goldens' timeouts name their rule
    assert report.legacy_timeouts == 0 and "before the default-move rule" not in report.summary()


def test_a_legacy_timeout_whose_move_is_no_legal_move_is_told_the_rules_default_move() -> None:
    replay = read(BEFORE_RULE[-1])
    index = [i for i, b in enumerate(replay.batches) if b.command["kind"] == "timeout"][1]
    played = replay.batches[index].events[1]
    assert played.event["card"] == "TH"  # the rule's default move after the version before it
    report = check(_rechained(replay, played.version, {**played.event, "card": "XX"}))
    assert (report.bad_version, report.reason) == (
        played.version,
        'the rules produce a different sixty_six.CardPlayed here (card: rules "TH", replay "XX")',
    )


def _rechained(replay: Replay, version: int, event: dict[str, Any]) -> Replay:
    """The replay with one event replaced and the salted chain made whole again."""
    salt, prev = chain_salt(str(replay.header.secret)), GENESIS
    batches = []
    for batch in replay.batches:
        events = []
        for recorded in batch.events:
            body = event if recorded.version == version else recorded.event
            digest = link_hash(prev, body, salt)
            events.append(replace(recorded, event=body, prev_hash=prev, hash=digest))
            prev = digest
        batches.append(replace(batch, events=tuple(events)))
    header = replace(replay.header, head_hash=prev)
    return replace(replay, header=header, batches=tuple(batches))
