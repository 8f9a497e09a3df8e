"""§17: every option changes exactly what it says."""

from __future__ import annotations

import pytest

from domain.errors import InvalidOptions
from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import (
    CardDrawn,
    CardsDrawn,
    DealScored,
    DealStarted,
    GameAborted,
    HandDealt,
    MarriageAnnounced,
    StockLaid,
    TrickWon,
    TrumpExchanged,
)
from domain.protocol import Setup, fold
from domain.shuffle import deal_label, shuffled
from tests.unit.sixty_six.helpers import (
    DECK20,
    HAND0,
    HAND1,
    act,
    at_two_cards,
    closed_by_weak_seat,
    deal,
    legal,
    moves,
    of_type,
    plain,
    play_plainly,
    rejected,
    scored,
    start,
    table,
)


def test_every_option_is_recorded_with_its_default_in_game_started() -> None:
    events = GAME.start(Setup(players=2, seed="o"))
    assert events[0].options == {o.name: o.default for o in GAME.options}
    with pytest.raises(InvalidOptions):
        GAME.start(Setup(players=2, seed="o", options={"exchange_min_stock": 3}))
    with pytest.raises(InvalidOptions):
        GAME.start(Setup(players=2, seed="o", options={"no_such_option": 1}))


def test_option_game_target_sets_the_winning_total() -> None:
    state, _ = act(table(game_target=3), 0, "declare")
    assert GAME.outcome(state)["winners"] == [1]
    state, _ = act(table(), 0, "declare")
    assert GAME.outcome(state) is None


def test_option_last_trick_bonus_zero_disables_the_bonus() -> None:
    d = deal(plain("e", last_trick_bonus=0))
    assert d.bonus == (0, 0) and d.points(0) + d.points(1) == 120


def test_option_marriage_points_need_trick_false_credits_at_once() -> None:
    state, events = act(table(marriage_points_need_trick=False), 1, "marriage KH")
    assert of_type(events, MarriageAnnounced)[0].credited is True
    assert deal(state).points(1) == 40 and deal(state).pending == (0, 0)


def test_option_marriage_in_strict_phase_false_forbids_marriages_after_closing() -> None:
    state = moves(table(marriage_in_strict_phase=False), (1, "close"))
    assert not [a for a in legal(state, 1) if a.startswith("marriage")]
    rejected(state, 1, "marriage KH", "marriage_not_in_strict_phase")
    assert "marriage KH" in legal(table(marriage_in_strict_phase=False), 1)


def test_option_exchange_requires_trick_false_allows_an_exchange_before_any_trick() -> None:
    state = table(dealer=1, exchange_requires_trick=False)
    _, events = act(state, 0, "exchange")
    assert events == [TrumpExchanged(seat=0, nine="9H", taken="TH")]


