"""R1-R3: the pack, the match frame and the deal."""

from __future__ import annotations

import pytest

from domain.deals import deal_order, parse_deal
from domain.errors import InvalidDeal, InvalidSetup
from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import (
    CardDrawn,
    DealScored,
    DealStarted,
    GameStarted,
    HandDealt,
    StockLaid,
    TrickWon,
)
from domain.games.sixty_six.state import CARD_POINTS
from domain.protocol import Setup, fold
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled
from tests.contract.scenario_sixty_six import cards_in_play
from tests.unit.sixty_six.helpers import (
    DECK24,
    HAND0,
    HAND1,
    act,
    deal,
    explicit_deal,
    moves,
    of_type,
    play_plainly,
    start,
)


def seeded(seed: str = "s1", dealer: int | None = 0, **options: object):
    events = GAME.start(Setup(players=2, seed=seed, dealer=dealer, options=options))
    return fold(GAME, events), events


def test_R1_1_the_pack_has_24_cards_nine_to_ace_in_four_suits() -> None:
    state, _ = seeded()
    assert sorted(cards_in_play(state)) == sorted(DECK24)
    assert len(DECK24) == 24


def test_R1_2_ten_ranks_above_king_and_ace_above_ten() -> None:
    state, _ = start(HAND0, "KC AD KH QH 9S JS", "TH")
    _, events = act(moves(state, (1, "play KC")), 0, "play TC")
    assert of_type(events, TrickWon)[0].winner == 0
    state, _ = start(HAND0, HAND1, "TH")
    _, events = act(moves(state, (1, "play AC")), 0, "play TC")
    assert of_type(events, TrickWon)[0].winner == 1


def test_R1_3_card_points_are_11_10_4_3_2_0_and_the_pack_is_worth_120() -> None:
    assert [CARD_POINTS[r] for r in "ATKQJ9"] == [11, 10, 4, 3, 2, 0]
    assert sum(CARD_POINTS[c[0]] for c in DECK24) == 120
    state, _ = start(HAND0, HAND1, "TH")
    _, events = act(moves(state, (1, "play AC")), 0, "play TC")
    assert of_type(events, TrickWon)[0].points == 21


def test_R1_4_a_higher_card_of_another_plain_suit_never_wins() -> None:
    state, _ = start(HAND0, "9C AD KH QH 9S JS", "TH")
    _, events = act(moves(state, (1, "play 9C")), 0, "play TD")
    assert of_type(events, TrickWon)[0].winner == 1


@pytest.mark.parametrize("players", [1, 3])
def test_R2_1_exactly_two_players(players: int) -> None:
    with pytest.raises(InvalidSetup):
        GAME.start(Setup(players=players, seed="x"))


def test_R2_2_an_undecided_deal_awards_nothing() -> None:
    state, _ = seeded()
    state = play_plainly(state)
    first = deal(state).turn
    state, _ = act(state, first, "pass")
    _, events = act(state, 1 - first, "pass")
    scored = of_type(events, DealScored)[0]
    assert (scored.winner, scored.reason, scored.game_points) == (None, "undecided", 0)
    assert scored.match_points == (0, 0)


def test_R2_3_the_match_starts_at_zero_points_no_carry_and_a_dealer() -> None:
    state, _ = seeded(dealer=1)
    assert state.game_points == (0, 0)
    assert state.carry_over == 0
    assert deal(state).dealer == 1


def test_R2_4_the_first_dealer_comes_from_the_seed_unless_fixed() -> None:
    _, events = seeded(seed="pick", dealer=None)
    assert events[0].dealer == seeded_choice("pick", "dealer", 2)
    _, fixed = seeded(seed="pick", dealer=1)
    assert isinstance(fixed[0], GameStarted) and fixed[0].dealer == 1


def test_R2_5_the_deal_alternates_even_after_an_undecided_deal() -> None:
    state, _ = seeded(dealer=0)
    state = play_plainly(state)
    first = deal(state).turn
    state, _ = act(state, first, "pass")
    state, events = act(state, 1 - first, "pass")
    assert of_type(events, DealStarted)[0].dealer == 1
    assert deal(state).dealer == 1 and deal(state).turn == 0


def test_R2_6_the_match_ends_when_a_seat_reaches_the_target() -> None:
    state, _ = start(HAND0, HAND1, "TH")
    state, events = act(state, 0, "declare")
    assert of_type(events, DealScored)[0].match_points == (0, 3)
    assert GAME.outcome(state) is None
    state, _ = start(HAND0, HAND1, "TH", game_target=3)
    state, _ = act(state, 0, "declare")
    assert GAME.outcome(state) == {"reason": "finished", "winners": [1], "losers": [0],
                                   "game_points": [0, 3], "deals": 1, "carry_over": 0}


def test_R3_1_three_and_three_starting_with_the_non_dealer() -> None:
    order = shuffled(DECK24, "s1", deal_label(0))
    _, events = seeded("s1", dealer=0)
    hands = {e.seat: list(e.cards) for e in of_type(events, HandDealt)}
    assert hands[1] == order[0:3] + order[6:9]
    assert hands[0] == order[3:6] + order[9:12]
    _, events = seeded("s1", dealer=1)
    hands = {e.seat: list(e.cards) for e in of_type(events, HandDealt)}
    assert hands[0] == order[0:3] + order[6:9]


def test_R3_2_the_next_card_is_the_trump_card_and_the_suit_never_changes() -> None:
    order = shuffled(DECK24, "s1", deal_label(0))
    state, events = seeded("s1")
    assert of_type(events, DealStarted)[0].trump_card == order[12]
    assert GAME.view(state, None)["trump_suit"] == order[12][1]
    state, _ = start(HAND0, HAND1, "TH", stock="9C JC")
    state = moves(state, (1, "play 9S"), (0, "play QS"), (0, "exchange"))
    assert GAME.view(state, None)["trump_suit"] == "H"
    assert GAME.view(state, None)["face_up_card"] == "9H"


def test_R3_3_the_stock_is_the_rest_top_first_with_the_trump_card_drawn_last() -> None:
    order = shuffled(DECK24, "s1", deal_label(0))
    _, events = seeded("s1")
    assert list(of_type(events, StockLaid)[0].cards) == order[13:24]
    state, _ = start(HAND0, HAND1, "TH", stock="9C JC")
    state = moves(state, (1, "play AC"), (0, "play TC"))
    _, events = act(state, 1, "draw")
    assert [(e.seat, e.card) for e in of_type(events, CardDrawn)] == [(1, "9C"), (0, "JC")]


def test_R3_4_stock_size_counts_the_trump_card_and_starts_at_12() -> None:
    state, events = seeded()
    assert of_type(events, DealStarted)[0].stock_size == 12
    assert GAME.view(state, 0)["stock_size"] == 12


def test_R3_5_an_explicit_deal_gives_hands_trump_and_stock_directly() -> None:
    state, events = start(HAND0, HAND1, "TH", stock="9C JC")
    raw = explicit_deal(HAND0, HAND1, "TH", "9C JC")
    order = deal_order(parse_deal(raw, players=2, deck=DECK24, seat_zones=("hand",),
                                  extra_zones=("trump_card",)), ("hand",), ("trump_card",))
    assert events[0].commitment == deck_commitment("test", order)
    assert events[0].explicit_deal is True
    assert deal(state).hands == (tuple(HAND0.split()), tuple(HAND1.split()))
    assert deal(state).trump_card == "TH" and deal(state).stock[:2] == ("9C", "JC")
    with pytest.raises(InvalidDeal):
        start("TC TD 9H QS KS", HAND1, "TH")
