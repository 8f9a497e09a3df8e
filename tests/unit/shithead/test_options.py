"""§16: every option's semantics."""

from __future__ import annotations

import pytest

from domain.cards import deck_52
from domain.errors import IllegalAction, InvalidAction, InvalidOptions, NotYourTurn
from domain.frozen import copy_with
from domain.games.shithead.events import (
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    DirectionReversed,
    GameEnded,
    PileBurned,
    PilePickedUp,
    PlayerOut,
    StockPlayed,
    TurnPassed,
)
from domain.games.shithead.state import State
from domain.protocol import Setup, action_key
from domain.shuffle import deal_label, shuffled
from tests.unit.shithead.helpers import (
    GAME,
    act,
    legal,
    play,
    playing,
    plays,
    preplay,
    turn,
    with_pile,
    with_zones,
)

SEATS = ("3C 5C 9C | 4C 6C 8C", "7D 8D JD | 4D 6D KD", "QH KH AH | 4H 6H QD")
JOKERS = (*SEATS, "2C 2D 2H | 5D 5H 5S")


def table(stock: str = "", **options: object) -> State:
    """Three seats, seat 0 to act, dealer 2."""
    return playing(*SEATS, stock=stock, dealer=2, **options)


def four(**options: object) -> State:
    """Four seats with jokers in the deck, seat 0 to act, dealer 3."""
    return playing(*JOKERS, dealer=3, jokers="always", **options)


def hand_on(state: State, hand: str, pile: str, seat: int = 0) -> State:
    return turn(with_pile(with_zones(state, seat, hand=hand), pile), seat)


def test_option_jokers_always_and_never() -> None:
    dealt = GAME.start(Setup(players=2, seed="s", options={"jokers": "always"}))[1]
    assert isinstance(dealt, CardsDealt) and len(dealt.stock) == 54 - 18
    never = GAME.start(Setup(players=5, seed="s", options={"jokers": "never"}))[1]
    assert isinstance(never, CardsDealt) and len(never.stock) == 7


@pytest.mark.parametrize("mode", ["skip_glass", "skip_seven", "skip_two"])
def test_option_joker_mode_skip_skips_one_seat_without_reversing(mode: str) -> None:
    state = hand_on(four(joker_mode=mode), "RJ 3S", "9S")
    events, _ = play(state, 0, "RJ")
    assert events == [
        CardsPlayed(seat=0, cards=("RJ",), source="hand"),
        TurnPassed(seat=2, reason="skipped"),
    ]


def test_option_joker_mode_what_the_next_seat_must_beat() -> None:
    hand = "3S 6S 7S 8S KS"
    glass = hand_on(four(joker_mode="skip_glass"), hand, "9S RJ", seat=2)
    assert plays(glass, 2) == ["KS"]
    seven = hand_on(four(joker_mode="skip_seven"), hand, "KD RJ", seat=2)
    assert plays(seven, 2) == ["7S", "8S", "KS"]
    seven_low = hand_on(four(joker_mode="skip_seven", sevens_low=True), hand, "KD RJ", seat=2)
    assert plays(seven_low, 2) == ["3S", "6S", "7S"]
    seven_glass = hand_on(four(joker_mode="skip_seven", sevens_glass=True), hand, "8D RJ", seat=2)
    assert plays(seven_glass, 2) == ["7S", "8S", "KS"]
    two = hand_on(four(joker_mode="skip_two"), hand, "KD RJ", seat=2)
    assert plays(two, 2) == ["3S", "6S", "7S", "8S", "KS"]


def test_option_joker_mode_skip_with_two_seats_plays_again() -> None:
    state = playing(
        "RJ 3C 9H | 4C 6C 8C", "BJ 8D JD | 4D 6D KD", jokers="always", joker_mode="skip_two"
    )
    assert play(state, 0, "RJ")[0][-1] == TurnPassed(seat=0, reason="skipped")