def test_option_exchange_timing_any_own_turn_lets_the_follower_exchange() -> None:
    steps = [(1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play 9D"), (1, "play AD"),
             (1, "draw"), (1, "play JS")]
    state = moves(table(exchange_timing="any_own_turn"), *steps)
    state, _ = act(state, 0, "exchange")
    assert (deal(state).phase, deal(state).turn, deal(state).under) == ("follow", 0, "9H")
    rejected(moves(table(), *steps), 0, "exchange", "exchange_not_between_tricks")


def test_option_exchange_min_stock_4_forbids_the_exchangeat_two_cards() -> None:
    rejected(at_two_cards(exchange_min_stock=4), 0, "exchange", "exchange_trump_card_gone")
    assert "exchange_trump" in legal(at_two_cards(), 0)


def test_option_close_on_first_lead_false_needs_a_completed_trick() -> None:
    rejected(table(close_on_first_lead=False), 1, "close", "close_first_lead_forbidden")
    state = moves(table(close_on_first_lead=False), (1, "play AC"), (0, "play TC"))
    assert "close" in legal(state, 1)


def test_option_close_before_draw_false_draws_automatically_and_closes_only_on_lead() -> None:
    state = moves(table(close_before_draw=False), (1, "play AC"))
    state, events = act(state, 0, "play TC")
    assert events[-3:] == [CardDrawn(seat=1, card="9C", face_up=False),
                           CardDrawn(seat=0, card="JC", face_up=False),
                           CardsDrawn(stock_size=10, trump_taken_by=None, automatic=True)]
    assert (deal(state).phase, deal(state).turn) == ("lead", 1)
    assert legal(state, 1)[-2:] == ["close", "declare_out"]
    rejected(state, 1, "draw", "draw_not_expected")
    _, events = act(state, 1, "close")
    assert events[0].before_draw is False


def test_option_must_head_trick_false_only_follow_suit() -> None:
    state, _ = start("AC 9C KD 9H KH QD", "QC AS KS AD QH JS", "TH", must_head_trick=False)
    state = moves(state, (1, "close"), (1, "play QC"))
    act(state, 0, "play 9C")
    rejected(state, 0, "play KD", "must_follow_suit")  # following suit is still the rule
    rejected(state, 0, "play 9H", "must_follow_suit")  # and so is not trumping instead


def test_option_must_trump_when_void_false_lets_a_void_follower_discard() -> None:
    state, _ = start("AC 9C KD 9H KH QD", "QC AS KS AD QH JS", "TH",
                     must_trump_when_void=False)
    state = moves(state, (1, "close"), (1, "play AS"))
    act(state, 0, "play KD")


def test_option_false_declaration_points_flat2_always_pays_2() -> None:
    _, events = act(table(false_declaration_points="flat2"), 0, "declare")
    assert (scored(events).winner, scored(events).base) == (1, 2)
    _, events = act(moves(table(false_declaration_points="flat2"), (1, "close")), 1, "declare")
    assert (scored(events).reason, scored(events).base) == ("closer_failed", 3)


def test_option_closed_opponent_declare_failed_close_value() -> None:
    result = scored(closed_by_weak_seat(closed_opponent_declare="failed_close_value"))
    assert (result.winner, result.reason, result.base) == (0, "declared_out", 3)


def test_option_carry_over_undecided_false_adds_nothing() -> None:
    state = moves(plain("a", carry_over_undecided=False), (0, "pass"))
    state, events = act(state, 1, "pass")
    assert scored(events).reason == "undecided"
    assert state.carry_over == 0 and of_type(events, DealStarted)[0].carry_over == 0


def test_option_dealer_rotation_winner_deals() -> None:
    _, events = act(table(dealer_rotation="winner_deals"), 1, "declare")
    assert of_type(events, DealStarted)[0].dealer == 0
    _, events = act(table(), 1, "declare")
    assert of_type(events, DealStarted)[0].dealer == 1
    state = moves(plain("a", dealer_rotation="winner_deals"), (0, "pass"))
    _, events = act(state, 1, "pass")
    assert of_type(events, DealStarted)[0].dealer == 1


def test_option_declare_timing_own_turn_only_the_seat_to_act_declares() -> None:
    state = table(declare_timing="own_turn")
    assert GAME.seats_to_act(state) == (1,)
    assert legal(state, 0) == []
    rejected(state, 0, "declare", "not_your_turn")
    act(state, 1, "declare")
    following = moves(state, (1, "play AC"))
    assert GAME.seats_to_act(following) == (0,)
    act(following, 0, "declare")


def test_option_deck20_deals_five_cards_from_twenty_and_exchanges_the_jack() -> None:
    events = GAME.start(Setup(players=2, seed="d20", dealer=0, options={"deck20": True}))
    order = shuffled(DECK20, "d20", deal_label(0))
    hands = {e.seat: list(e.cards) for e in of_type(events, HandDealt)}
    assert hands[1] == order[0:3] + order[6:8] and hands[0] == order[3:6] + order[8:10]
    assert of_type(events, DealStarted)[0].trump_card == order[10]
    assert of_type(events, DealStarted)[0].stock_size == 10
    assert list(of_type(events, StockLaid)[0].cards) == order[11:20]
    state, _ = start("TC TD JH QS KS", "AC AD KH QH JS", "TH", deck20=True)
    state = moves(state, (1, "play JS"), (0, "play QS"))
    _, events = act(state, 0, "exchange")
    assert events == [TrumpExchanged(seat=0, nine="JH", taken="TH")]


def test_option_deck20_has_ten_tricks_and_the_bonus_on_the_tenth() -> None:
    state = fold(GAME, GAME.start(Setup(players=2, seed="d", options={"deck20": True})))
    tricks: list[TrickWon] = []
    while deal(state).phase != "end_window":
        choices = [(s, a) for s in GAME.seats_to_act(state) for a in GAME.legal_actions(state, s)]
        seat, a = next((s, a) for s, a in choices if a["type"] in ("draw", "play"))
        events = GAME.decide(state, seat, a)
        tricks += of_type(events, TrickWon)
        state = fold(GAME, events, state)
    assert len(tricks) == 10
    assert [t.last_trick_bonus for t in tricks] == [0] * 9 + [10]
    assert deal(state).points(0) + deal(state).points(1) == 130


def test_option_score_visibility_both_and_none() -> None:
    state = moves(table(score_visibility="both"), (1, "play AC"), (0, "play TC"))
    assert [s["points"] for s in GAME.view(state, 0)["seats"]] == [0, 21]
    state = moves(table(score_visibility="none"), (1, "play AC"), (0, "play TC"))
    view = GAME.view(state, 1)
    assert "points" not in view and all("points" not in s for s in view["seats"])


def test_option_won_tricks_visibility_all_lists_every_trick() -> None:
    steps = [(1, "play AC"), (0, "play TC"), (1, "draw"), (1, "play AD"), (0, "play TD")]
    state = moves(table(won_tricks_visibility="all"), *steps)
    assert GAME.view(state, 0)["tricks"] == [{"winner": 1, "cards": ["AC", "TC"]},
                                             {"winner": 1, "cards": ["AD", "TD"]}]
    default = GAME.view(moves(table(), *steps), 0)
    assert default["tricks"] is None
    assert default["last_trick"] == {"winner": 1, "cards": ["AD", "TD"]}


def test_option_reveal_at_deal_end_shows_unplayed_cards_in_the_result() -> None:
    _, events = act(table(reveal_at_deal_end=True), 0, "declare")
    result = scored(events)
    assert result.hands == (tuple(HAND0.split()), tuple(HAND1.split()))
    assert result.stock is not None and result.stock[-1] == "TH" and len(result.stock) == 12
    _, events = act(table(), 0, "declare")
    assert scored(events).hands is None and scored(events).stock is None


def test_option_action_limit_ends_the_match_with_no_loser() -> None:
    state = moves(table(action_limit=3), (1, "play AC"), (0, "play TC"))
    state, events = act(state, 1, "draw")
    assert events[-1] == GameAborted(reason="action_limit", actions=3)
    assert GAME.outcome(state) == {"reason": "action_limit", "winners": [], "losers": [],
                                   "game_points": [0, 0], "deals": 0, "carry_over": 0}
    assert GAME.seats_to_act(state) == () and legal(state, 1) == []
    rejected(state, 1, "play AD", "deal_over")


def test_a_deal_result_is_shown_in_the_next_deals_view() -> None:
    state, _ = act(table(), 0, "declare")
    result = GAME.view(state, 1)["last_deal_result"]
    assert (result["winner"], result["reason"], result["base"]) == (1, "false_declaration", 3)
    assert isinstance(of_type(act(table(), 0, "declare")[1], DealScored)[0], DealScored)
    assert play_plainly(state).deal is not None
