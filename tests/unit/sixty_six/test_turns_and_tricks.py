"""R4-R6: states and turns, tricks, drawing."""

from __future__ import annotations

from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import (
    CardDrawn,
    CardPlayed,
    CardsDrawn,
    DealScored,
    DeclaredOut,
    StockClosed,
    TrickWon,
)
from tests.unit.sixty_six.helpers import (
    HAND0,
    HAND1,
    act,
    deal,
    legal,
    moves,
    of_type,
    rejected,
    table,
)


def test_R4_1_the_non_dealer_leads_the_first_trick() -> None:
    state = table()
    assert (deal(state).phase, deal(state).turn) == ("lead", 1)
    assert legal(state, 0) == ["declare_out"]
    assert "play AC" in legal(state, 1)


def test_R4_2_exchange_then_close_then_one_lead() -> None:
    state = moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"))
    state, _ = act(state, 0, "exchange")
    assert (deal(state).phase, deal(state).turn) == ("lead", 0)
    state, _ = act(state, 0, "close")
    rejected(state, 0, "exchange", "exchange_trump_card_gone")
    rejected(state, 0, "close", "close_stock_not_open")
    state, _ = act(state, 0, "play TH")
    assert (deal(state).phase, deal(state).turn) == ("follow", 1)


def test_R4_3_after_the_lead_the_other_seat_follows() -> None:
    state, events = act(table(), 1, "play AC")
    assert events == [CardPlayed(seat=1, card="AC", role="lead")]
    assert (deal(state).phase, deal(state).turn) == ("follow", 0)


def test_R4_4_the_follower_plays_one_card_and_the_trick_is_resolved() -> None:
    state = moves(table(), (1, "play AC"))
    _, events = act(state, 0, "play TC")
    assert events == [
        CardPlayed(seat=0, card="TC", role="follow"),
        TrickWon(winner=1, cards=("AC", "TC"), points=21, tricks=(0, 1), marriage_credited=0,
                 last_trick_bonus=0),
    ]


def test_R4_5_after_a_trick_draw_if_open_else_lead_else_end_window() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"))
    assert (deal(state).phase, deal(state).turn) == ("draw", 1)
    state = moves(table(), (1, "close"), (1, "play AC"), (0, "play TC"))
    assert (deal(state).phase, deal(state).turn) == ("lead", 1)
    state = moves(state, (1, "play AD"), (0, "play TD"), (1, "play KH"), (0, "play 9H"),
                  (1, "play QH"), (0, "play 9D"), (1, "play 9S"), (0, "play QS"),
                  (0, "play KS"), (1, "play JS"))
    assert (deal(state).phase, deal(state).turn) == ("end_window", 0)


def test_R4_6_the_trick_winner_draws_or_closes_and_may_not_lead_first() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"))
    assert legal(state, 1) == ["close", "draw", "declare_out"]
    rejected(state, 1, "play AD", "must_draw_or_close")
    drawn, _ = act(state, 1, "draw")
    assert (deal(drawn).phase, deal(drawn).turn, len(deal(drawn).hands[1])) == ("lead", 1, 6)
    closed, events = act(state, 1, "close")
    assert events == [StockClosed(seat=1, before_draw=True, stock_size=12,
                                  opponent_had_trick_at_close=False)]
    assert (deal(closed).phase, deal(closed).turn, len(deal(closed).hands[1])) == ("lead", 1, 5)


def test_R4_6_the_trick_winner_may_exchange_before_drawing() -> None:
    state = moves(table(), (1, "play 9S"), (0, "play QS"))
    assert legal(state, 0) == ["exchange_trump", "close", "draw", "declare_out"]


def test_R4_7_either_seat_may_declare_in_any_live_state() -> None:
    state = moves(table(), (1, "play AC"))
    assert GAME.seats_to_act(state) == (0, 1)
    assert legal(state, 1) == ["declare_out"]
    _, events = act(state, 1, "declare")
    assert events[0] == DeclaredOut(seat=1)
    assert of_type(events, DealScored)[0].reason == "false_declaration"


def test_R4_8_a_seat_out_of_turn_is_refused_and_nothing_changes() -> None:
    state = table()
    before = state
    rejected(state, 0, "play TC", "not_your_turn")
    rejected(state, 0, "close", "not_your_turn")
    rejected(state, 1, {"type": "shuffle"}, "unknown_action")
    assert state == before


def test_R4_9_the_trick_winner_leads_next_after_drawing() -> None:
    state = moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"))
    assert (deal(state).phase, deal(state).turn) == ("lead", 0)
    assert legal(state, 1) == ["declare_out"]


def test_R5_1_a_trick_is_one_lead_and_one_follow() -> None:
    _, events = act(moves(table(), (1, "play JS")), 0, "play 9D")
    assert of_type(events, TrickWon)[0].cards == ("JS", "9D")


def test_R5_2_while_the_stock_is_open_the_follower_may_play_anything() -> None:
    state = moves(table(), (1, "play AC"))
    assert sorted(legal(state, 0)) == sorted(
        ["declare_out"] + [f"play {c}" for c in HAND0.split()])


