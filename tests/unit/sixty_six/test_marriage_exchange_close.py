"""R8-R10: marriages, the trump-nine exchange and closing."""

from __future__ import annotations

from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import (
    CardDrawn,
    CardPlayed,
    DealScored,
    MarriageAnnounced,
    StockClosed,
    TrickWon,
    TrumpExchanged,
)
from tests.unit.sixty_six.helpers import (
    HAND0,
    HAND1,
    act,
    at_two_cards,
    closed_to_the_last_card,
    deal,
    legal,
    moves,
    of_type,
    rejected,
    start,
    table,
)


def test_R8_1_a_trump_marriage_is_worth_40_and_a_plain_one_20() -> None:
    _, events = act(table(), 1, "marriage KH")
    assert of_type(events, MarriageAnnounced)[0].value == 40
    state = moves(table(), (1, "play JS"), (0, "play 9H"), (0, "draw"))
    _, events = act(state, 0, "marriage KS")
    assert of_type(events, MarriageAnnounced)[0].value == 20


def test_R8_2_a_marriage_is_announced_with_its_lead_and_the_partner_is_shown() -> None:
    state, events = act(table(), 1, "marriage QH")
    assert events == [
        MarriageAnnounced(seat=1, suit="H", value=40, card="QH", shown="KH", credited=False),
        CardPlayed(seat=1, card="QH", role="lead"),
    ]
    assert "KH" in deal(state).hands[1] and "QH" not in deal(state).hands[1]
    assert GAME.view(state, 0)["opponent_known_cards"] == ["KH"]
    assert (deal(state).phase, deal(state).turn) == ("follow", 0)


def test_R8_3_a_marriage_off_lead_without_king_or_queen_or_partner_is_refused() -> None:
    following = moves(table(), (1, "play 9S"))
    rejected(following, 0, "marriage KS", "marriage_not_on_lead")
    drawing = moves(following, (0, "play QS"))
    rejected(drawing, 0, "marriage KS", "marriage_not_on_lead")
    rejected(table(), 1, "marriage AC", "marriage_card_not_king_or_queen")
    lonely, _ = start(HAND0, "AC AD KH QC 9S JS", "TH")
    rejected(lonely, 1, "marriage KH", "marriage_partner_missing")


def test_R8_4_the_first_lead_and_a_closed_stock_allow_marriages() -> None:
    assert "marriage KH" in legal(table(), 1)
    closed = moves(table(), (1, "close"))
    assert {"marriage KH", "marriage QH"} <= set(legal(closed, 1))


def test_R8_5_marriage_points_stay_pending_until_a_trick_is_won() -> None:
    state, _ = act(table(), 1, "marriage KH")
    assert (deal(state).pending[1], deal(state).points(1)) == (40, 0)
    state, events = act(state, 0, "play TC")
    assert of_type(events, TrickWon)[0].marriage_credited == 40
    assert (deal(state).pending[1], deal(state).points(1)) == (0, 54)
    later = moves(table(), (1, "play JS"), (0, "play 9H"), (0, "draw"))
    _, events = act(later, 0, "marriage KS")
    assert of_type(events, MarriageAnnounced)[0].credited is True


def _lost_marriage(**options: object):
    state, _ = start("TC TD 9H QS KS AH", "KC QC AD 9S JS 9D", "TH", **options)
    state = moves(state, (1, "marriage KC"), (0, "play 9H"))
    _, events = act(state, 0, "declare")
    return of_type(events, DealScored)[0]


def test_R8_5_pending_points_never_count_without_a_trick() -> None:
    scored = _lost_marriage()
    assert scored.points == (4, 0)
    assert (scored.winner, scored.reason, scored.base) == (1, "false_declaration", 3)


def test_R8_6_pending_or_credited_display_does_not_change_the_result() -> None:
    pending, credited = _lost_marriage(), _lost_marriage(marriage_points_need_trick=False)
    assert credited.points == (4, 20)
    assert (pending.winner, pending.base, pending.game_points) == (
        credited.winner, credited.base, credited.game_points)


