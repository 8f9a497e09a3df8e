"""R12-R14: jokers, illegal actions and what each seat may see."""

from __future__ import annotations

import json
import random
import re

import pytest

from domain.errors import DomainError, IllegalAction, InvalidAction, InvalidCard, NotYourTurn
from domain.games.shithead.events import (
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    DirectionReversed,
    FaceDownFlipped,
    PilePickedUp,
    TurnPassed,
)
from domain.games.shithead.state import State
from domain.protocol import Setup, fold
from tests.contract.scenario_shithead import scramble_hidden
from tests.unit.shithead.helpers import (
    GAME,
    act,
    creation,
    legal,
    play,
    playing,
    plays,
    preplay,
    turn,
    with_pile,
    with_zones,
)

SIX = (
    "3C 5C 9C | 4C 6C 8C",
    "7D 8D JD | 4D 6D KD",
    "QH KH AH | 4H 6H QD",
    "2C 2D 2H | 5D 5H 5S",
    "RJ 9D TD | 7C 7H 7S",
    "BJ JC QC | KC AC AD",
)


def six() -> State:
    return playing(*SIX, dealer=5)


def test_R12_1_six_players_get_the_whole_54_card_deck() -> None:
    dealt = GAME.start(Setup(players=6, seed="j"))[1]
    assert isinstance(dealt, CardsDealt) and dealt.stock == ()
    assert {"RJ", "BJ"} <= {
        c for hand in dealt.hands + dealt.face_up + dealt.face_down for c in hand
    }


def test_R12_2_jokers_go_on_anything_alone() -> None:
    state = turn(with_pile(six(), "AS"), 4)
    assert "RJ" in plays(state, 4)
    state = with_zones(state, 4, hand="RJ BJ 9D")
    assert plays(state, 4) == ["RJ", "BJ", "RJ BJ"]
    with pytest.raises(IllegalAction, match="a set is one rank"):
        play(state, 4, "RJ 9D")


def test_R12_3_a_joker_reverses_the_direction() -> None:
    state = turn(with_pile(six(), "AS"), 4)
    events, after = play(state, 4, "RJ")
    assert events == [
        CardsPlayed(seat=4, cards=("RJ",), source="hand"),
        DirectionReversed(direction=-1),
        TurnPassed(seat=3, reason="played"),
    ]
    _, back = play(turn(with_pile(after, "AS"), 5), 5, "BJ")
    assert back.direction == 1


def test_R12_4_jokers_are_transparent_and_a_joker_lead_frees_the_next_set() -> None:
    state = turn(with_pile(six(), "9S RJ"), 3)
    assert plays(state, 3) == ["2C", "2D", "2H", "2C 2D", "2C 2H", "2D 2H", "2C 2D 2H"]
    free = turn(with_pile(six(), "RJ"), 0)
    assert plays(free, 0) == ["3C", "5C", "9C"]


def test_R12_5_jokers_never_count_towards_four_and_break_a_run() -> None:
    state = turn(with_pile(six(), "9S RJ 9H 9C"), 4)
    events, _ = play(state, 4, "9D")
    assert events[-1] == TurnPassed(seat=5, reason="played")


def test_R12_6_picked_up_and_flipped_jokers_play_like_any_card() -> None:
    state = turn(with_pile(six(), "9S BJ"), 0)
    _, after = act(state, 0, {"type": "pickup"})
    assert "BJ" in after.hands[0]
    assert "BJ" in plays(turn(with_pile(after, "AS"), 0), 0)
    blind = with_zones(turn(with_pile(six(), "AS"), 4), 4, hand="", up="- - -", down="RJ - -")
    events, _ = act(blind, 4, {"type": "flip", "slot": 0})
    assert events[:2] == [
        FaceDownFlipped(seat=4, slot=0, card="RJ", legal=True),
        DirectionReversed(direction=-1),
    ]


def test_R12_7_with_two_seats_a_reversal_keeps_the_turn_order() -> None:
    state = playing("RJ 3C 9H | 4C 6C 8C", "BJ 8D JD | 4D 6D KD", jokers="always")
    events, _ = play(state, 0, "RJ")
    assert events[-2:] == [DirectionReversed(direction=-1), TurnPassed(seat=1, reason="played")]


