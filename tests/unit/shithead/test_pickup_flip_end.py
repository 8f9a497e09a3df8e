"""R9-R11: picking up, blind flips, going out and the end of the deal."""

from __future__ import annotations

import pytest

from domain.errors import GameOver, IllegalAction, NotYourTurn
from domain.frozen import copy_with
from domain.games.shithead.events import (
    CardsPlayed,
    DirectionReversed,
    FaceDownFlipped,
    GameAborted,
    GameEnded,
    PileBurned,
    PilePickedUp,
    PlayerOut,
    TurnPassed,
)
from domain.games.shithead.state import State
from tests.unit.shithead.helpers import (
    GAME,
    act,
    legal,
    play,
    playing,
    plays,
    turn,
    with_pile,
    with_zones,
)

SEATS = ("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD", "QH KH AH | 4H 6H QD")


def table(**options: object) -> State:
    """Three seats, seat 0 to act, dealer 2, no stock."""
    return playing(*SEATS, dealer=2, **options)


def face_down_only(state: State, seat: int, down: str) -> State:
    return with_zones(state, seat, hand="", up="- - -", down=down)


def test_R9_1_pickup_only_by_the_seat_to_act_with_a_pile_outside_the_face_down_tier() -> None:
    state = with_pile(table(), "5D")
    with pytest.raises(NotYourTurn):
        act(state, 1, {"type": "pickup"})
    with pytest.raises(IllegalAction, match="must flip, not pick up"):
        act(face_down_only(state, 0, "2S 3S 4S"), 0, {"type": "pickup"})
    assert {"type": "pickup"} in legal(state, 0)


def test_R9_2_a_hand_tier_pickup_takes_the_pile_and_names_no_face_up_card() -> None:
    state = with_pile(table(), "5D 6S")
    events, after = act(state, 0, {"type": "pickup"})
    assert events[0] == PilePickedUp(seat=0, cards=("5D", "6S"), face_up_cards=(), cause="pickup")
    assert after.hands[0] == ("3C", "5C", "9C", "5D", "6S")
    with pytest.raises(IllegalAction) as err:
        act(state, 0, {"type": "pickup", "face_up_card": "4C"})
    assert err.value.reason == "unexpected_face_up_card"


def test_R9_3_a_face_up_tier_pickup_takes_one_named_face_up_card() -> None:
    state = with_zones(with_pile(table(), "AS"), 0, hand="")
    events, after = act(state, 0, {"type": "pickup", "face_up_card": "6C"})
    assert events[0] == PilePickedUp(seat=0, cards=("AS",), face_up_cards=("6C",), cause="pickup")
    assert after.hands[0] == ("AS", "6C") and after.face_up[0] == (("4C",), (), ("8C",))
    with pytest.raises(IllegalAction, match="name one of your face-up cards") as err:
        act(state, 0, {"type": "pickup"})
    assert err.value.reason == "no_face_up"
    with pytest.raises(IllegalAction, match="4D is not one of your face-up cards"):
        act(state, 0, {"type": "pickup", "face_up_card": "4D"})


def test_R9_4_after_a_pickup_the_pile_is_empty_nothing_burned_direction_kept() -> None:
    state = with_pile(table(), "9D 9H 9S")
    _, after = act(state, 0, {"type": "pickup"})
    assert (after.pile, after.burned, after.direction) == ((), (), 1)


def test_R9_5_the_next_active_seat_after_the_picker_leads() -> None:
    state = copy_with(with_pile(table(), "5D"), out=(1,))
    events, after = act(state, 0, {"type": "pickup"})
    assert events[-1] == TurnPassed(seat=2, reason="picked_up")
    assert plays(with_zones(after, 2, hand="3S 4S"), 2) == ["3S", "4S"]


def test_R9_6_after_a_pickup_the_picker_plays_from_its_hand() -> None:
    state = with_zones(with_pile(table(), "AS"), 0, hand="")
    _, after = act(state, 0, {"type": "pickup", "face_up_card": "4C"})
    after = turn(after, 0)
    assert plays(after, 0) == ["4C", "AS"]
    with pytest.raises(IllegalAction, match="cannot play face-up 6C"):
        play(after, 0, "6C")