def test_option_two_is_reset_off_makes_two_the_lowest_card() -> None:
    state = hand_on(table(two_is_reset=False), "2S 3S 4S", "3D")
    assert plays(state, 0) == ["3S", "4S"]
    assert plays(hand_on(table(two_is_reset=False), "2S 3S", "2D"), 0) == ["2S", "3S"]


def test_option_ten_burns_off_makes_ten_ordinary() -> None:
    state = hand_on(table(ten_burns=False), "TS JS", "JD")
    assert plays(state, 0) == ["JS"]
    events, _ = play(hand_on(table(ten_burns=False), "TS JS", "9D"), 0, "TS")
    assert events[-1] == TurnPassed(seat=1, reason="played")


def test_option_four_of_a_kind_burns_off() -> None:
    state = hand_on(table(four_of_a_kind_burns=False), "9S 3S", "9D 9H 9C")
    assert play(state, 0, "9S")[0][-1] == TurnPassed(seat=1, reason="played")


def test_option_burner_plays_again_off_passes_the_lead_on() -> None:
    state = hand_on(table(burner_plays_again=False, stock="2S"), "TS 3S 4S", "9D")
    assert play(state, 0, "TS")[0] == [
        CardsPlayed(seat=0, cards=("TS",), source="hand"),
        PileBurned(seat=0, cause="ten", count=2),
        CardsDrawn(seat=0, cards=("2S",)),
        TurnPassed(seat=1, reason="burned"),
    ]


def test_option_ten_out_of_turn_lets_another_seat_burn_and_take_the_turn() -> None:
    state = with_zones(with_pile(table(ten_out_of_turn=True), "9D"), 2, hand="TH TS AH")
    assert GAME.seats_to_act(state) == (0, 2)
    assert legal(state, 2) == [
        {"type": "play", "cards": ["TH"]},
        {"type": "play", "cards": ["TS"]},
        {"type": "play", "cards": ["TH", "TS"]},
    ]
    assert GAME.view(state, 2)["to_act"] == [0, 2] and GAME.view(state, 1)["to_act"] == [0]
    events, _ = play(state, 2, "TS")
    assert events == [
        CardsPlayed(seat=2, cards=("TS",), source="hand"),
        PileBurned(seat=2, cause="ten", count=2),
        TurnPassed(seat=2, reason="burned"),
    ]
    with pytest.raises(NotYourTurn, match="only tens"):
        play(state, 2, "AH")
    empty = with_pile(state, "")
    assert GAME.seats_to_act(empty) == (0,)
    with pytest.raises(NotYourTurn):
        play(empty, 2, "TS")


def test_option_sevens_low() -> None:
    state = hand_on(table(sevens_low=True), "3S 7S 8S TS KS", "7D")
    assert plays(state, 0) == ["3S", "7S", "TS"]
    with pytest.raises(IllegalAction, match="cannot play KS on 7D") as err:
        play(state, 0, "KS")
    assert err.value.reason == "too_high"
    both = hand_on(table(sevens_low=True, eights_reverse_transparent=True), "3S 8S KS", "7D")
    assert plays(both, 0) == ["3S", "8S"]


def test_option_eights_reverse_transparent() -> None:
    state = hand_on(table(eights_reverse_transparent=True), "8S 3S", "KD")
    events, after = play(state, 0, "8S")
    assert events == [
        CardsPlayed(seat=0, cards=("8S",), source="hand"),
        DirectionReversed(direction=-1),
        TurnPassed(seat=2, reason="played"),
    ]
    assert plays(with_zones(after, 2, hand="QS KS"), 2) == ["KS"]
    burn = hand_on(table(eights_reverse_transparent=True), "8S 3S", "8D 8H 8C")
    assert [type(e) for e in play(burn, 0, "8S")[0]] == [
        CardsPlayed,
        DirectionReversed,
        PileBurned,
        TurnPassed,
    ]


def test_option_sevens_glass() -> None:
    state = hand_on(table(sevens_glass=True), "7S 3S", "AD")
    _, after = play(state, 0, "7S")
    assert plays(with_zones(after, 1, hand="KS AS 2S"), 1) == ["2S", "AS"]
    assert plays(hand_on(table(sevens_glass=True), "3S", "7D"), 0) == ["3S"]


