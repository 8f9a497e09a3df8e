"""The heuristic bot plays legally and sensibly; the contract scramble really scrambles."""

from __future__ import annotations

import random

from domain.games.sheepshead import GAME
from domain.protocol import Setup, fold
from tests.contract import scenario_sheepshead as scenario
from workers.bots.base import get_bot

from .helpers import STRONG, STRONG_BLIND, act, pick_and_bury, play, start


def test_the_heuristic_bot_finishes_every_contract_setup_legally() -> None:
    for i, (players, options) in enumerate(scenario.SETUPS):
        bot = get_bot("heuristic", "sheepshead")
        rnd = random.Random(i)
        state = fold(GAME, GAME.start(Setup(players=players, seed=f"bot-{i}", options=options)))
        while GAME.outcome(state) is None:
            seat = GAME.seats_to_act(state)[0]
            action = bot.choose(GAME.view(state, seat), rnd)
            state = fold(GAME, GAME.decide(state, seat, action), state)
        assert sum(state.totals) == 0


def test_the_bot_picks_a_strong_hand_and_passes_a_weak_one() -> None:
    bot = get_bot("heuristic", "sheepshead")
    state = start(STRONG, STRONG_BLIND)
    assert bot.choose(GAME.view(state, 0), random.Random(0)) == {"type": "pick"}
    state, _ = act(state, 0, {"type": "pass"})
    state, _ = act(state, 1, {"type": "pass"})
    assert bot.choose(GAME.view(state, 2), random.Random(0)) == {"type": "pass"}


def test_the_bot_buries_fail_points_not_trump() -> None:
    bot = get_bot("heuristic", "sheepshead")
    hands = {0: ["QC", "QS", "QH", "JD", "AH", "7C"]}
    state = start(hands, ["JC", "TS"])
    state, _ = act(state, 0, {"type": "pick"})
    action = bot.choose(GAME.view(state, 0), random.Random(0))
    assert action["type"] == "bury" and sorted(action["cards"]) == ["AH", "TS"]


def test_the_partner_schmears_on_the_pickers_winning_trick() -> None:
    bot = get_bot("heuristic", "sheepshead")
    hands = {0: ["QC", "QS", "QH", "QD", "JC", "JS"], 1: ["JD", "TD", "9D", "AC", "KC", "9C"]}
    state = start(hands, ["AD", "KD"])
    state, _ = pick_and_bury(state, 0, ["AD", "KD"])
    assert bot.choose(GAME.view(state, 0), random.Random(0))["cards"][0] in ("QC", "QS", "QH")
    state, _ = play(state, "QC")
    assert bot.choose(GAME.view(state, 1), random.Random(0)) == {"type": "play", "cards": ["TD"]}


def test_scramble_hidden_moves_hidden_cards_and_keeps_the_view() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    moved = scenario.scramble_hidden(state, 3, random.Random(5))
    assert moved.hand is not None and state.hand is not None
    assert moved.hand.hands != state.hand.hands and moved.hand.hands[3] == state.hand.hands[3]
    assert GAME.view(moved, 3) == GAME.view(state, 3)
    assert sorted(scenario.cards_in_play(moved)) == sorted(scenario.cards_in_play(state))
