"""A bot's own entropy in a replay (an ``entropy`` command, ``Lifecycle.contribute``): the audit
re-runs it at the command's time, so on a clocked game the clock the deal starts is the one
recorded then."""

from __future__ import annotations

from domain.fairness import chain_salt
from domain.lifecycle import Keys, create_command, lifecycle
from domain.lifecycle_commands import entropy_command
from domain.protocol import fold
from domain.registry import get_game
from replays import check
from replays.format import build_replay
from replays.record import entries

RULES = lifecycle(get_game("sixty_six"))
KEYS = Keys(secret="5e" * 32)
CLOCKED = {"turn_seconds": 30}


def test_a_bots_entropy_on_a_clocked_game_is_re_run_at_its_commands_time() -> None:
    filled, awaiting = [(0, "01" * 32)], [(1, "0f" * 32)]
    created = RULES.create(players=2, options=CLOCKED, dealer=0, keys=KEYS, filled=filled,
                           bots=(0, 1), awaiting=awaiting, at=0)  # fmt: skip
    create = create_command(players=2, options=CLOCKED, dealer=0, filled=filled, bots=(0, 1),
                            awaiting=awaiting)  # fmt: skip
    state = fold(RULES, created)
    sent = RULES.contribute(state, 1, "02" * 32, KEYS, 4_000)
    clock = RULES.codec.encode(sent[-1])
    assert (clock["type"], clock["at"]) == ("lifecycle.ClockSet", 4_000)
    state = fold(RULES, sent, state)
    stopped = RULES.stop(state, KEYS, "test")
    batches = [({**create, "at": 0}, created),
               ({**entropy_command(1, "02" * 32), "at": 4_000}, sent),
               ({"kind": "stop", "reason": "test"}, stopped)]  # fmt: skip
    stored = entries(RULES, batches, chain_salt(KEYS.secret))
    replay = build_replay("g-entropy", stored, game="sixty_six",
                          outcome=RULES.outcome(fold(RULES, stopped, state)))  # fmt: skip
    report = check(replay)
    assert report.ok, report.summary()