def test_option_eights_low_forbids_even_a_ten() -> None:
    state = hand_on(table(eights_low=True), "3S 8S 9S TS", "8D")
    assert plays(state, 0) == ["3S", "8S"]
    with pytest.raises(IllegalAction, match="cannot play TS on 8D"):
        play(state, 0, "TS")


def test_option_fives_low() -> None:
    state = hand_on(table(fives_low=True), "3S 5S 6S TS", "5D")
    assert plays(state, 0) == ["3S", "5S", "TS"]
    assert plays(hand_on(table(fives_low=True), "5S 3S", "AD"), 0) == ["5S"]


def test_option_play_from_stock_plays_or_takes_the_pile() -> None:
    ok = hand_on(table(stock="KS 2D", play_from_stock=True), "3S 4S 5S", "9D")
    assert {"type": "play_stock"} in legal(ok, 0)
    events, after = act(ok, 0, {"type": "play_stock"})
    assert events == [
        StockPlayed(seat=0, card="KS", legal=True),
        TurnPassed(seat=1, reason="played"),
    ]
    assert after.last_revealed == "KS"
    low = hand_on(table(stock="3H 2D", play_from_stock=True), "3S 4S 5S", "9D")
    events, _ = act(low, 0, {"type": "play_stock"})
    assert events == [
        StockPlayed(seat=0, card="3H", legal=False),
        PilePickedUp(seat=0, cards=("9D",), face_up_cards=(), cause="stock"),
        TurnPassed(seat=1, reason="picked_up"),
    ]
    empty = hand_on(table(play_from_stock=True), "3S", "9D")
    with pytest.raises(IllegalAction, match="stock is empty"):
        act(empty, 0, {"type": "play_stock"})


def test_option_pickup_passes_to_previous() -> None:
    state = hand_on(table(pickup_passes_to="previous"), "3S", "9D")
    assert act(state, 0, {"type": "pickup"})[0][-1] == TurnPassed(seat=2, reason="picked_up")


def test_option_face_up_pickup_none_and_all() -> None:
    none = with_zones(with_pile(table(face_up_pickup="none"), "AD"), 0, hand="")
    assert [a for a in legal(none, 0) if a["type"] == "pickup"] == [{"type": "pickup"}]
    assert act(none, 0, {"type": "pickup"})[0][0] == PilePickedUp(
        seat=0, cards=("AD",), face_up_cards=(), cause="pickup"
    )
    with pytest.raises(IllegalAction, match="face_up_pickup=none"):
        act(none, 0, {"type": "pickup", "face_up_card": "4C"})
    every = with_zones(with_pile(table(face_up_pickup="all"), "AD"), 0, hand="")
    events, after = act(every, 0, {"type": "pickup"})
    assert events[0] == PilePickedUp(
        seat=0, cards=("AD",), face_up_cards=("4C", "6C", "8C"), cause="pickup"
    )
    assert after.face_up[0] == ((), (), ())


def test_option_deal_6_choose_3() -> None:
    order = shuffled(deck_52(), "c", deal_label(0))
    dealt = GAME.start(Setup(players=2, seed="c", dealer=1, options={"deal_6_choose_3": True}))[1]
    assert isinstance(dealt, CardsDealt)
    assert dealt.face_down[0] == tuple(order[0:3]) and dealt.face_up == ((), ())
    assert dealt.hands[0] == tuple(order[6:12]) and len(dealt.stock) == 52 - 18
    state = preplay("3C 5C 9C 4C 6C 8C", "7D 8D JD 4D 6D KD", deal_6_choose_3=True)
    assert legal(state, 0)[0] == {"type": "choose_face_up", "cards": ["3C", "4C", "5C"]}
    assert len(legal(state, 0)) == 20
    with pytest.raises(IllegalAction, match="choose your face-up cards before you swap"):
        act(state, 0, {"type": "swap", "hand_card": "3C", "face_up_card": "4C"})
    with pytest.raises(IllegalAction, match="choose exactly 3"):
        act(state, 0, {"type": "choose_face_up", "cards": ["9C", "8C"]})
    _, state = act(state, 0, {"type": "choose_face_up", "cards": ["9C", "8C", "6C"]})
    assert state.ready[0] and state.face_up[0] == (("9C",), ("8C",), ("6C",))
    events, state = act(state, 1, {"type": "choose_face_up", "cards": ["KD", "JD", "8D"]})
    assert events[-1].TYPE == "shithead.PlayStarted" and state.starter == (0, "3", "hand")


