"""The example user bot plays legal actions, reproducibly, to the end of every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

import workers.examples.lowball  # noqa: F401  (registers the bot)
from domain.playout import play_out
from domain.protocol import Setup
from domain.registry import get_game
from workers.bots.base import get_bot


@pytest.mark.parametrize(("name", "players"), [("shithead", 4), ("sixty_six", 2)])
def test_the_example_bot_finishes_a_game_of_legal_moves(name: str, players: int) -> None:
    game = get_game(name)
    rng = random.Random(1)

    def choose(state: Any, choices: Any) -> tuple[int, dict[str, Any]]:
        seat = choices[0][0]
        bot = get_bot("lowball" if seat == 0 else "random", name)
        action = bot.choose(game.view(state, seat), rng)
        assert (seat, action) in [(s, a) for s, a in choices]
        return seat, action

    playout = play_out(game, Setup(players=players, seed="lowball"), choose)
    assert game.outcome(playout.state) is not None


def test_the_example_bot_prefers_its_lowest_cards() -> None:
    view = {
        "legal_actions": [
            {"type": "play", "cards": ["KH"]},
            {"type": "play", "cards": ["3C"]},
            {"type": "pickup"},
        ]
    }
    assert get_bot("lowball", "shithead").choose(view, random.Random(0)) == {
        "type": "play",
        "cards": ["3C"],
    }
