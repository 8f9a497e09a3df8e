"""Leaster (R11), the match (R12) and other player counts (R16.1)."""

from __future__ import annotations

from dataclasses import replace

from domain.games.sheepshead import GAME
from domain.games.sheepshead.cards import DECK
from domain.games.sheepshead.config import deal_cards, layout
from domain.games.sheepshead.events import HandScored, LeasterStarted, MatchEnded
from domain.games.sheepshead.scoring import score_leaster
from domain.games.sheepshead.state import Trick
from domain.protocol import Setup

from .helpers import (
    STRONG,
    STRONG_BLIND,
    act,
    of_type,
    pick_and_bury,
    play_first_legal,
    refused,
    run,
    start,
)
from .scoring_helpers import score


def _leaster(wins: list[tuple[int, int]], *, blind=("AD", "TD"), options=None, players=5):  # type: ignore[no-untyped-def]
    """Score a leaster whose tricks went (winner, points) in order."""
    state = start(players=players, options=options)
    tricks = tuple(
        Trick(number=i + 1, seats=(), cards=(), winner=w, points=p) for i, (w, p) in enumerate(wins)
    )
    hand = replace(state.hand, leaster="leaster", tricks=tricks, blind=blind)  # type: ignore[arg-type]
    return score_leaster(state, hand)


def _all_pass(**kw):  # type: ignore[no-untyped-def]
    state = start(STRONG, STRONG_BLIND, **kw)
    first = state.hand.active[0]  # type: ignore[union-attr]
    return run(state, [((first + s) % 5, {"type": "pass"}) for s in range(5)])


def test_R11_1_all_pass_plays_a_leaster() -> None:
    _, events = _all_pass()
    assert events[-1] == LeasterStarted(kind="leaster")


def test_R11_2_no_picker_no_burying_no_calling_in_a_leaster() -> None:
    state, _ = _all_pass()
    for action in ({"type": "pick"}, {"type": "bury", "cards": ["QC", "QS"]}, {"type": "alone"}):
        assert refused(state, 0, action).reason == "wrong_phase"
    assert state.hand is not None and state.hand.picker is None


def test_R11_3_the_blind_is_out_of_play_unless_the_variant_gives_it_to_the_last_trick() -> None:
    wins = [(1, 30), (1, 20), (2, 20), (2, 15), (3, 10), (0, 4)]
    assert _leaster(wins).scores == (4, -1, -1, -1, -1)
    with_blind = _leaster(wins, options={"leaster_blind_to_last_trick": True})
    assert with_blind.points_taken[0] == 25 and with_blind.scores == (-1, -1, -1, 4, -1)


def test_R11_4_a_leaster_is_led_by_the_dealers_left() -> None:
    state, _ = _all_pass(dealer=1)
    assert GAME.seats_to_act(state) == (2,)


def test_R11_5_tricks_and_points_taken_are_recorded() -> None:
    state, _ = _all_pass()
    state, events = play_first_legal(state)
    result = of_type(events, HandScored)[0]
    assert sum(result.tricks_taken) == 6 and sum(result.points_taken) == 120 - 21


def test_R11_6_a_player_without_a_trick_never_wins() -> None:
    wins = [(1, 30), (1, 20), (2, 20), (2, 15), (3, 10), (3, 4)]
    assert _leaster(wins).scores == (-1, -1, -1, 4, -1)


def test_R11_7_the_lowest_eligible_player_takes_one_from_each() -> None:
    wins = [(1, 30), (1, 20), (2, 20), (2, 15), (3, 10), (0, 4)]
    assert _leaster(wins).scores == (4, -1, -1, -1, -1)


def test_R11_8_a_tie_for_lowest_scores_nothing() -> None:
    wins = [(1, 30), (1, 20), (2, 20), (2, 15), (3, 4), (0, 4)]
    assert _leaster(wins).scores == (0, 0, 0, 0, 0)


def test_R11_9_a_leaster_counts_and_the_deal_passes_left() -> None:
    state, _ = _all_pass(options={"rounds": 2})
    state, _ = play_first_legal(state)
    assert state.hand is not None and state.hand.number == 1 and state.hand.dealer == 0


def test_R12_1_rounds_defaults_to_the_player_count() -> None:
    for players in (3, 5, 7):
        state = start(players=players)
        assert state.options["rounds"] == players


def test_R12_2_scores_add_to_running_totals() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 2})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, _ = play_first_legal(state)
    assert state.totals == (6, 3, -3, -3, -3)
    assert GAME.view(state, 2)["totals"] == [6, 3, -3, -3, -3]


def test_R12_3_the_match_ends_after_rounds_counted_hands() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 1})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play_first_legal(state)
    assert of_type(events, MatchEnded) == [MatchEnded(totals=(6, 3, -3, -3, -3), winners=(0,))]
    assert GAME.outcome(state) == {
        "reason": "finished",
        "winners": [0],
        "losers": [1, 2, 3, 4],
        "totals": [6, 3, -3, -3, -3],
        "hands": 1,
    }