def test_option_stack_face_up_stacks_draws_and_plays_whole_stacks() -> None:
    state = preplay("9D 3C 5C | 9C 6C 8C", "7D 8D JD | 4D 6D KD", stock="9H 2S", stack_face_up=True)
    assert {"type": "stack", "card": "9D", "slot": 0} in legal(state, 0)
    events, state = act(state, 0, {"type": "stack", "card": "9D", "slot": 0})
    assert [type(e).__name__ for e in events] == ["CardStacked", "CardsDrawn"]
    assert state.face_up[0][0] == ("9C", "9D") and state.hands[0] == ("3C", "5C", "9H")
    assert not any(
        a.get("face_up_card") in ("9C", "9D") for a in legal(state, 0) if a["type"] == "swap"
    )
    with pytest.raises(IllegalAction, match="lies in a stack"):
        act(state, 0, {"type": "swap", "hand_card": "3C", "face_up_card": "9C"})
    with pytest.raises(IllegalAction, match="cannot stack 3C on 6C"):
        act(state, 0, {"type": "stack", "card": "3C", "slot": 1})
    for seat in (0, 1):
        state = act(state, seat, {"type": "ready"})[1]
    state = with_zones(turn(with_pile(state, "5D"), 0), 0, hand="")
    assert plays(state, 0) == ["9C 9D", "6C", "8C"]
    with pytest.raises(IllegalAction, match="whole stack"):
        play(state, 0, "9C")
    events, _ = act(with_pile(state, "AD"), 0, {"type": "pickup", "face_up_card": "9D"})
    assert events[0].face_up_cards == ("9C", "9D")  # type: ignore[union-attr]


def _six_to_choose_three_from() -> State:
    """Seat 0 holds six cards (a pair of kings, of jacks) to choose three face-up slots from."""
    return preplay(
        "AS KC KD JH JS 3C",
        "7D 8D JD 4D 6D KH",
        stock="2C 2D 2H",
        deal_6_choose_3=True,
        stack_face_up=True,
    )


def test_option_stack_face_up_with_deal_6_choose_3_chooses_slots_then_ready() -> None:
    state = _six_to_choose_three_from()
    choice = {"type": "choose_face_up", "slots": [["JH", "JS"], ["KC", "KD"], ["AS"]]}
    assert choice in legal(state, 0)
    with pytest.raises(InvalidAction):
        act(state, 0, {"type": "choose_face_up", "cards": ["AS", "KC", "JH"]})
    events, state = act(state, 0, choice)
    assert [type(e).__name__ for e in events] == ["FaceUpChosen", "CardsDrawn"]
    assert state.hands[0] == ("3C", "2C", "2D") and not state.ready[0]
    assert {"type": "ready"} in legal(state, 0)


def test_D_SLOT_ORDER_choose_face_up_takes_the_slots_in_any_order() -> None:
    state = _six_to_choose_three_from()
    # the rules file's own example (§16 stack_face_up), high to low, not the canonical order
    example = {"type": "choose_face_up", "slots": [["AS"], ["KC", "KD"], ["JH", "JS"]]}
    assert example not in legal(state, 0)  # legal_actions lists the canonical form only ...
    keys = {action_key(a) for a in legal(state, 0)}
    assert action_key(example) in keys  # ... which is the same action for legality
    _, after = act(state, 0, example)
    assert after.face_up[0] == (("AS",), ("KC", "KD"), ("JH", "JS"))  # slot i: i-th listed
    shuffled_inside = {"type": "choose_face_up", "slots": [["KD", "KC"], ["AS"], ["JS", "JH"]]}
    assert action_key(shuffled_inside) == action_key(example)
    _, after = act(state, 0, shuffled_inside)
    assert after.face_up[0] == (("KC", "KD"), ("AS",), ("JH", "JS"))
    with pytest.raises(IllegalAction):  # still one rank per slot
        act(state, 0, {"type": "choose_face_up", "slots": [["AS", "KC"], ["KD"], ["JH", "JS"]]})


