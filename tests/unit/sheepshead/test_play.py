"""Trick play (R8)."""

from __future__ import annotations

from domain.games.sheepshead import GAME
from domain.games.sheepshead.cards import trick_winner_index
from domain.games.sheepshead.events import CardPlayed, HandScored, PartnerRevealed, TrickWon

from .helpers import (
    STRONG,
    STRONG_BLIND,
    act,
    of_type,
    pick_and_bury,
    play,
    play_first_legal,
    refused,
    start,
)

FOLLOW = {
    0: ["AH", "QC", "QS", "QD", "JC", "JS"],
    1: ["QH", "JH", "7H", "AC", "TC", "KC"],
    2: ["JD", "KD", "AS", "TS", "KS", "9S"],
    3: ["7D", "9C", "8C", "7C", "8S", "7S"],
    4: ["8D", "9D", "8H", "9H", "TH", "KH"],
}
FOLLOW_BLIND = ["AD", "TD"]


def _cards(state, seat):  # type: ignore[no-untyped-def]
    return [a["cards"][0] for a in GAME.legal_actions(state, seat)]


def _follow_state():  # type: ignore[no-untyped-def]
    state = start(FOLLOW, FOLLOW_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    return state


def test_R8_1_the_first_trick_is_led_by_the_dealers_left_whoever_picks() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 2, ["AC", "TC"])
    assert GAME.seats_to_act(state) == (0,)


def test_R8_2_each_seat_plays_one_card_clockwise() -> None:
    state = _follow_state()
    state, events = play(state, "QC", "QH", "JD", "7D", "8D")
    assert [e.seat for e in of_type(events, CardPlayed)] == [0, 1, 2, 3, 4]


def test_R8_3_the_leader_may_lead_any_card() -> None:
    state = _follow_state()
    assert sorted(_cards(state, 0)) == sorted(FOLLOW[0])


def test_R8_4_followers_must_follow_the_effective_suit() -> None:
    state = _follow_state()
    state, _ = play(state, "AH")
    assert _cards(state, 1) == ["7H"]
    error = refused(state, 1, {"type": "play", "cards": ["QH"]})
    assert error.reason == "must_follow_suit" and "QH" in error.message


def test_R8_4a_trump_led_any_trump_even_a_lone_low_diamond() -> None:
    state = _follow_state()
    state, _ = play(state, "QC", "QH", "JD")
    assert _cards(state, 3) == ["7D"]
    state, _ = play(state, "7D")
    assert _cards(state, 4) == ["9D", "8D"]


def test_R8_4b_fail_led_queen_and_jack_of_that_suit_are_not_that_suit() -> None:
    state = _follow_state()
    state, _ = play(state, "AH")
    assert "QH" not in _cards(state, 1) and "JH" not in _cards(state, 1)
    assert refused(state, 1, {"type": "play", "cards": ["AC"]}).reason == "must_follow_suit"


def test_R8_4c_a_void_player_may_play_anything() -> None:
    state = _follow_state()
    state, _ = play(state, "AH", "7H")
    assert sorted(_cards(state, 2)) == sorted(FOLLOW[2])


def test_R8_5_the_highest_trump_else_the_highest_of_the_led_suit_wins() -> None:
    assert trick_winner_index(["9C", "AS", "TC", "AH", "7C"]) == 2
    assert trick_winner_index(["9C", "AS", "7D", "AH", "QC"]) == 4
    state = _follow_state()
    state, events = play(state, "AH", "7H", "AS", "7C", "KH")
    won = of_type(events, TrickWon)[0]
    assert won == TrickWon(number=1, winner=0, cards=("AH", "7H", "AS", "7C", "KH"), points=26)


def test_R8_6_the_winner_takes_the_points_and_leads_next() -> None:
    state = _follow_state()
    state, events = play(state, "QC", "QH", "JD", "7D")
    state, events = play(state, _cards(state, 4)[0])
    won = of_type(events, TrickWon)[0]
    assert won.winner == 0 and GAME.seats_to_act(state) == (0,)
    assert GAME.view(state, None)["seats"][0]["points"] == won.points


def test_R8_7_after_the_last_trick_the_hand_is_scored_and_nobody_acts() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 1})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play_first_legal(state)
    assert len(of_type(events, TrickWon)) == 6 and of_type(events, HandScored)
    assert GAME.seats_to_act(state) == () and GAME.view(state, None)["to_act"] == []


def test_R8_8_only_the_partner_card_reveals_and_alone_jd_reveals_nobody() -> None:
    hands = {0: ["JD", "QC", "QS", "QH", "QD", "JC"]}
    state = start(hands, ["7H", "8H"])
    state, _ = pick_and_bury(state, 0, ["7H", "8H"])
    state, _ = act(state, 0, {"type": "alone"})
    state, events = play(state, "JD")
    assert not of_type(events, PartnerRevealed)
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play(state, "JC", "JD")
    assert of_type(events, PartnerRevealed) == [PartnerRevealed(seat=1, card="JD")]