def test_R5_3_after_closing_the_leader_may_still_lead_any_card() -> None:
    state = moves(table(), (1, "close"))
    plays = [a for a in legal(state, 1) if a.startswith("play")]
    assert sorted(plays) == sorted(f"play {c}" for c in HAND1.split())


def test_R5_4_same_suit_higher_wins_trump_beats_plain_else_the_leader_wins() -> None:
    cases = [("AC", "TC", 1), ("9S", "QS", 0), ("AC", "9H", 0), ("AD", "KS", 1),
             ("KH", "9D", 1)]
    for lead, follow, winner in cases:
        _, events = act(moves(table(), (1, f"play {lead}")), 0, f"play {follow}")
        assert of_type(events, TrickWon)[0].winner == winner, (lead, follow)


def test_R5_5_the_winner_takes_the_trick_count_and_the_card_points() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"))
    assert deal(state).won == (0, 1)
    assert deal(state).points(1) == 21 and deal(state).points(0) == 0
    assert deal(state).tricks == ((1, "AC", "TC"),)


def test_R6_1_the_stock_is_open_until_closed_or_empty_and_its_size_is_even() -> None:
    state = table()
    sizes = []
    while deal(state).stock_open:
        leader = deal(state).turn
        card = deal(state).hands[leader][0]
        state, _ = act(state, leader, f"play {card}")
        state, _ = act(state, 1 - leader, f"play {deal(state).hands[1 - leader][0]}")
        if deal(state).phase == "draw":
            state, _ = act(state, deal(state).turn, "draw")
        sizes.append(deal(state).stock_size)
    assert sizes == [10, 8, 6, 4, 2, 0]
    assert GAME.view(state, None)["stock"] == "exhausted"
    closed = moves(table(), (1, "close"))
    assert not deal(closed).stock_open and GAME.view(closed, None)["stock"] == "closed"


def test_R6_2_the_winner_draws_the_top_card_then_the_loser() -> None:
    state = moves(table(), (1, "play 9S"), (0, "play QS"))
    state, events = act(state, 0, "draw")
    assert events == [
        CardDrawn(seat=0, card="9C", face_up=False),
        CardDrawn(seat=1, card="JC", face_up=False),
        CardsDrawn(stock_size=10, trump_taken_by=None, automatic=False),
    ]
    assert len(deal(state).hands[0]) == len(deal(state).hands[1]) == 6


def _to_last_draw():
    state = table()
    for _ in range(5):
        leader = deal(state).turn
        state, _ = act(state, leader, f"play {deal(state).hands[leader][0]}")
        state, _ = act(state, 1 - leader, f"play {deal(state).hands[1 - leader][0]}")
        state, _ = act(state, deal(state).turn, "draw")
    leader = deal(state).turn
    state, _ = act(state, leader, f"play {deal(state).hands[leader][0]}")
    return act(state, 1 - leader, f"play {deal(state).hands[1 - leader][0]}")[0]


def test_R6_3_at_the_last_draw_the_loser_takes_the_face_up_trump_card() -> None:
    state = _to_last_draw()
    assert deal(state).stock_size == 2
    winner = deal(state).turn
    state, events = act(state, winner, "draw")
    assert events == [
        CardDrawn(seat=winner, card="AS", face_up=False),
        CardDrawn(seat=1 - winner, card="TH", face_up=True),
        CardsDrawn(stock_size=0, trump_taken_by=1 - winner, automatic=False),
    ]
    assert deal(state).stock_size == 0 and "TH" in deal(state).hands[1 - winner]
    assert GAME.view(state, winner)["opponent_known_cards"] == ["TH"]


def test_R6_4_drawing_is_one_atomic_step_for_both_seats() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"))
    _, events = act(state, 1, "draw")
    assert [type(e) for e in events] == [CardDrawn, CardDrawn, CardsDrawn]


def test_R6_5_a_drawn_card_is_seen_only_by_its_drawer_but_the_trump_card_is_public() -> None:
    hidden = CardDrawn(seat=0, card="9C", face_up=False)
    assert GAME.redact(hidden, 0)["card"] == "9C"
    assert GAME.redact(hidden, 1)["card"] is None
    assert GAME.redact(hidden, None)["card"] is None
    trump = CardDrawn(seat=1, card="TH", face_up=True)
    assert GAME.redact(trump, 0)["card"] == "TH"


def test_R6_6_once_the_stock_is_exhausted_nobody_draws_and_strict_rules_apply() -> None:
    state = _to_last_draw()
    state, _ = act(state, deal(state).turn, "draw")
    leader = deal(state).turn
    hand = deal(state).hands[1 - leader]
    lead = next(c for c in deal(state).hands[leader]
                if any(h[1] == c[1] for h in hand) and c[1] != "H")
    state, _ = act(state, leader, f"play {lead}")
    follows = {a.split()[1] for a in legal(state, 1 - leader) if a.startswith("play")}
    assert follows and all(c[1] == lead[1] for c in follows)
    state, _ = act(state, 1 - leader, f"play {sorted(follows)[0]}")
    assert deal(state).phase == "lead"
    rejected(state, deal(state).turn, "draw", "draw_not_expected")