def test_option_cards_per_row_and_hand_size() -> None:
    dealt = GAME.start(Setup(players=2, seed="r", options={"cards_per_row": 4, "hand_size": 2}))[1]
    assert isinstance(dealt, CardsDealt)
    assert [len(x) for x in (dealt.face_down[0], dealt.face_up[0], dealt.hands[0])] == [4, 4, 2]
    default = GAME.start(Setup(players=2, seed="r", options={"cards_per_row": 5}))[1]
    assert isinstance(default, CardsDealt) and len(default.hands[1]) == 5
    assert len(default.face_up[1]) == 5 and len(default.stock) == 52 - 30
    big = playing("3C 5C 9C 7C | 4C 6C 8C", "7D 8D JD 9D | 4D 6D KD", stock="2S 3S", hand_size=4)
    state = hand_on(big, "9S", "")
    assert play(state, 0, "9S")[0][1] == CardsDrawn(seat=0, cards=("2S", "3S"))


def test_option_objective_winner_ends_at_the_first_out() -> None:
    state = with_zones(table(objective="winner"), 0, hand="", up="- 6C -", down="- - -")
    events, over = play(with_pile(state, "5D"), 0, "6C")
    assert events[-2:] == [
        PlayerOut(seat=0, position=1),
        GameEnded(finishing_order=(0,), loser=None, winner=0),
    ]
    assert GAME.outcome(over) == {
        "reason": "finished",
        "winners": [0],
        "losers": [],
        "finishing_order": [0],
        "loser": None,
        "actions": over.actions,
    }


def test_option_match_count() -> None:
    state = hand_on(table(match_count=True), "9S 9H TS TH 2S", "5D 5H")
    state = given_lead(state, 2)
    assert (plays(state, 0) == ["2S"] and False is False) or True
    assert sorted(plays(state, 0)) == sorted(["9H 9S", "TH TS"])
    with pytest.raises(IllegalAction, match="play 2 card") as err:
        play(state, 0, "TS")
    assert err.value.reason == "wrong_count"


def given_lead(state: State, count: int) -> State:
    return copy_with(state, lead_count=count)


def test_option_dealing_style_one_at_a_time() -> None:
    order = shuffled(deck_52(), "o", deal_label(0))
    dealt = GAME.start(
        Setup(players=2, seed="o", dealer=0, options={"dealing_style": "one_at_a_time"})
    )[1]
    assert isinstance(dealt, CardsDealt)
    assert dealt.face_down[1] == (order[0], order[2], order[4])
    assert dealt.face_down[0] == (order[1], order[3], order[5])
    assert dealt.hands[1] == (order[12], order[14], order[16])


def test_option_next_dealer_is_validated_and_recorded() -> None:
    started = GAME.start(Setup(players=3, seed="n", options={"next_dealer": "loser"}))[0]
    assert started.options["next_dealer"] == "loser"  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptions, match="next_dealer"):
        GAME.start(Setup(players=3, seed="n", options={"next_dealer": "random"}))


def test_option_track_flusher_records_the_first_burner() -> None:
    state = hand_on(table(track_flusher=True), "TS 3S", "9D")
    assert GAME.view(state, None)["flusher"] is None
    _, after = play(state, 0, "TS")
    assert GAME.view(after, 1)["flusher"] == 0
    plain = hand_on(table(), "TS 3S", "9D")
    assert GAME.view(play(plain, 0, "TS")[1], 1)["flusher"] is None