def test_R8_7_the_announcer_may_declare_at_once_and_the_led_card_counts_for_nobody() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"), (1, "draw"), (1, "play AD"),
                  (0, "play TD"), (1, "draw"), (1, "marriage KH"))
    assert deal(state).points(1) == 82
    _, events = act(state, 1, "declare")
    scored = of_type(events, DealScored)[0]
    assert (scored.winner, scored.reason, scored.base, scored.points) == (
        1, "declared_out", 3, (0, 82))


def test_R8_8_a_suit_marries_once_but_other_suits_may_follow() -> None:
    state = moves(table(stock="KC 9C QC JC"), (1, "marriage KH"), (0, "play 9D"), (1, "draw"))
    rejected(state, 1, "marriage QH", "marriage_partner_missing")
    state = moves(state, (1, "play 9S"), (0, "play TD"), (1, "draw"))
    _, events = act(state, 1, "marriage QC")
    assert of_type(events, MarriageAnnounced)[0] == MarriageAnnounced(
        seat=1, suit="C", value=20, card="QC", shown="KC", credited=True)


def won_by_seat0(**options: object):
    return moves(table(**options), (1, "play 9S"), (0, "play QS"))


def test_R9_1_the_trump_nine_takes_the_trump_cards_place() -> None:
    state, events = act(won_by_seat0(), 0, "exchange")
    assert events == [TrumpExchanged(seat=0, nine="9H", taken="TH")]
    assert "TH" in deal(state).hands[0] and "9H" not in deal(state).hands[0]
    assert deal(state).under == "9H" and deal(state).stock_size == 12


def test_R9_2_the_exchange_needs_the_lead_an_open_stock_a_trick_and_the_nine() -> None:
    first, _ = start(HAND0, HAND1, "TH", dealer=1)
    rejected(first, 0, "exchange", "exchange_no_trick_won")
    rejected(moves(table(), (1, "play AC"), (0, "play TC")), 1, "exchange",
             "exchange_no_trump_nine")
    rejected(moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play 9D")), 1,
             "exchange", "exchange_not_between_tricks")
    rejected(moves(won_by_seat0(), (0, "close")), 0, "exchange", "exchange_trump_card_gone")
    assert "exchange_trump" in legal(won_by_seat0(), 0)
    assert "exchange_trump" in legal(moves(won_by_seat0(), (0, "draw")), 0)


def test_R9_3_no_exchange_while_following_after_closing_or_once_the_trump_card_is_gone() -> None:
    following = moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play 9D"),
                      (1, "play AD"), (1, "draw"), (1, "play JS"))
    rejected(following, 0, "exchange", "exchange_not_between_tricks")
    rejected(moves(won_by_seat0(), (0, "close")), 0, "exchange", "exchange_trump_card_gone")
    state = at_two_cards()
    state = moves(state, (0, "play JD"), (1, "play KD"), (1, "draw"))
    assert deal(state).under is None
    rejected(state, 1, "exchange", "exchange_trump_card_gone")


def test_R9_4_the_exchange_happens_at_most_once() -> None:
    state, _ = act(won_by_seat0(), 0, "exchange")
    assert "exchange_trump" not in legal(state, 0)
    rejected(state, 0, "exchange", "exchange_no_trump_nine")


def test_R9_5_the_exchange_is_public() -> None:
    state, events = act(won_by_seat0(), 0, "exchange")
    assert GAME.redact(events[0], 1) == GAME.codec.encode(events[0])
    view = GAME.view(state, 1)
    assert view["face_up_card"] == "9H" and view["opponent_known_cards"] == ["TH"]
    assert GAME.view(state, None)["exchange"] == {"seat": 0, "nine": "9H", "taken": "TH"}


