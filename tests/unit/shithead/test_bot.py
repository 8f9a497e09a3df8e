"""The heuristic bot: legal choices only, and the rules of thumb it promises."""

from __future__ import annotations

import random

from domain.games.shithead.state import State
from domain.protocol import Setup, action_key, fold
from tests.unit.shithead.helpers import GAME, act, playing, preplay, turn, with_pile, with_zones
from workers.bots.base import get_bot

BOT = get_bot("heuristic", "shithead")
SEATS = ("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD")


def choose(state: State, seat: int) -> dict:
    return BOT.choose(GAME.view(state, seat), random.Random(0))


def test_the_bot_only_sends_legal_actions_in_whole_games() -> None:
    for seed, options in enumerate(
        ({}, {"deal_6_choose_3": True, "stack_face_up": True}, {"play_from_stock": True})
    ):
        state = fold(GAME, GAME.start(Setup(players=3, seed=f"bot{seed}", options=options)))
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.seats_to_act(state)[0]
            action = BOT.choose(GAME.view(state, seat), rng)
            assert action_key(action) in {action_key(a) for a in GAME.legal_actions(state, seat)}
            state = act(state, seat, action)[1]


def test_the_bot_puts_its_best_cards_face_up_then_readies() -> None:
    state = preplay("TC 3D AH | 4C 6C 8C", "7D 8D JD | 4H 6D KD")
    assert choose(state, 0) == {"type": "swap", "hand_card": "TC", "face_up_card": "4C"}
    state = preplay("3C 4D 5H | TC AC 2C", "7D 8D JD | 4H 6D KD")
    assert choose(state, 0) == {"type": "ready"}


def test_the_bot_plays_its_lowest_rank_as_a_set_and_keeps_specials() -> None:
    state = with_pile(with_zones(playing(*SEATS), 0, hand="2C TC 6H 6S KD"), "5D")
    assert choose(state, 0) == {"type": "play", "cards": ["6H", "6S"]}


def test_the_bot_completes_four_of_a_kind() -> None:
    state = with_pile(with_zones(playing(*SEATS), 0, hand="6H 9H 9S"), "5D 9D 9C")
    assert choose(state, 0) == {"type": "play", "cards": ["9H", "9S"]}


def test_the_bot_burns_a_big_pile_and_picks_up_a_small_one() -> None:
    big = with_pile(with_zones(playing(*SEATS), 0, hand="3H TS 2S"), "5D 6D 7H 8H 9D JD QH AD")
    assert choose(big, 0) == {"type": "play", "cards": ["TS"]}
    small = with_pile(with_zones(playing(*SEATS), 0, hand="3H TS 2S"), "AD")
    assert choose(small, 0) == {"type": "pickup"}


def test_a_forced_face_up_pickup_takes_the_most_useful_card() -> None:
    state = turn(with_pile(with_zones(playing(*SEATS), 0, hand="", up="3H KS 4S"), "AD"), 0)
    assert choose(state, 0) == {"type": "pickup", "face_up_card": "KS"}