def test_R10_1_flip_is_the_only_action_of_the_face_down_tier() -> None:
    state = with_pile(face_down_only(table(), 0, "2S 3S 4S"), "5D")
    assert legal(state, 0) == [{"type": "flip", "slot": i} for i in range(3)]
    with pytest.raises(IllegalAction, match="you may flip only when"):
        act(with_pile(table(), "5D"), 0, {"type": "flip", "slot": 0})


def test_R10_2_flip_names_a_remaining_slot() -> None:
    state = face_down_only(table(), 0, "2S - 4S")
    assert legal(state, 0) == [{"type": "flip", "slot": 0}, {"type": "flip", "slot": 2}]
    for slot in (1, 3, -1):
        with pytest.raises(IllegalAction, match=f"slot {slot} is empty or does not exist"):
            act(state, 0, {"type": "flip", "slot": slot})


def test_R10_3_the_flipped_card_is_revealed_to_everyone() -> None:
    state = face_down_only(table(), 0, "2S 7S 4S")
    events, after = act(state, 0, {"type": "flip", "slot": 1})
    assert events[0] == FaceDownFlipped(seat=0, slot=1, card="7S", legal=True)
    for seat in (None, 0, 1, 2):
        assert GAME.view(after, seat)["last_revealed"] == "7S"
        assert GAME.redact(events[0], seat)["card"] == "7S"


def test_R10_4_a_playable_flip_is_played_and_resolved() -> None:
    state = with_pile(face_down_only(table(), 0, "2S TS 4S"), "AD")
    events, after = act(state, 0, {"type": "flip", "slot": 1})
    assert events == [
        FaceDownFlipped(seat=0, slot=1, card="TS", legal=True),
        PileBurned(seat=0, cause="ten", count=2),
        TurnPassed(seat=0, reason="burned"),
    ]
    assert after.face_down[0] == ("2S", None, "4S")


def test_R10_5_an_unplayable_flip_takes_the_pile_and_the_card() -> None:
    state = with_pile(face_down_only(table(), 0, "2S 3S 4S"), "KD AD")
    events, after = act(state, 0, {"type": "flip", "slot": 2})
    assert events == [
        FaceDownFlipped(seat=0, slot=2, card="4S", legal=False),
        PilePickedUp(seat=0, cards=("KD", "AD"), face_up_cards=(), cause="flip"),
        TurnPassed(seat=1, reason="picked_up"),
    ]
    assert after.hands[0] == ("4S", "KD", "AD") and after.pile == ()


def test_R10_6_face_down_cards_cannot_be_named_in_a_play() -> None:
    state = face_down_only(table(), 0, "2S 3S 4S")
    with pytest.raises(IllegalAction, match="flip a face-down card") as err:
        play(state, 0, "3S")
    assert err.value.reason == "wrong_tier"
    face_up = with_zones(table(), 0, hand="", down="2S 3S 4S")
    with pytest.raises(IllegalAction, match="3S is not one of your face-up cards"):
        play(face_up, 0, "3S")


def test_R10_7_one_flip_per_turn_and_a_burning_flip_earns_a_new_flip() -> None:
    state = with_pile(face_down_only(table(), 0, "TS 3S 4S"), "AD")
    events, after = act(state, 0, {"type": "flip", "slot": 0})
    assert sum(isinstance(e, FaceDownFlipped) for e in events) == 1
    assert legal(after, 0) == [{"type": "flip", "slot": 1}, {"type": "flip", "slot": 2}]


def test_R11_1_a_seat_goes_out_after_its_action_and_takes_the_next_position() -> None:
    state = copy_with(face_down_only(table(), 0, "- 7S -"), out=(2,))
    state = with_pile(state, "5D")
    events, after = act(state, 0, {"type": "flip", "slot": 1})
    assert PlayerOut(seat=0, position=2) in events
    assert after.out == (2, 0)


def test_R11_2_an_unplayable_last_face_down_card_keeps_the_seat_in() -> None:
    state = with_pile(face_down_only(table(), 0, "- 3S -"), "AD")
    events, after = act(state, 0, {"type": "flip", "slot": 1})
    assert not any(isinstance(e, PlayerOut) for e in events)
    assert after.hands[0] == ("3S", "AD") and 0 not in after.out


