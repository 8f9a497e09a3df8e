"""R6-R8: turns, tiers, legal plays and how a play resolves."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction, NotYourTurn
from domain.games.shithead.events import (
    CardsDrawn,
    CardsPlayed,
    DirectionReversed,
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
    with_pile,
    with_zones,
)

SEATS = ("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD", "QH KH AH | 4H 6H QD")


def table(stock: str = "", **options: object) -> State:
    """Three seats, seat 0 starts (3C), dealer 2."""
    return playing(*SEATS, stock=stock, dealer=2, **options)


def test_R6_1_only_the_seat_to_act_may_act() -> None:
    state = table()
    assert GAME.seats_to_act(state) == (0,)
    with pytest.raises(NotYourTurn, match="it is seat 0's turn, not seat 1's"):
        play(state, 1, "7D")
    assert legal(state, 1) == [] and legal(state, 2) == []


def test_R6_2_a_turn_is_one_action_and_drawing_and_passing_follow_automatically() -> None:
    state = table(stock="2S 3S")
    events, state = play(state, 0, "5C")
    assert events == [
        CardsPlayed(seat=0, cards=("5C",), source="hand"),
        CardsDrawn(seat=0, cards=("2S",)),
        TurnPassed(seat=1, reason="played"),
    ]
    assert {a["type"] for a in legal(state, 1)} == {"play", "pickup"}


def test_R6_3_the_tier_is_evaluated_again_for_the_extra_turn_after_a_burn() -> None:
    state = with_zones(table(), 0, hand="TC")
    events, state = play(with_pile(state, "5D"), 0, "TC")
    assert events[-1] == TurnPassed(seat=0, reason="burned")
    assert plays(state, 0) == ["4C", "6C", "8C"]


def test_R6_4_legal_action_types_per_tier() -> None:
    state = with_pile(table(), "5D")
    assert {a["type"] for a in legal(state, 0)} == {"play", "pickup"}
    face_up = with_zones(state, 0, hand="")
    assert [a for a in legal(face_up, 0) if a["type"] == "pickup"] == [
        {"type": "pickup", "face_up_card": c} for c in ("4C", "6C", "8C")
    ]
    face_down = with_zones(state, 0, hand="", up="")
    assert legal(face_down, 0) == [{"type": "flip", "slot": i} for i in range(3)]
    with pytest.raises(IllegalAction) as err:
        act(face_down, 0, {"type": "pickup"})
    assert err.value.reason == "wrong_tier"


def test_R6_5_no_table_card_while_holding_hand_cards_and_never_two_zones_at_once() -> None:
    state = with_zones(table(), 0, hand="3C 4S 9C")
    with pytest.raises(IllegalAction, match="cannot play face-up 6C while you hold hand cards"):
        play(state, 0, "6C")
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "4S 4C")
    assert err.value.reason == "wrong_tier"
    face_up = with_zones(state, 0, hand="", down="4H - -")
    with pytest.raises(IllegalAction, match="4H is not one of your face-up cards"):
        play(face_up, 0, "4C 4H")


def test_R6_6_no_pass_and_no_pickup_of_an_empty_pile() -> None:
    state = table()
    assert all(a["type"] == "play" for a in legal(state, 0)) and legal(state, 0)
    with pytest.raises(IllegalAction, match="the pile is empty") as err:
        act(state, 0, {"type": "pickup"})
    assert err.value.reason == "empty_pile"


def test_R6_7_a_seat_may_pick_up_although_it_could_play() -> None:
    state = with_pile(table(), "4S")
    assert "5C" in plays(state, 0)
    events, _ = act(state, 0, {"type": "pickup"})
    assert events == [
        PilePickedUp(seat=0, cards=("4S",), face_up_cards=(), cause="pickup"),
        TurnPassed(seat=1, reason="picked_up"),
    ]


def test_R7_1_a_set_is_one_rank_of_any_size_and_need_not_match_the_previous_count() -> None:
    state = with_zones(table(), 0, hand="9C 9D 9H RJ")
    state = with_pile(state, "5S 5H")
    assert plays(state, 0) == ["9C", "9D", "9H", "9C 9D", "9C 9H", "9D 9H", "9C 9D 9H", "RJ"]
    with pytest.raises(IllegalAction, match="a set is one rank") as err:
        play(state, 0, "9C RJ")
    assert err.value.reason == "mixed_ranks"


def test_R7_2_any_set_goes_on_an_empty_pile() -> None:
    state = with_zones(table(), 0, hand="3C 4S 4D")
    assert plays(state, 0) == ["3C", "4D", "4S", "4D 4S"]


def test_R7_3_the_effective_top_skips_jokers_and_only_jokers_count_as_empty() -> None:
    state = with_zones(table(), 0, hand="3C 8S KS")
    assert plays(with_pile(state, "9D RJ"), 0) == ["KS"]
    assert plays(with_pile(state, "RJ BJ"), 0) == ["3C", "8S", "KS"]


@pytest.mark.parametrize(
    ("pile", "card", "ok"),
    [
        ("AD", "2S", True),  # (a) a 2 goes on anything
        ("AD", "TS", True),  # (b) a 10 goes on anything
        ("AD", "RJ", True),  # (c) a joker goes on anything
        ("2D", "3S", True),  # (d) anything goes on a 2
        ("BJ", "3S", True),  # (e) only jokers on the pile
        ("9D", "9S", True),  # (f) equal
        ("9D", "KS", True),  # (f) higher
        ("9D", "8S", False),
    ],
)
def test_R7_4_the_default_legality_cases(pile: str, card: str, ok: bool) -> None:
    state = with_pile(with_zones(table(), 0, hand=card), pile)
    assert (plays(state, 0) == [card]) is ok
    if not ok:
        with pytest.raises(IllegalAction, match=f"cannot play {card} on {pile}") as err:
            play(state, 0, card)
        assert err.value.reason == "too_low"


def test_R7_5_a_two_only_frees_the_next_card() -> None:
    state = with_zones(table(), 0, hand="4S 3S 6S")
    assert plays(with_pile(state, "KD 2D"), 0) == ["3S", "4S", "6S"]
    assert plays(with_pile(state, "KD 2D 5D"), 0) == ["6S"]
    two = with_pile(with_zones(table(), 0, hand="2S 4S"), "KD")
    events, after = play(two, 0, "2S")
    assert events == [
        CardsPlayed(seat=0, cards=("2S",), source="hand"),
        TurnPassed(seat=1, reason="played"),
    ]
    assert after.direction == 1 and after.pile == ("KD", "2S")


def test_R7_6_equal_rank_is_always_legal() -> None:
    state = with_pile(with_zones(table(), 0, hand="7S 3S"), "7D")
    assert plays(state, 0) == ["7S"]


@pytest.mark.parametrize(
    ("pile", "expected"),
    [
        ("7D", ["2S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]),
        ("2D", ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]),
        ("AD", ["2S", "TS", "AS"]),
        ("9D 2D 9H 9C", ["2S", "9S", "TS", "JS", "QS", "KS", "AS"]),
    ],
)
def test_R7_7_examples(pile: str, expected: list[str]) -> None:
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    state = with_pile(with_zones(table(), 0, hand=hand), pile)
    assert plays(state, 0) == expected


def test_R8_1_cards_go_on_the_pile_in_listed_order() -> None:
    state = with_zones(table(), 0, hand="9C 9D 3S")
    events, after = act(state, 0, {"type": "play", "cards": ["9D", "9C"]})
    assert events[0] == CardsPlayed(seat=0, cards=("9D", "9C"), source="hand")
    assert after.pile == ("9D", "9C")


def test_R8_2_a_joker_set_reverses_once() -> None:
    state = playing(*SEATS, "2C 2D 2H | 5D 5H 5S", dealer=3, jokers="always")
    state = with_zones(state, 0, hand="RJ BJ 3S")
    events, after = play(state, 0, "RJ BJ")
    assert events == [
        CardsPlayed(seat=0, cards=("RJ", "BJ"), source="hand"),
        DirectionReversed(direction=-1),
        TurnPassed(seat=3, reason="played"),
    ]
    assert after.direction == -1


def test_R8_3_tens_burn_the_whole_pile_once() -> None:
    state = with_pile(with_zones(table(), 0, hand="TC TS 3S"), "5D 6D AD")
    events, after = play(state, 0, "TC TS")
    assert events == [
        CardsPlayed(seat=0, cards=("TC", "TS"), source="hand"),
        PileBurned(seat=0, cause="ten", count=5),
        TurnPassed(seat=0, reason="burned"),
    ]
    assert after.pile == () and len(after.burned) == 5


def test_R8_4_four_of_a_kind_burns_across_plays_and_seats() -> None:
    state = with_pile(with_zones(table(), 0, hand="9C 3S 4S"), "5D 9D 9H")
    state = with_zones(state, 1, hand="9S 3D 4D")
    events, state = play(state, 0, "9C")
    assert events[-1] == TurnPassed(seat=1, reason="played")
    events, state = play(state, 1, "9S")
    assert events == [
        CardsPlayed(seat=1, cards=("9S",), source="hand"),
        PileBurned(seat=1, cause="four_of_a_kind", count=5),
        TurnPassed(seat=1, reason="burned"),
    ]


def test_R8_4_a_two_or_joker_between_breaks_the_run_and_four_at_once_burns_even_as_a_lead() -> None:
    broken = with_pile(with_zones(table(), 0, hand="9C 3S"), "9D 2D 9H 9S")
    assert play(broken, 0, "9C")[0][-1] == TurnPassed(seat=1, reason="played")
    lead = with_zones(table(), 0, hand="2C 2D 2H 2S")
    events, _ = play(lead, 0, "2C 2D 2H 2S")
    assert events[1] == PileBurned(seat=0, cause="four_of_a_kind", count=4)


def test_R8_5_the_actor_draws_up_to_the_hand_size_before_the_extra_turn() -> None:
    state = with_pile(table(stock="2S 3S 4S"), "5D")
    state = with_zones(state, 0, hand="TC TD 9C")
    events, after = play(state, 0, "TC TD")
    assert events == [
        CardsPlayed(seat=0, cards=("TC", "TD"), source="hand"),
        PileBurned(seat=0, cause="ten", count=3),
        CardsDrawn(seat=0, cards=("2S", "3S")),
        TurnPassed(seat=0, reason="burned"),
    ]
    assert after.stock == ("4S",)
    big = with_zones(table(stock="2S"), 0, hand="3S 4S 5S 6S 7S")
    events, after = play(big, 0, "3S")
    assert [type(e) for e in events] == [CardsPlayed, TurnPassed] and len(after.hands[0]) == 4
    empty = with_zones(table(), 0, hand="3S 4S 5S")
    assert play(empty, 0, "3S")[0] == [
        CardsPlayed(seat=0, cards=("3S",), source="hand"),
        TurnPassed(seat=1, reason="played"),
    ]


def test_R8_6_a_seat_with_no_cards_left_goes_out() -> None:
    state = with_zones(table(), 0, hand="", up="- 6C -", down="- - -")
    events, _ = play(with_pile(state, "5D"), 0, "6C")
    assert events == [
        CardsPlayed(seat=0, cards=("6C",), source="face_up"),
        PlayerOut(seat=0, position=1),
        TurnPassed(seat=1, reason="played"),
    ]


def test_R8_7_after_a_burn_the_burner_leads_unless_it_went_out() -> None:
    state = with_pile(with_zones(table(), 0, hand="TC 3S"), "5D")
    assert play(state, 0, "TC")[0][-1] == TurnPassed(seat=0, reason="burned")
    out = with_pile(with_zones(table(), 0, hand="", up="TC - -", down="- - -"), "5D")
    events, _ = play(out, 0, "TC")
    assert events[-2:] == [PlayerOut(seat=0, position=1), TurnPassed(seat=1, reason="burned")]
    plain = with_pile(with_zones(table(), 0, hand="9C 3S"), "5D")
    assert play(plain, 0, "9C")[0][-1] == TurnPassed(seat=1, reason="played")


@pytest.mark.parametrize("card", ["3S", "5S", "7S", "8S", "9S", "JS", "QS", "KS", "AS"])
def test_R8_8_no_other_rank_has_an_effect(card: str) -> None:
    state = with_zones(table(), 0, hand=f"{card} 4D")
    events, after = play(state, 0, card)
    assert events == [
        CardsPlayed(seat=0, cards=(card,), source="hand"),
        TurnPassed(seat=1, reason="played"),
    ]
    assert after.direction == 1