def test_R9_6_with_two_stock_cards_left_the_exchange_is_allowed_and_the_loser_draws_the_nine(
) -> None:
    state = at_two_cards()
    assert (deal(state).stock_size, deal(state).turn, deal(state).phase) == (2, 0, "lead")
    state, _ = act(state, 0, "exchange")
    state = moves(state, (0, "play JD"), (1, "play KD"))
    _, events = act(state, 1, "draw")
    assert of_type(events, CardDrawn) == [CardDrawn(seat=1, card="AS", face_up=False),
                                          CardDrawn(seat=0, card="9H", face_up=True)]


def test_R10_1_the_next_leader_closes_after_drawing_or_instead_of_drawing() -> None:
    drawn = moves(table(), (1, "play AC"), (0, "play TC"), (1, "draw"))
    _, events = act(drawn, 1, "close")
    assert events == [StockClosed(seat=1, before_draw=False, stock_size=10,
                                  opponent_had_trick_at_close=False)]
    _, events = act(moves(table(), (1, "play AC"), (0, "play TC")), 1, "close")
    assert events[0].before_draw is True and events[0].stock_size == 12


def test_R10_2_the_non_dealer_may_close_before_the_first_lead() -> None:
    _, events = act(table(), 1, "close")
    assert events == [StockClosed(seat=1, before_draw=False, stock_size=12,
                                  opponent_had_trick_at_close=False)]


def test_R10_3_after_closing_nobody_draws_strict_rules_hold_and_no_bonus() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"), (1, "close"))
    assert [len(h) for h in deal(state).hands] == [5, 5]
    state = moves(state, (1, "play AD"), (0, "play TD"))
    assert deal(state).phase == "lead"
    state = moves(state, (1, "play 9S"))
    rejected(state, 0, "play 9D", "must_follow_suit")
    state = moves(state, (0, "play QS"), (0, "play KS"), (1, "play JS"), (0, "play 9H"),
                  (1, "play QH"), (1, "play KH"), (0, "play 9D"))
    assert deal(state).phase == "end_window"
    assert deal(state).bonus == (0, 0)


def test_R10_4_the_close_records_whether_the_opponent_had_a_trick() -> None:
    state = moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play 9D"),
                  (1, "play AD"))
    state, events = act(state, 1, "close")
    assert events[0].opponent_had_trick_at_close is True
    assert deal(state).closed_by == 1 and deal(state).opponent_had_trick_at_close is True
    view = GAME.view(state, 0)
    assert view["opponent_had_trick_at_close"] is True
    assert (view["stock"], view["closed_by"], view["closed_before_draw"]) == ("closed", 1, True)
    assert (view["closed_at_stock_size"], view["face_up_card"], view["trump_card"]) == (
        10, None, "TH")


def test_R10_5_closing_commits_the_closer_to_reach_66() -> None:
    state = moves(closed_to_the_last_card(), (0, "play 9D"), (1, "pass"))
    _, events = act(state, 0, "pass")
    scored = of_type(events, DealScored)[0]
    assert scored.points == (9, 49)
    assert (scored.winner, scored.reason, scored.deemed, scored.base) == (
        0, "closer_failed", True, 3)


def test_R10_6_the_stock_closes_once_and_only_by_the_next_leader() -> None:
    state = moves(table(), (1, "close"))
    rejected(state, 1, "close", "close_stock_not_open")
    following = moves(table(), (1, "play AC"))
    rejected(following, 0, "close", "close_not_on_lead")
    rejected(following, 1, "close", "not_your_turn")


def test_the_view_shows_the_trump_card_as_it_lies_after_an_exchange() -> None:
    state, _ = act(won_by_seat0(), 0, "exchange")
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert (view["trump_card"], view["face_up_card"]) == ("9H", "9H")


def test_the_views_to_act_is_the_seat_whose_turn_it_is() -> None:
    state = won_by_seat0()
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["to_act"] == [view["turn"]] == [deal(state).turn]
    assert {"type": "declare_out"} in GAME.legal_actions(state, 1 - deal(state).turn)
