"""Golden replays: seeded matches whose whole event log is pinned by its hash chain.

A change here is a compatibility break (the deal, an event's shape or a rule moved), not a
test to update.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.chain import chain
from domain.games.sheepshead import GAME
from domain.playout import play_out
from domain.protocol import Setup, fold
from domain.shuffle import SeededStream

GOLDEN = [
    (5, {}, "6fe22b67e2f84b87cd5343b15a15ef4f815b3d8b85dbc5d62c8a12f4f06ebe58"),
    (
        6,
        {
            "six_hand_mode": "all_play",
            "partner_rule": "called_ace",
            "cracking": True,
            "blitzing": True,
        },
        "e9451fdb3adb120672972c1d8ada2fcaa413a85d37a7ea02f36f65469167a7f1",
    ),
]


@pytest.mark.parametrize(("players", "options", "pinned"), GOLDEN)
def test_a_seeded_match_replays_to_the_pinned_hash(
    players: int, options: dict[str, Any], pinned: str
) -> None:
    stream = SeededStream("golden", "choices")
    run = play_out(
        GAME,
        Setup(players=players, seed="golden", options=options),
        lambda state, choices: choices[stream.below(len(choices))],
    )
    encoded = [GAME.codec.encode(e) for e in run.events]
    assert chain(encoded)[-1] == pinned
    assert fold(GAME, [GAME.codec.decode(e) for e in encoded]) == run.state
    assert GAME.outcome(run.state) is not None