def test_R13_1_an_illegal_action_changes_nothing() -> None:
    state = with_pile(playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD"), "KD")
    before = state
    with pytest.raises(IllegalAction):
        play(state, 0, "5C")
    assert state == before and GAME.seats_to_act(state) == (0,)


@pytest.mark.parametrize(
    ("seat", "action", "error", "reason"),
    [
        (1, {"type": "play", "cards": ["7D"]}, NotYourTurn, "not_your_turn"),
        (0, {"type": "play", "cards": ["3C", "5C"]}, IllegalAction, "mixed_ranks"),
        (0, {"type": "play", "cards": ["5S"]}, IllegalAction, "not_in_hand"),
        (0, {"type": "play", "cards": ["4C"]}, IllegalAction, "wrong_tier"),
        (0, {"type": "play", "cards": ["5C"]}, IllegalAction, "too_low"),
        (0, {"type": "play", "cards": ["9C", "9C"]}, InvalidAction, "duplicate_card"),
        (0, {"type": "play", "cards": ["ZZ"]}, InvalidCard, "invalid_card"),
        (0, {"type": "play"}, InvalidCard, "invalid_card"),
        (0, {"type": "flip", "slot": 0}, IllegalAction, "wrong_tier"),
        (0, {"type": "ready"}, IllegalAction, "wrong_phase"),
        (0, {"type": "pickup", "extra": 1}, InvalidAction, "bad_field"),
        (0, {"type": "fold"}, InvalidAction, "invalid_action"),
        (0, {"type": "play_stock"}, IllegalAction, "option_off"),
    ],
)
def test_R13_2_illegal_cases_are_rejected_with_a_precise_reason(
    seat: int, action: dict, error: type[DomainError], reason: str
) -> None:
    state = with_pile(playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD"), "7H")
    with pytest.raises(error) as err:
        act(state, seat, action)
    assert err.value.reason == reason


def test_R13_2_empty_pile_face_down_pickup_bad_face_up_empty_slot_and_out_seat() -> None:
    state = playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD")
    with pytest.raises(IllegalAction, match="pile is empty"):
        act(state, 0, {"type": "pickup"})
    blind = with_pile(with_zones(state, 0, hand="", up="- - -", down="- 2S -"), "5D")
    with pytest.raises(IllegalAction, match="must flip"):
        act(blind, 0, {"type": "pickup"})
    with pytest.raises(IllegalAction, match="slot 0 is empty"):
        act(blind, 0, {"type": "flip", "slot": 0})
    face_up = with_pile(with_zones(state, 0, hand=""), "5D")
    with pytest.raises(IllegalAction, match="7D is not one of your face-up cards"):
        act(face_up, 0, {"type": "pickup", "face_up_card": "7D"})


def test_R13_3_rejections_never_name_a_hidden_card() -> None:
    state = playing(
        "3C 5C 9C | 4C 6C 8C | 2S 3S 4S", "7D 8D JD | 4D 6D KD | 2H 3H 4H", stock="AS KS"
    )
    blind = with_pile(with_zones(state, 0, hand="", up="- - -"), "QD")
    hidden = {"2S", "3S", "4S", "2H", "3H", "4H", "AS", "KS", "7D", "8D", "JD"}
    attempts = [
        (blind, 0, {"type": "flip", "slot": 5}),
        (blind, 0, {"type": "play", "cards": ["3S"]}),
        (blind, 0, {"type": "pickup"}),
        (blind, 1, {"type": "flip", "slot": 0}),
        (state, 0, {"type": "play", "cards": ["3C", "5C"]}),
        (state, 0, {"type": "play_stock"}),
    ]
    for target, seat, action in attempts:
        with pytest.raises(DomainError) as err:
            act(target, seat, action)
        named = set(action.get("cards", []))
        assert not (hidden - named) & set(err.value.message.replace(",", " ").split())


def test_R14_1_public_facts_are_in_every_view() -> None:
    state = with_pile(playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD", stock="AS"), "7H")
    view = GAME.view(state, None)
    assert view["phase"] == "play" and view["dealer"] == 0 and view["direction"] == 1
    assert view["to_act"] == [0] and view["starter"] == {"seat": 0, "rank": "3", "tier": "hand"}
    assert view["seats"][1] == {
        "seat": 1,
        "hand_count": 3,
        "face_up": [["4D"], ["6D"], ["KD"]],
        "face_down_slots": [0, 1, 2],
        "face_down_count": 3,
        "ready": True,
        "out": False,
        "position": None,
    }
    assert (view["stock_count"], view["pile"], view["burned_count"]) == (1, ["7H"], 0)
    assert view["outcome"] is None and view["legal_actions"] == [] and view["hand"] is None


def test_R14_2_only_the_owner_sees_its_hand() -> None:
    state = playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD")
    assert GAME.view(state, 0)["hand"] == ["3C", "5C", "9C"]
    assert "7D" not in json.dumps(GAME.view(state, 0))


def test_R14_3_face_down_cards_and_the_stock_are_hidden_from_everyone() -> None:
    state = playing("3C 5C 9C | 4C 6C 8C | 2S 3S 4S", "7D 8D JD | 4D 6D KD | 2H 3H 4H", stock="AS")
    for seat in (0, 1, None):
        shown = set(re.findall(r"[2-9TJQKA][CDHS]", json.dumps(GAME.view(state, seat))))
        assert not {"2S", "3S", "4S", "2H", "3H", "4H", "AS"} & shown
    rnd = random.Random(3)
    for seat in (0, 1, None):
        assert GAME.view(scramble_hidden(state, seat, rnd), seat) == GAME.view(state, seat)


def test_R14_4_drawn_cards_only_for_the_drawer_played_and_picked_up_cards_for_all() -> None:
    drawn = CardsDrawn(seat=0, cards=("AS", "KS"))
    assert GAME.redact(drawn, 0)["cards"] == ("AS", "KS")
    assert GAME.redact(drawn, 1) == {
        "type": "shithead.CardsDrawn",
        "schema": 1,
        "seat": 0,
        "count": 2,
    }
    picked = PilePickedUp(seat=0, cards=("7H",), face_up_cards=("4C",), cause="pickup")
    assert GAME.redact(picked, 1) == GAME.codec.encode(picked)
    played = CardsPlayed(seat=0, cards=("7H",), source="hand")
    assert GAME.redact(played, None) == GAME.codec.encode(played)


def test_R14_5_the_view_shows_the_burned_count() -> None:
    state = with_zones(
        with_pile(playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD"), "7H 8H"), 0, hand="TC 3C"
    )
    _, after = play(state, 0, "TC")
    assert GAME.view(after, 1)["burned_count"] == 3 and "burned" not in GAME.view(after, 1)


def test_R14_6_a_swap_is_public() -> None:
    state = preplay("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD")
    events, after = act(state, 0, {"type": "swap", "hand_card": "9C", "face_up_card": "4C"})
    assert GAME.redact(events[0], 1) == GAME.codec.encode(events[0])
    assert GAME.view(after, 1)["seats"][0]["face_up"] == [["9C"], ["6C"], ["8C"]]


def test_R14_7_under_deal_6_choose_3_hands_are_private_until_chosen() -> None:
    events = creation("3C 5C 9C 4C 6C 8C", "7D 8D JD 4D 6D KD", deal_6_choose_3=True)
    assert GAME.redact(events[1], 1)["hands"] == [6, ["7D", "8D", "JD", "4D", "6D", "KD"]]
    state = fold(GAME, events)
    chosen, after = act(state, 0, {"type": "choose_face_up", "cards": ["9C", "8C", "6C"]})
    assert GAME.redact(chosen[0], 1)["slots"] == (("9C",), ("8C",), ("6C",))
    assert GAME.view(after, 1)["seats"][0]["face_up"] == [["9C"], ["8C"], ["6C"]]


def test_R14_8_a_view_never_holds_another_seats_moves_or_cards() -> None:
    state = with_pile(playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD"), "7H")
    other = GAME.view(state, 1)
    assert other["legal_actions"] == [] and other["hand"] == ["7D", "8D", "JD"]
    assert "9C" not in json.dumps(other)
    assert legal(state, 0) and GAME.view(state, 0)["legal_actions"] == legal(state, 0)
