"""The heuristic bot: legal, never a false declaration, and the obvious good moves."""

from __future__ import annotations

import random

import pytest

from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import DealScored
from domain.protocol import Setup, action_key, fold
from tests.unit.sixty_six.helpers import (
    HAND0,
    HAND1,
    act,
    moves,
    plain,
    start,
)
from workers.bots.base import get_bot
from workers.bots.sixty_six import WAIT, HeuristicBot, own_points


def test_the_heuristic_bot_is_registered_for_sixty_six() -> None:
    assert isinstance(get_bot("heuristic", "sixty_six"), HeuristicBot)


@pytest.mark.parametrize("options", [{}, {"score_visibility": "none",
                                          "won_tricks_visibility": "all"}])
def test_bot_self_play_is_legal_and_never_declares_falsely(options: dict[str, object]) -> None:
    bot, rnd = HeuristicBot(), random.Random(3)
    for match in range(6):
        state = fold(GAME, GAME.start(Setup(players=2, seed=f"bot-{match}", options=options)))
        while GAME.outcome(state) is None:
            for seat in GAME.seats_to_act(state):
                view = GAME.view(state, seat)
                action = bot.choose(view, rnd)
                if action == WAIT:
                    assert seat != state.deal.turn
                    continue
                assert action_key(action) in {action_key(a) for a in view["legal_actions"]}
                events = GAME.decide(state, seat, action)
                for event in events:
                    if isinstance(event, DealScored) and action["type"] == "declare_out":
                        assert event.winner == seat and event.reason == "declared_out"
                state = fold(GAME, events, state)
                break


def test_bot_exchanges_the_trump_nine_and_announces_the_trump_marriage() -> None:
    state, _ = start(HAND0, HAND1, "TH")
    bot, rnd = HeuristicBot(), random.Random(1)
    assert bot.choose(GAME.view(state, 1), rnd) == {"type": "marriage", "cards": ["QH"]}
    won = moves(state, (1, "play 9S"), (0, "play QS"))
    assert bot.choose(GAME.view(won, 0), rnd) == {"type": "exchange_trump"}


def test_bot_goes_out_as_soon_as_it_knows_it_has_66() -> None:
    state, _ = start(HAND0, HAND1, "TH")
    state = moves(state, (1, "play AC"), (0, "play TC"), (1, "draw"), (1, "play AD"),
                  (0, "play TD"), (1, "draw"), (1, "marriage KH"))
    view = GAME.view(state, 1)
    assert own_points(view) == 82
    assert HeuristicBot().choose(view, random.Random(1)) == {"type": "declare_out"}


def test_bot_waits_off_turn_without_66_and_passes_in_the_window_below_66() -> None:
    state, _ = start(HAND0, HAND1, "TH")
    assert HeuristicBot().choose(GAME.view(state, 0), random.Random(1)) == WAIT
    state, _ = act(state, 1, "close")
    assert HeuristicBot().choose(GAME.view(state, 0), random.Random(1)) == WAIT
    window = plain("a")
    assert HeuristicBot().choose(GAME.view(window, 0), random.Random(1)) == {
        "type": "declare_out"}
    window, _ = act(window, 0, "pass")
    assert HeuristicBot().choose(GAME.view(window, 1), random.Random(1)) == {"type": "pass"}
