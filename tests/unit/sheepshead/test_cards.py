"""Terms, cards and card points (R0-R2)."""

from __future__ import annotations

import itertools

from domain.games.sheepshead.cards import (
    DECK,
    TRUMP_ORDER,
    effective_suit,
    is_trump,
    points,
    total_points,
    trick_winner_index,
)
from domain.games.sheepshead.config import active_seats

from .helpers import STRONG, STRONG_BLIND, act, pick_and_bury, play_first_legal, scored, start


def test_R0_1_seats_are_zero_based_and_clockwise_is_increasing() -> None:
    assert active_seats(dealer=4, players=5, sits_out=False) == (0, 1, 2, 3, 4)
    assert active_seats(dealer=1, players=5, sits_out=False) == (2, 3, 4, 0, 1)


def test_R0_2_a_match_is_a_sequence_of_hands_with_running_totals() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 2})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, _ = play_first_legal(state)
    assert state.hand is not None and state.hand.number == 1
    assert state.totals == (6, 3, -3, -3, -3)


def test_R0_3_card_points_are_not_scores() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play_first_legal(state)
    result = scored(events)
    assert result.team_points == 120 and result.scores[0] == 6


def test_R0_4_picker_partner_and_defenders() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    assert state.hand is not None
    assert (state.hand.picker, state.hand.partner) == (0, 1)


def test_R0_5_alone_means_no_partner() -> None:
    state = start({0: ["JD", "QC", "QS", "QH", "QD", "JC"]}, ["JS", "JH"])
    state, _ = pick_and_bury(state, 0, ["JS", "JH"])
    assert state.hand is not None and state.hand.alone and state.hand.partner is None


def test_R0_6_fail_is_any_non_trump() -> None:
    assert [c for c in DECK if not is_trump(c)] == [
        c for c in DECK if c[1] != "D" and c[0] not in "QJ"
    ]


def test_R1_1_the_deck_has_thirty_two_cards_seven_to_ace() -> None:
    assert len(DECK) == 32 and {c[0] for c in DECK} == set("789TJQKA")


def test_R1_2_card_codes_are_rank_then_suit() -> None:
    assert DECK[0] == "7C" and DECK[-1] == "AS" and "TD" in DECK


def test_R1_3_fourteen_trumps_in_order() -> None:
    assert TRUMP_ORDER == (
        "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D",
    )  # fmt: skip
    for high, low in itertools.pairwise(TRUMP_ORDER):
        assert trick_winner_index([low, high]) == 1


def test_R1_4_fail_suits_rank_ace_ten_king_nine_eight_seven() -> None:
    order = ["AH", "TH", "KH", "9H", "8H", "7H"]
    for i in range(len(order) - 1):
        assert trick_winner_index([order[i + 1], order[i]]) == 1
    assert effective_suit("QH") == "T" and effective_suit("JH") == "T"


def test_R1_5_effective_suit_is_trump_or_the_printed_fail_suit() -> None:
    assert effective_suit("7D") == "T" and effective_suit("AC") == "C"
    assert sum(1 for c in DECK if effective_suit(c) == "T") == 14
    assert all(sum(1 for c in DECK if effective_suit(c) == s) == 6 for s in "CSH")


def test_R1_6_any_trump_beats_any_fail_and_ten_ranks_above_king() -> None:
    assert trick_winner_index(["AH", "7D"]) == 1
    assert trick_winner_index(["KS", "TS"]) == 1
    assert trick_winner_index(["KD", "TD"]) == 1


def test_R2_1_card_points() -> None:
    assert [points(c) for c in ("AC", "TD", "KH", "QS", "JD", "9C", "8D", "7H")] == [
        11, 10, 4, 3, 2, 0, 0, 0,
    ]  # fmt: skip


def test_R2_2_the_deck_holds_120_points() -> None:
    assert total_points(DECK) == 120
    assert total_points(TRUMP_ORDER) == 45
    assert all(total_points([c for c in DECK if effective_suit(c) == s]) == 25 for s in "CSH")


def test_R2_3_points_have_nothing_to_do_with_rank() -> None:
    assert points("QC") == 3 and trick_winner_index(["AH", "QC"]) == 1
    assert trick_winner_index(["AH", "7D"]) == 1 and points("AH") > points("7D")


def test_R0_1_the_left_of_a_seat_acts_after_it() -> None:
    state = start(STRONG, STRONG_BLIND, dealer=2)
    state, _ = act(state, 3, {"type": "pass"})
    assert state.hand is not None and state.hand.to_act == 4
