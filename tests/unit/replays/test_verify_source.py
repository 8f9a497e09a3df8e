"""A fork's source replay (``check(..., source=...)``): it must verify first, and the audit says
so word for word; a source that verifies goes on to the origin's own check, which a fork of it
passes and a fork checked against another game fails."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from domain.fairness import chain_salt
from domain.forks import open_fork
from domain.lifecycle import Keys, create_command, lifecycle
from domain.protocol import fold
from domain.registry import get_game
from replays import Replay, VerificationFailed, check, read
from replays.format import build_replay
from replays.record import entries
from replays.verify import verify

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
REPLAY = read(GOLDEN / "sixty_six-heuristic-vs-random.replay.json")
OTHER = read(GOLDEN / "sixty_six-clock-timeouts-late-moves.replay.json")
RULES = lifecycle(get_game("sixty_six"))
KEYS = Keys(secret="4d" * 32)
BOTS = [(0, "05" * 32), (1, "06" * 32)]


def open_fork_of(source: Replay, version: int) -> Replay:
    """A fork of ``source`` with every card open at ``version``, its bots' seats filled at
    creation, stopped at once by the operator (the service's creation command, in memory)."""
    state = fold(RULES, [RULES.codec.decode(e.event) for e in source.events[:version]])
    origin = open_fork(source.header.game_id, version, state.inner)
    options = source.header.options
    created = RULES.create(players=2, options=options, dealer=None, keys=KEYS, filled=BOTS,
                           bots=(0, 1), fork=origin)  # fmt: skip
    command = create_command(players=2, options=options, dealer=None, filled=BOTS, bots=(0, 1))
    state = fold(RULES, created)
    stopped = RULES.stop(state, KEYS, "test")
    batches = [({**command, "fork": RULES.codec.encode(origin)}, created),
               ({"kind": "stop", "reason": "test"}, stopped)]  # fmt: skip
    stored = entries(RULES, batches, chain_salt(KEYS.secret))
    outcome = RULES.outcome(fold(RULES, stopped, state))
    return build_replay("g-fork", stored, game="sixty_six", outcome=outcome)


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


def test_a_fork_verifies_against_its_source_and_fails_against_another_game() -> None:
    fork = open_fork_of(REPLAY, 20)
    assert verify(fork, source=REPLAY).ok
    with pytest.raises(VerificationFailed) as failed:
        verify(fork, source=OTHER)
    assert (failed.value.report.ok, failed.value.report.bad_version) == (False, 1)
    assert failed.value.report.reason == (
        f"the fork's source is sixty_six game {REPLAY.header.game_id}, not the given sixty_six "
        f"game {OTHER.header.game_id}"
    )
