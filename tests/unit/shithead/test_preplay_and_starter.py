"""R4-R5: the pre-play swaps, readiness and the deterministic starter."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.games.shithead.events import (
    CardsPlayed,
    FaceUpSwapped,
    PlayerReady,
    PlayStarted,
    TurnPassed,
)
from domain.protocol import Setup, fold
from tests.unit.shithead.helpers import GAME, act, legal, play, playing, preplay

TWO = ("3C 5D 9H | 4C 6C 8C", "7D 8D JD | 4D 6D KD")


def _ready_all(state, seats=None):  # type: ignore[no-untyped-def]
    events = []
    for seat in seats if seats is not None else range(state.players):
        batch, state = act(state, seat, {"type": "ready"})
        events += batch
    return events, state


def test_R4_1_after_the_deal_the_game_is_in_preplay_with_an_empty_pile() -> None:
    state = preplay(*TWO)
    assert state.phase == "preplay" and state.pile == ()
    assert GAME.view(state, 0)["phase"] == "preplay"


def test_R4_2_a_swap_exchanges_one_hand_card_with_one_face_up_card() -> None:
    state = preplay(*TWO)
    events, state = act(state, 0, {"type": "swap", "hand_card": "9H", "face_up_card": "6C"})
    assert events == [FaceUpSwapped(seat=0, slot=1, hand_card="9H", face_up_card="6C")]
    assert state.face_up[0] == (("4C",), ("9H",), ("8C",))
    assert sorted(state.hands[0]) == ["3C", "5D", "6C"]
    events, state = act(state, 0, {"type": "swap", "hand_card": "6C", "face_up_card": "9H"})
    assert events == [FaceUpSwapped(seat=0, slot=1, hand_card="6C", face_up_card="9H")]
    assert len(state.hands[0]) == 3


def test_R4_3_face_down_cards_cannot_be_swapped() -> None:
    state = preplay("3C 5D 9H | 4C 6C 8C | 2H 2S 3S", "7D 8D JD | 4D 6D KD")
    with pytest.raises(IllegalAction, match="2H is not one of your face-up cards") as err:
        act(state, 0, {"type": "swap", "hand_card": "3C", "face_up_card": "2H"})
    assert err.value.reason == "not_face_up"
    with pytest.raises(IllegalAction, match="you do not hold 2S") as err:
        act(state, 0, {"type": "swap", "hand_card": "2S", "face_up_card": "4C"})
    assert err.value.reason == "not_in_hand"
    swaps = [a for a in legal(state, 0) if a["type"] == "swap"]
    assert len(swaps) == 9 and all(a["face_up_card"] in ("4C", "6C", "8C") for a in swaps)


def test_R4_4_ready_ends_the_seats_preplay_and_cannot_be_repeated() -> None:
    state = preplay(*TWO)
    events, state = act(state, 0, {"type": "ready"})
    assert events == [PlayerReady(seat=0)]
    assert legal(state, 0) == []
    for action in ({"type": "ready"}, {"type": "swap", "hand_card": "3C", "face_up_card": "4C"}):
        with pytest.raises(IllegalAction) as err:
            act(state, 0, action)
        assert err.value.reason == "already_ready"


def test_R4_5_seats_act_in_any_order_and_play_actions_wait_for_play() -> None:
    state = preplay(*TWO)
    assert GAME.seats_to_act(state) == (0, 1)
    _, later = act(state, 1, {"type": "swap", "hand_card": "7D", "face_up_card": "KD"})
    assert GAME.seats_to_act(later) == (0, 1)
    for action in (
        {"type": "play", "cards": ["3C"]},
        {"type": "pickup"},
        {"type": "flip", "slot": 0},
    ):
        with pytest.raises(IllegalAction, match="during pre-play") as err:
            act(state, 0, action)
        assert err.value.reason == "wrong_phase"
    started = playing(*TWO)
    with pytest.raises(IllegalAction, match="once play has begun"):
        act(started, 0, {"type": "swap", "hand_card": "3C", "face_up_card": "4C"})


def test_R4_6_the_last_ready_starts_play_with_the_starter() -> None:
    state = preplay(*TWO)
    _, state = act(state, 1, {"type": "ready"})
    events, state = act(state, 0, {"type": "ready"})
    assert events == [PlayerReady(seat=0), PlayStarted(starter=0, rank="3", tier="hand")]
    assert state.phase == "play" and GAME.seats_to_act(state) == (0,)


def test_R4_7_the_domain_never_readies_a_seat_by_itself() -> None:
    state = preplay(*TWO)
    _, state = act(state, 0, {"type": "ready"})
    assert state.phase == "preplay" and GAME.seats_to_act(state) == (1,)
    assert GAME.view(state, None)["to_act"] == [1]


def test_R5_1_the_starter_is_found_after_the_swaps() -> None:
    state = preplay("5C 3D 9H | 4C 6C 8C", "7D 8D JD | 4D 6D KD", dealer=0)
    _, state = act(state, 0, {"type": "swap", "hand_card": "3D", "face_up_card": "8C"})
    events, state = _ready_all(state)
    assert events[-1] == PlayStarted(starter=0, rank="3", tier="face_up")


def test_R5_2_ranks_three_upwards_face_up_before_hand_from_the_dealers_left() -> None:
    state = playing("5C 9D 9H | 4C 6C 8C", "7D 8D JD | 4D 6D KD", "TC JC QC | 4H 7H KH", dealer=0)
    # no 3 anywhere: 4s are face up at seats 0, 1 and 2; seat 1 is the dealer's left
    assert state.starter == (1, "4", "face_up")
    aces_before_twos = playing("2C | 2D AD 2H", "2S | AH AS AC", dealer=0, hand_size=1)
    assert aces_before_twos.starter == (1, "A", "face_up")


def test_R5_3_rank_beats_tier_face_up_beats_hand_and_seat_order_starts_left_of_dealer() -> None:
    rank_beats_tier = playing("3C 9D 9H | 5C 6C 8C", "7D 8D JD | 4D 6D KD", dealer=1)
    assert rank_beats_tier.starter == (0, "3", "hand")
    up_beats_hand = playing("3C 9D 9H | 5C 6C 8C", "7D 8D JD | 3D 6D KD", dealer=0)
    assert up_beats_hand.starter == (1, "3", "face_up")
    nearest_left = playing(
        "3C 9D 9H | 5C 6C 8C", "7D 8D JD | 5D 6D KD", "3H JC QC | 5H 7H KH", dealer=1
    )
    assert nearest_left.starter == (2, "3", "hand")


def test_R5_4_face_down_cards_and_the_stock_are_never_inspected() -> None:
    state = playing("5C 9D 9H | 4C 6C 8C | 3C 3D 3H", "7D 8D JD | 4D 6D KD", stock="3S", dealer=1)
    assert state.starter == (0, "4", "face_up")


def test_R5_5_the_starter_may_lead_any_set_not_only_the_deciding_card() -> None:
    state = playing(*TWO)
    assert state.starter == (0, "3", "hand")
    events, _ = play(state, 0, "9H")
    assert events[0] == CardsPlayed(seat=0, cards=("9H",), source="hand")


def test_R5_6_play_starts_clockwise() -> None:
    state = playing("3C 9D 9H | 4C 6C 8C", "7D 8D JD | 4D 6D KD", "5H JC QC | 5C 7H KH")
    assert state.starter == (0, "3", "hand")
    events, _ = play(state, 0, "3C")
    assert events[-1] == TurnPassed(seat=1, reason="played")


def test_R5_7_the_search_always_finds_a_starter() -> None:
    for players in range(2, 7):
        for seed in range(15):
            state = fold(GAME, GAME.start(Setup(players=players, seed=f"st{seed}")))
            for seat in range(players):
                state = act(state, seat, {"type": "ready"})[1]
            assert state.starter is not None and state.starter[1] in "3456789TJQKA2"
