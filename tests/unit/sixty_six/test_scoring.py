"""R11-R14: points, declaring out, the end of play and scoring across deals."""

from __future__ import annotations

from typing import Any

from domain.frozen import copy_with
from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import DealScored, DealStarted, HandDealt, MatchEnded, TrickWon
from domain.games.sixty_six.scoring import judge_declaration
from domain.shuffle import deal_label, shuffled
from tests.unit.sixty_six.helpers import (
    DECK24,
    HAND0,
    HAND1,
    act,
    closed_by_weak_seat,
    closed_to_the_last_card,
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

# Seeded deals played plainly (never closing) end with these points, seat 0 / seat 1:
#   "a": 71 / 59, last trick to seat 0;  "e": 26 / 104, last trick to seat 1.


def test_R11_1_points_are_tricks_plus_credited_marriages_plus_the_bonus() -> None:
    state, _ = act(table(), 1, "marriage KH")
    assert deal(state).points(1) == 0
    state, _ = act(state, 0, "play TC")
    assert deal(state).points(1) == 4 + 10 + 40
    state = plain("a")
    assert deal(state).points(0) == deal(state).card_points[0] + 10 == 71


def test_R11_2_the_service_keeps_both_totals_and_a_view_shows_only_ones_own() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"))
    view0 = GAME.view(state, 0)
    assert view0["points"] == 0 and "points" not in view0["seats"][1]
    assert GAME.view(state, 1)["points"] == 21
    assert [s["points"] for s in GAME.reveal(state)["seats"]] == [0, 21]


def test_R11_3_the_last_trick_scores_10_only_in_a_deal_never_closed() -> None:
    state = plain("e")
    assert deal(state).bonus == (0, 10)
    closed = closed_to_the_last_card()
    _, events = act(closed, 0, "play 9D")
    assert of_type(events, TrickWon)[0].last_trick_bonus == 0


def test_R11_4_an_unclosed_deal_played_out_totals_130_plus_marriages() -> None:
    for seed in ("a", "e", "x"):
        d = deal(plain(seed))
        assert d.points(0) + d.points(1) == 130 + sum(d.marriage_points)


def test_R12_1_declaring_ends_the_deal_at_once_and_an_open_trick_counts_for_nobody() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"))
    assert "declare_out" in legal(state, 0) and "declare_out" in legal(state, 1)
    state, _ = act(moves(state, (1, "draw")), 1, "play AD")
    state, events = act(state, 0, "declare")
    assert scored(events).points == (0, 21)
    assert deal(state).number == 1 and deal(state).phase == "lead"


def test_R12_2_the_declaration_is_judged_on_points_and_tricks_at_that_moment() -> None:
    state = moves(table(), (1, "play AC"), (0, "play TC"))
    _, events = act(state, 1, "declare")
    result = scored(events)
    assert (result.points, result.tricks) == ((0, 21), (0, 1))
    assert (result.winner, result.reason, result.base) == (0, "false_declaration", 3)


def _eighty_two(opponent_trick: bool):
    state = table()
    if opponent_trick:
        state = moves(state, (1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play TC"),
                      (1, "play AC"), (1, "draw"))
    else:
        state = moves(state, (1, "play AC"), (0, "play TC"), (1, "draw"))
    state = moves(state, (1, "play AD"), (0, "play TD"), (1, "draw"), (1, "marriage KH"))
    return act(state, 1, "declare")[1]


def test_R12_3_a_correct_declaration_scores_3_2_or_1() -> None:
    assert scored(_eighty_two(False)).base == 3
    two = scored(_eighty_two(True))
    assert (two.winner, two.base, two.points, two.tricks) == (1, 2, (3, 82), (1, 2))
    state = plain("a")
    _, events = act(state, 0, "declare")
    assert (scored(events).winner, scored(events).base, scored(events).points) == (0, 1, (71, 59))


def test_R12_4_a_false_declaration_pays_2_or_3_if_either_seat_has_no_trick() -> None:
    _, events = act(table(), 0, "declare")
    assert (scored(events).winner, scored(events).base) == (1, 3)
    both = moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play TC"),
                 (1, "play AC"))
    _, events = act(both, 0, "declare")
    assert (scored(events).winner, scored(events).reason, scored(events).base) == (
        1, "false_declaration", 2)


def test_R12_5_a_failed_close_pays_3_if_the_opponent_had_no_trick_at_closing_else_2() -> None:
    _, events = act(moves(table(), (1, "close")), 1, "declare")
    assert (scored(events).winner, scored(events).reason, scored(events).base) == (
        0, "closer_failed", 3)
    state = moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play 9D"),
                  (1, "play AD"), (1, "close"))
    _, events = act(state, 1, "declare")
    assert (scored(events).winner, scored(events).reason, scored(events).base) == (
        0, "closer_failed", 2)


def test_R12_6_the_closers_opponent_declaring_out_is_scored_normally() -> None:
    result = scored(closed_by_weak_seat())
    assert (result.winner, result.reason, result.base, result.points) == (
        0, "declared_out", 2, (68, 6))
    assert result.opponent_had_trick_at_close is False