def test_R12_4_tied_leaders_share_the_win() -> None:
    wins = [(1, 30), (1, 20), (2, 20), (2, 15), (3, 4), (0, 4)]
    state, _ = _all_pass(options={"rounds": 1})
    state, _ = play_first_legal(state)
    assert _leaster(wins).scores == (0,) * 5
    outcome = GAME.outcome(state)
    assert outcome is not None
    top = max(outcome["totals"])
    assert outcome["winners"] == [s for s, t in enumerate(outcome["totals"]) if t == top]


def test_R12_5_running_totals_sum_to_zero() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 3})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    while GAME.outcome(state) is None:
        seat = GAME.seats_to_act(state)[0]
        state, _ = act(state, seat, GAME.legal_actions(state, seat)[0])
        assert sum(state.totals) == 0


def test_R16_1_1_the_general_formula_for_other_player_counts() -> None:
    assert score(70, 3, players=3, alone=True).scores == (2, -1, -1)
    assert score(70, 3, players=4, alone=True).scores == (3, -1, -1, -1)
    six = score(70, 3, players=6, options={"six_hand_mode": "all_play"})
    assert six.scores == (3, 1, -1, -1, -1, -1)
    seven = score(70, 3, players=7)
    assert seven.scores == (4, 1, -1, -1, -1, -1, -1)
    wins = [(0, 4), (1, 30), (1, 30), (2, 30), (3, 5)]
    six_out = _leaster(wins, players=6)  # dealer 5 sits out
    assert six_out.scores == (4, -1, -1, -1, -1, 0)


def test_R16_1_2_the_jack_call_up_works_with_six_and_seven() -> None:
    for players, options, size, blind in (
        (6, {"six_hand_mode": "all_play"}, 5, 2),
        (7, {}, 4, 4),
    ):
        hands = {0: ["JD", "QC", "QS", "QH"][:size]}
        state = start(hands, ["7H", "8H", "9H", "KH"][:blind], players=players, options=options,
                      hand_size=size, blind_size=blind)  # fmt: skip
        state, _ = pick_and_bury(state, 0, ["7H", "8H", "9H", "KH"][:blind])
        assert GAME.legal_actions(state, 0)[0] == {"type": "call", "cards": ["JH"]}


def test_packets_for_every_player_count() -> None:
    deck = list(DECK)
    expected = {
        (3, "dealer_sits_out", "all_play"): (10, 2, [3, 0, 0], [0, 1, 2], (9, 11)),
        (4, "dealer_sits_out", "all_play"): (7, 4, [2, 2, 2, 2], [0, 1, 2, 3], (8, 10)),
        (6, "all_play", "all_play"): (5, 2, [2] * 6, [0, 1, 2, 3, 4, 5], (12, 14)),
        (7, "all_play", "all_play"): (4, 4, [2] * 7, list(range(7)), (14, 16)),
        (6, "dealer_sits_out", "all_play"): (6, 2, [3] * 5, [0, 1, 2, 3, 4], (15, 17)),
        (7, "all_play", "dealer_sits_out"): (5, 2, [2] * 6, list(range(6)), (12, 14)),
    }
    for (players, six, seven), (size, blind, _, active, first_blind) in expected.items():
        options = {"six_hand_mode": six, "seven_hand_mode": seven}
        lay = layout(players, options)
        hands, got_blind = deal_cards(deck, lay, players - 1, players)
        assert [len(h) for h in hands][: len(active)] == [size] * len(active)
        assert len(got_blind) == blind and got_blind[:2] == tuple(
            deck[first_blind[0] : first_blind[1]]
        )
    three, _ = deal_cards(deck, layout(3, {"six_hand_mode": "", "seven_hand_mode": ""}), 2, 3)
    assert three[0] == tuple(deck[0:3] + deck[11:15] + deck[23:26])


def test_six_players_dealer_sits_out_gets_no_cards_and_scores_zero() -> None:
    events = GAME.start(Setup(players=6, seed="six", dealer=5))
    dealt = events[1]
    assert dealt.hands[5] == ()  # type: ignore[attr-defined]
    assert score(70, 3, players=6).scores == (2, 1, -1, -1, -1, 0)


def test_three_and_four_players_the_picker_is_always_alone() -> None:
    for players, size, blind in ((3, 10, 2), (4, 7, 4)):
        state = start({0: ["JD"]}, [], players=players, hand_size=size, blind_size=blind)
        hand = state.hand
        assert hand is not None
        state, _events = pick_and_bury(state, 0, list(hand.blind))
        assert state.hand is not None and state.hand.alone and state.hand.announced
        assert GAME.view(state, 1)["alone"] is True