def test_R11_3_an_out_seat_is_skipped_and_may_not_act() -> None:
    state = copy_with(with_pile(table(), "5D"), out=(1,))
    events, _ = play(state, 0, "9C")
    assert events[-1] == TurnPassed(seat=2, reason="played")
    with pytest.raises(IllegalAction, match="seat 1 is out") as err:
        play(state, 1, "7D")
    assert err.value.reason == "seat_out"
    assert legal(state, 1) == []


def test_R11_4_the_out_seats_last_play_stays_to_be_beaten() -> None:
    state = with_pile(face_down_only(table(), 0, "- KS -"), "5D")
    _, after = act(state, 0, {"type": "flip", "slot": 1})
    assert after.pile == ("5D", "KS") and after.to_act == 1
    assert plays(with_zones(after, 1, hand="QD AD"), 1) == ["AD"]


def test_R11_5_going_out_with_a_burn_passes_the_lead_on() -> None:
    state = with_pile(face_down_only(table(), 0, "- TS -"), "5D")
    events, after = act(state, 0, {"type": "flip", "slot": 1})
    assert events[-3:] == [
        PileBurned(seat=0, cause="ten", count=2),
        PlayerOut(seat=0, position=1),
        TurnPassed(seat=1, reason="burned"),
    ]
    assert after.pile == ()


def test_R11_6_going_out_with_a_joker_still_reverses() -> None:
    state = playing(*SEATS, "2C 2D 2H | 5D 5H 5S", dealer=3, jokers="always")
    state = with_pile(face_down_only(state, 0, "- RJ -"), "9S")
    events, after = act(state, 0, {"type": "flip", "slot": 1})
    assert events[1:] == [
        DirectionReversed(direction=-1),
        PlayerOut(seat=0, position=1),
        TurnPassed(seat=3, reason="played"),
    ]
    assert plays(with_zones(after, 3, hand="8C TC JC"), 3) == ["TC", "JC"]


def test_R11_7_the_last_seat_holding_cards_is_the_shithead() -> None:
    state = copy_with(face_down_only(table(), 0, "- 7S -"), out=(2,))
    events, after = act(with_pile(state, "5D"), 0, {"type": "flip", "slot": 1})
    assert events[-2:] == [
        PlayerOut(seat=0, position=2),
        GameEnded(finishing_order=(2, 0, 1), loser=1, winner=None),
    ]
    assert GAME.outcome(after) == {
        "reason": "finished",
        "winners": [2, 0],
        "losers": [1],
        "finishing_order": [2, 0, 1],
        "loser": 1,
        "actions": after.actions,
    }


def test_R11_8_after_the_end_every_action_is_illegal() -> None:
    state = copy_with(face_down_only(table(), 0, "- 7S -"), out=(2,))
    _, over = act(with_pile(state, "5D"), 0, {"type": "flip", "slot": 1})
    for seat in range(3):
        assert legal(over, seat) == []
        with pytest.raises(GameOver):
            act(over, seat, {"type": "pickup"})
    assert GAME.seats_to_act(over) == ()
    assert GAME.outcome(over)["finishing_order"] == [2, 0, 1]  # type: ignore[index]


def test_R11_9_a_two_player_deal_ends_at_the_first_out() -> None:
    state = playing("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD")
    state = with_zones(state, 0, hand="", up="- 6C -", down="- - -")
    events, over = play(state, 0, "6C")
    assert events[-1] == GameEnded(finishing_order=(0, 1), loser=1, winner=None)
    assert over.phase == "over"


def test_R11_10_an_administrative_action_limit_ends_the_game_without_a_loser() -> None:
    state = with_pile(table(action_limit=5), "5D")
    assert state.actions == 3
    events, state = play(state, 0, "9C")
    assert state.phase == "play"
    events, over = act(state, 1, {"type": "pickup"})
    assert events[-1] == GameAborted(reason="action_limit", actions=5)
    assert GAME.outcome(over) == {
        "reason": "action_limit",
        "winners": [],
        "losers": [],
        "finishing_order": [],
        "loser": None,
        "actions": 5,
    }
    assert GAME.seats_to_act(over) == ()
    assert CardsPlayed(seat=0, cards=("9C",), source="hand") not in events
