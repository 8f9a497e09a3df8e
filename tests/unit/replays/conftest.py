"""A finished fake game, two cards a hand, as a replay for the format, audit and show tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.playout import play_out
from domain.protocol import Setup
from replays import Replay
from replays.record import replay_from_playout
from tests.support.fakegame import FAKE

SEATS = [{"type": "bot", "bot": "random"}, {"type": "human", "name": "alice"}]


def fake_replay(seed: str = "s1", deal: dict[str, Any] | None = None) -> Replay:
    setup = Setup(players=2, seed=seed, deal=deal, options={"hand_size": 2})
    rng = random.Random(seed)
    playout = play_out(FAKE, setup, lambda _state, choices: rng.choice(list(choices)))
    return replay_from_playout(FAKE, f"g-{seed}", setup, playout, seats=SEATS)


@pytest.fixture
def replay() -> Replay:
    return fake_replay()
