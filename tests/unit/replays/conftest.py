"""A finished Highcard game as a replay, for the format, audit and rendering tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.playout import play_out
from domain.protocol import Setup
from replays import Replay
from replays.record import replay_from_playout
from tests.unit.replays.fake_game import HIGHCARD

SEATS = [{"type": "bot", "bot": "random"}, {"type": "human", "name": "alice"}]


def highcard_replay(seed: str = "s1", deal: dict[str, Any] | None = None) -> Replay:
    setup = Setup(players=2, seed=seed, deal=deal)
    rng = random.Random(seed)
    playout = play_out(HIGHCARD, setup, lambda _state, choices: rng.choice(list(choices)))
    return replay_from_playout(HIGHCARD, f"g-{seed}", setup, playout, seats=SEATS)


@pytest.fixture
def replay() -> Replay:
    return highcard_replay()
