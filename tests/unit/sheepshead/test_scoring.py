"""Scoring a normal hand (R9) and invariants (R15)."""

from __future__ import annotations

import random

import pytest

from domain.games.sheepshead import GAME
from domain.games.sheepshead.scoring import labels
from domain.playout import play_out
from domain.protocol import Setup, fold

from .helpers import STRONG, STRONG_BLIND, pick_and_bury, play_first_legal, scored, start
from .scoring_helpers import score

ROWS = [
    (120, 6, "win_all_tricks", (6, 3, -3, -3, -3)),
    (100, 5, "win_91_plus", (4, 2, -2, -2, -2)),
    (70, 3, "win_61_90", (2, 1, -1, -1, -1)),
    (45, 2, "lose_31_60", (-2, -1, 1, 1, 1)),
    (10, 1, "lose_0_30", (-4, -2, 2, 2, 2)),
    (0, 0, "lose_no_tricks", (-12, -6, 6, 6, 6)),
]


def test_R9_1_the_team_is_picker_and_partner() -> None:
    result = score(70, 3)
    assert (result.picker, result.partner) == (0, 1)


def test_R9_2_team_tricks_counts_both_members() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    _, events = play_first_legal(state)
    assert scored(events).team_tricks == 6


def test_R9_3_team_points_include_the_buried_cards() -> None:
    result = score(65, 3, buried=("AC", "TC"))
    assert result.team_points == 65 and result.row == "win_61_90"


@pytest.mark.parametrize(("points", "tricks", "row", "scores"), ROWS)
def test_R9_4_the_first_matching_row(
    points: int, tricks: int, row: str, scores: tuple[int, ...]
) -> None:
    assert score(points, tricks).row == row


@pytest.mark.parametrize(("points", "tricks", "row", "scores"), ROWS)
def test_R9_5_the_seed_score_table(
    points: int, tricks: int, row: str, scores: tuple[int, ...]
) -> None:
    assert score(points, tricks).scores == scores


def test_R9_6_alone_doubles_the_picker_only() -> None:
    expected = [12, 8, 4, -4, -8, -24]
    for (points, tricks, _, _), picker in zip(ROWS, expected, strict=True):
        result = score(points, tricks, alone=True)
        assert result.scores[0] == picker
        assert result.scores[1:] == (-picker // 4,) * 4


def test_R9_7_the_general_formula() -> None:
    result = score(45, 2, players=6, options={"six_hand_mode": "all_play"})
    assert result.scores == (-3, -1, 1, 1, 1, 1)


def test_R9_8_every_hand_is_zero_sum() -> None:
    for points, tricks, _, _ in ROWS:
        for alone in (False, True):
            assert sum(score(points, tricks, alone=alone).scores) == 0


def test_R9_9_sixty_one_wins_and_sixty_loses() -> None:
    assert score(61, 3).scores == (2, 1, -1, -1, -1)
    assert score(60, 3).scores == (-2, -1, 1, 1, 1)
    assert score(90, 3).scores[0] == 2 and score(91, 3).scores[0] == 4
    assert score(31, 3).scores[0] == -2 and score(30, 3).scores[0] == -4


def test_R9_10_buried_points_never_avoid_no_tricks_and_120_with_a_lost_trick_is_91_plus() -> None:
    assert score(21, 0, buried=("AD", "TD")).row == "lose_no_tricks"
    assert score(120, 5).row == "win_91_plus"


def test_R9_11_schneider_and_schwarz_names() -> None:
    assert labels("win_91_plus") == ("defenders_schneidered",)
    assert labels("lose_0_30") == ("picker_set", "team_schneidered")
    assert labels("lose_no_tricks") == ("picker_set", "team_schneidered", "team_schwarz")
    assert labels("win_all_tricks") == ("defenders_schneidered", "defenders_schwarz")
    assert labels("lose_31_60") == ("picker_set",)


def test_R9_12_multipliers_scale_every_score() -> None:
    result = score(70, 3, blitz=("black",), cracked_by=3, recracked=True)
    assert result.multiplier == 8 and result.scores == (16, 8, -8, -8, -8)


def test_R15_1_all_32_cards_are_always_somewhere() -> None:
    rnd = random.Random(1)
    run = play_out(GAME, Setup(players=5, seed="r"), lambda s, c: rnd.choice(c))
    state = fold(GAME, run.creation)
    for _, _, events in run.batches:
        state = fold(GAME, events, state)
        hand = state.hand
        assert hand is not None
        cards = [c for h in hand.hands for c in h] + list(hand.buried) + list(hand.trick_cards)
        cards += [c for t in hand.tricks for c in t.cards]
        cards += list(hand.blind) if hand.picker is None else []
        assert len(cards) == len(set(cards)) == 32


def test_R15_2_team_and_defender_points_make_120() -> None:
    for seed in range(5):
        state = start(seed=f"s{seed}", hands=None, options={"rounds": 1})
        rnd = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.seats_to_act(state)[0]
            events = GAME.decide(state, seat, rnd.choice(GAME.legal_actions(state, seat)))
            state = fold(GAME, events, state)
        result = state.last_result
        assert result is not None
        if result.kind == "normal":
            team = {result.picker, result.partner}
            defenders = sum(p for s, p in enumerate(result.points_taken) if s not in team)
            assert result.team_points + defenders == 120
        else:
            assert sum(result.points_taken) == 120 - sum(
                {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(c[0], 0) for c in result.blind
            )


def test_R15_3_each_trick_has_one_card_per_seat_and_hands_end_empty() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 1})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, _ = play_first_legal(state)
    assert state.hand is not None
    assert all(sorted(t.seats) == [0, 1, 2, 3, 4] for t in state.hand.tricks)
    assert all(h == () for h in state.hand.hands)


def test_R15_4_hand_scores_and_running_totals_sum_to_zero() -> None:
    for seed in range(4):
        chooser = random.Random(seed)
        run = play_out(GAME, Setup(players=5, seed=f"z{seed}"), lambda s, c, r=chooser: r.choice(c))
        assert sum(run.state.totals) == 0
        assert all(sum(e.scores) == 0 for e in run.events if hasattr(e, "scores"))


def test_R15_5_replaying_the_stored_log_reproduces_the_state() -> None:
    import json

    rnd = random.Random(3)
    run = play_out(GAME, Setup(players=5, seed="replay"), lambda s, c: rnd.choice(c))
    stored = [json.loads(json.dumps(GAME.codec.encode(e))) for e in run.events]
    assert fold(GAME, [GAME.codec.decode(d) for d in stored]) == run.state