def test_R12_7_the_winner_scores_the_base_plus_the_carry_over() -> None:
    state = plain("a")
    state = moves(state, (0, "pass"), (1, "pass"))
    assert state.carry_over == 1
    state, events = act(state, deal(state).turn, "declare")
    result = scored(events)
    assert (result.base, result.carry_over_applied, result.game_points) == (3, 1, 4)


def test_R13_1_the_last_trick_winner_speaks_first_the_other_may_declare_anytime() -> None:
    state = plain("a")
    assert (deal(state).phase, deal(state).turn) == ("end_window", 0)
    assert legal(state, 0) == ["pass", "declare_out"]
    assert legal(state, 1) == ["declare_out"]
    rejected(state, 1, "pass", "not_your_turn")
    after, _ = act(state, 0, "pass")
    assert legal(after, 1) == ["pass", "declare_out"]
    _, events = act(state, 1, "declare")
    assert (scored(events).winner, scored(events).base) == (0, 2)


def test_R13_2_a_declaration_in_the_window_is_scored_by_R12() -> None:
    _, events = act(plain("e"), 1, "declare")
    assert (scored(events).winner, scored(events).reason, scored(events).base) == (
        1, "declared_out", 2)


def test_R13_3_after_two_passes_the_closer_is_deemed_to_declare() -> None:
    state = moves(closed_to_the_last_card(), (0, "play 9D"), (1, "pass"))
    _, events = act(state, 0, "pass")
    result = scored(events)
    assert (result.winner, result.reason, result.deemed) == (0, "closer_failed", True)


def test_R13_4_two_passes_in_a_deal_never_closed_leave_it_undecided() -> None:
    state = moves(plain("e"), (1, "pass"))
    state, events = act(state, 0, "pass")
    assert (scored(events).winner, scored(events).reason, scored(events).game_points) == (
        None, "undecided", 0)
    assert state.carry_over == 1 and state.game_points == (0, 0)


def test_R13_5_a_seat_with_66_may_pass_and_is_never_declared_for() -> None:
    state = plain("a")
    assert deal(state).points(0) == 71
    state, events = act(state, 0, "pass")
    assert not of_type(events, DealScored)
    _, events = act(state, 1, "pass")
    assert scored(events).reason == "undecided"


def test_R14_1_a_decided_deal_pays_base_plus_carry_and_resets_the_carry() -> None:
    state = moves(plain("a"), (0, "pass"), (1, "pass"))
    state, events = act(state, 0, "declare")
    assert scored(events).game_points == 3 + 1
    assert state.carry_over == 0 and state.game_points == (0, 4)


def test_R14_2_undecided_deals_accumulate_the_carry_over() -> None:
    state = moves(plain("a"), (0, "pass"), (1, "pass"))
    state = play_plainly(state)
    first = deal(state).turn
    state, events = act(moves(state, (first, "pass")), 1 - first, "pass")
    assert state.carry_over == 2
    assert of_type(events, DealStarted)[0].carry_over == 2


def test_R14_3_game_points_add_up_and_the_match_ends_at_the_target() -> None:
    state, _ = start(HAND0, HAND1, "TH", game_target=5)
    state, _ = act(state, 0, "declare")
    assert state.game_points == (0, 3)
    state, events = act(state, deal(state).turn, "declare")
    assert state.game_points == (0, 6)
    assert events[-1] == MatchEnded(winner=1, match_points=(0, 6))
    assert GAME.outcome(state)["winners"] == [1]


def test_R14_4_the_next_deal_is_dealt_by_the_other_seat_from_the_seed() -> None:
    state, events = act(table(), 0, "declare")
    order = shuffled(DECK24, "test", deal_label(1))
    assert of_type(events, DealStarted)[0].dealer == 1
    hands = {e.seat: list(e.cards) for e in of_type(events, HandDealt)}
    assert hands[0] == order[0:3] + order[6:9] and hands[1] == order[3:6] + order[9:12]
    assert deal(state).trump_card == order[12] and deal(state).turn == 0


def _at(card_points: tuple[int, int], won: tuple[int, int]) -> tuple[Any, Any]:
    state = table()
    return copy_with(deal(state), card_points=card_points, won=won), state.rules


def test_R12_3_exactly_66_may_declare_and_an_opponent_at_exactly_33_is_not_under_33() -> None:
    at_66, rules = _at((66, 33), (3, 2))
    assert judge_declaration(at_66, rules, 0) == (0, "declared_out", 1)
    under, rules = _at((66, 32), (3, 2))
    assert judge_declaration(under, rules, 0) == (0, "declared_out", 2)
    short, rules = _at((65, 33), (3, 2))
    assert judge_declaration(short, rules, 0)[1] == "false_declaration"


def test_R11_a_trick_of_two_nines_scores_nothing_but_is_a_trick() -> None:
    state, _ = start("9D TC TD QS KS 9C", "9S AC AD KH QH JS", "TH")
    state = moves(state, (1, "play 9S"), (0, "play 9D"))
    assert deal(state).won == (0, 1) and deal(state).card_points == (0, 0)
    # Seat 0 reaches 66 later: the opponent's only trick is worth nothing yet is a trick,
    # so the declaration is worth 2 (under 33 points), not 3 (no trick at all).
    reached = copy_with(deal(state), card_points=(66, 0), won=(5, 1))
    assert judge_declaration(reached, state.rules, 0) == (0, "declared_out", 2)
