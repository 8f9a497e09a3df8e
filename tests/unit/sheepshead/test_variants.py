"""Every variant of §16: player modes, called ace (CA1-CA7), J♦ sub-options, no-pick rules,
scoring variants, cracking, blitzing and the administrative action limit."""

from __future__ import annotations

from dataclasses import replace

from domain.games.sheepshead import GAME
from domain.games.sheepshead.events import (
    CrackDecided,
    HandDealt,
    HandThrownIn,
    MatchAborted,
    PartnerRevealed,
    Picked,
    PreparationFinished,
)
from domain.games.sheepshead.scoring import DEFENDER_VALUE, score_leaster
from domain.games.sheepshead.state import Trick
from domain.protocol import Setup, fold

from .helpers import (
    STRONG,
    STRONG_BLIND,
    act,
    of_type,
    pick_and_bury,
    play,
    play_first_legal,
    refused,
    run,
    scored,
    start,
)
from .scoring_helpers import score

CA = {"partner_rule": "called_ace"}
CA_HANDS = {
    0: ["QC", "QS", "QH", "QD", "7C", "8C"],
    2: ["AC", "TC", "9C", "AS", "TS", "KS"],
    3: ["JD", "KC", "9S", "8S", "7S", "7D"],
    4: ["AH", "TH", "KH", "9H", "8H", "7H"],
}
CA_BLIND = ["JC", "JS"]


def _legal_cards(state, seat):  # type: ignore[no-untyped-def]
    return sorted(a["cards"][0] for a in GAME.legal_actions(state, seat))


def _any(state):  # type: ignore[no-untyped-def]
    seat = GAME.seats_to_act(state)[0]
    return act(state, seat, GAME.legal_actions(state, seat)[0])


def _called_ace(bury=("8C", "JS"), dealer=4):  # type: ignore[no-untyped-def]
    state = start(CA_HANDS, CA_BLIND, options=CA, dealer=dealer)
    state, _ = pick_and_bury(state, 0, list(bury))
    return state


def _ace_called():  # type: ignore[no-untyped-def]
    state, _ = act(_called_ace(), 0, {"type": "call", "cards": ["AC"]})
    return state


def _clubs_led_with_the_queen():  # type: ignore[no-untyped-def]
    """The AC called (seat 2 holds it); the picker leads QC and seat 1 plays."""
    state, _ = play(_ace_called(), "QC")
    state, _ = _any(state)
    return state


# --- player counts --------------------------------------------------------------------------


def test_six_hand_mode_dealer_sits_out_skips_the_dealer() -> None:
    state = start(players=6, dealer=2)
    assert state.hand is not None and state.hand.active == (3, 4, 5, 0, 1)
    assert state.hand.hands[2] == () and GAME.view(state, None)["seats"][2]["sitting_out"]
    state, _ = run(state, [(s, {"type": "pass"}) for s in (3, 4, 5, 0, 1)])
    assert GAME.seats_to_act(state) == (3,)


def test_six_hand_mode_all_play_deals_five_each() -> None:
    state = start(players=6, options={"six_hand_mode": "all_play"})
    assert state.hand is not None and [len(h) for h in state.hand.hands] == [5] * 6


def test_seven_hand_mode_all_play_buries_four() -> None:
    state = start(players=7)
    assert state.hand is not None and len(state.hand.blind) == 4
    state, _ = act(state, 0, {"type": "pick"})
    assert refused(state, 0, {"type": "bury", "cards": state.hand.blind[:2]}).reason == (  # type: ignore[union-attr]
        "invalid_bury"
    )
    state, _ = act(state, 0, {"type": "bury", "cards": list(state.hand.blind)})  # type: ignore[union-attr]
    assert state.hand is not None and len(state.hand.hands[0]) == 4


def test_seven_hand_mode_dealer_sits_out_plays_six_all_play() -> None:
    state = start(players=7, options={"seven_hand_mode": "dealer_sits_out"}, dealer=6)
    assert state.hand is not None and state.hand.active == (0, 1, 2, 3, 4, 5)
    assert [len(h) for h in state.hand.hands] == [5] * 6 + [0]


# --- called ace -----------------------------------------------------------------------------


def test_CA1_after_burying_call_or_alone_both_public() -> None:
    state = _called_ace()
    assert GAME.legal_actions(state, 0) == [{"type": "call", "cards": ["AC"]}, {"type": "alone"}]
    alone, events = act(state, 0, {"type": "alone"})
    assert GAME.redact(events[0], 3)["alone"] is True and GAME.view(alone, 3)["alone"] is True


def test_CA2_only_a_missing_fail_ace_with_a_hold_card() -> None:
    state = _called_ace()
    for card in ("AS", "AH", "JH", "TC"):
        assert refused(state, 0, {"type": "call", "cards": [card]}).reason == "invalid_call"


def test_CA3_with_all_three_aces_a_ten_may_be_called() -> None:
    hands = {0: ["AC", "AS", "AH", "QC", "QS", "7H"], 4: ["TH", "8H", "9H", "KH", "7D", "8D"]}
    state = start(hands, ["JC", "JS"], options=CA)
    state, _ = pick_and_bury(state, 0, ["JC", "JS"])
    assert GAME.legal_actions(state, 0) == [
        {"type": "call", "cards": ["TC"]},
        {"type": "call", "cards": ["TS"]},
        {"type": "call", "cards": ["TH"]},
        {"type": "alone"},
    ]
    state, _ = act(state, 0, {"type": "call", "cards": ["TH"]})
    assert state.hand is not None and state.hand.partner == 4


def test_CA4_nothing_callable_means_alone() -> None:
    state = start(CA_HANDS, CA_BLIND, options=CA)
    state, events = pick_and_bury(state, 0, ["7C", "8C"])
    prep = of_type(events, PreparationFinished)[0]
    assert prep.alone and prep.announced and state.hand is not None
    assert state.hand.phase == "playing"


def test_CA5_the_holder_of_the_called_card_is_the_secret_partner_jd_is_nothing() -> None:
    state = _ace_called()
    assert state.hand is not None and state.hand.partner == 2
    assert GAME.view(state, 3)["role"] == "defender" and GAME.view(state, 2)["role"] == "partner"
    state, _ = play(state, "7C")
    state, _ = _any(state)
    state, events = play(state, "AC")
    assert of_type(events, PartnerRevealed) == [PartnerRevealed(seat=2, card="AC")]


def test_CA6a_the_partner_must_play_the_called_card_when_its_suit_is_first_led() -> None:
    state = _ace_called()
    state, _ = play(state, "7C")
    state, _ = _any(state)
    assert _legal_cards(state, 2) == ["AC"]
    assert refused(state, 2, {"type": "play", "cards": ["TC"]}).reason == "called_suit_rule"


def test_CA6b_the_partner_may_not_discard_the_called_card_before_its_suit_is_led() -> None:
    state = _clubs_led_with_the_queen()
    assert "AC" not in _legal_cards(state, 2) and "TC" in _legal_cards(state, 2)


def test_CA6c_the_partner_leads_the_called_suit_only_with_the_called_card() -> None:
    state = start(CA_HANDS, CA_BLIND, options=CA, dealer=1)
    state, _ = pick_and_bury(state, 0, ["8C", "JS"])
    state, _ = act(state, 0, {"type": "call", "cards": ["AC"]})
    assert GAME.seats_to_act(state) == (2,)
    assert _legal_cards(state, 2) == ["AC", "AS", "KS", "TS"]


def test_CA6d_the_picker_keeps_a_called_suit_card_until_it_is_led() -> None:
    state = start(CA_HANDS, CA_BLIND, options=CA, dealer=1)
    state, _ = pick_and_bury(state, 0, ["8C", "JS"])
    state, _ = act(state, 0, {"type": "call", "cards": ["AC"]})
    state, _ = play(state, "AS", "9S", "AH")
    assert "7C" not in _legal_cards(state, 0)
    assert refused(state, 0, {"type": "play", "cards": ["7C"]}).reason == "called_suit_rule"


def test_CA6_restrictions_are_void_on_the_last_trick() -> None:
    state = _clubs_led_with_the_queen()
    hand = state.hand
    assert hand is not None
    dummy = tuple(Trick(number=i, seats=(), cards=("8D",), winner=0, points=0) for i in range(1, 6))
    last = replace(state, hand=replace(hand, tricks=dummy))
    assert "AC" in _legal_cards(last, 2)


def test_CA7_scoring_is_unchanged() -> None:
    state = _ace_called()
    state, events = play_first_legal(state)
    result = scored(events)
    d = DEFENDER_VALUE[result.row or ""]
    assert result.scores[2] == -d and result.scores[0] == -2 * d
    assert all(result.scores[s] == d for s in (1, 3, 4))


# --- J♦ sub-options -------------------------------------------------------------------------

JD_HANDS = {0: ["JD", "QC", "QS", "QH", "QD", "JC"]}


def test_jd_call_up_never_makes_a_jd_picker_alone_privately() -> None:
    state = start(JD_HANDS, ["7H", "8H"], options={"jd_call_up": "never"})
    state, events = pick_and_bury(state, 0, ["7H", "8H"])
    prep = of_type(events, PreparationFinished)[0]
    assert prep.alone and not prep.announced and GAME.redact(prep, 2)["alone"] is None


def test_jd_call_up_required_forbids_alone() -> None:
    state = start(JD_HANDS, ["7H", "8H"], options={"jd_call_up": "required"})
    state, _ = pick_and_bury(state, 0, ["7H", "8H"])
    assert GAME.legal_actions(state, 0) == [{"type": "call", "cards": ["JH"]}]
    assert refused(state, 0, {"type": "alone"}).reason == "alone_not_allowed"


def test_allow_voluntary_alone_gives_alone_or_partner_publicly() -> None:
    options = {"allow_voluntary_alone": True}
    state = start(STRONG, STRONG_BLIND, options=options)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    assert GAME.legal_actions(state, 0) == [{"type": "alone"}, {"type": "partner"}]
    alone, _events = act(state, 0, {"type": "alone"})
    assert GAME.view(alone, 1)["alone"] is True and GAME.view(alone, 1)["role"] == "defender"
    keep, _ = act(state, 0, {"type": "partner"})
    assert keep.hand is not None and keep.hand.partner == 1 and GAME.view(keep, 3)["alone"] is False
    off = start(STRONG, STRONG_BLIND)
    off, _ = pick_and_bury(off, 0, ["AD", "TD"])
    assert refused(off, 0, {"type": "partner"}).reason == "wrong_phase"


# --- no pick ----------------------------------------------------------------------------------


def test_no_pick_doubler_throws_in_doubles_and_does_not_count() -> None:
    state = start(STRONG, STRONG_BLIND, options={"no_pick": "doubler", "rounds": 2})
    state, events = run(state, [(s, {"type": "pass"}) for s in range(5)])
    assert of_type(events, HandThrownIn) == [HandThrownIn(multiplier=2)]
    dealt = of_type(events, HandDealt)[0]
    assert (dealt.deal, dealt.hand, dealt.dealer) == (1, 0, 0)
    state, _ = act(state, 1, {"type": "pick"})
    assert GAME.view(state, 3)["multiplier"] == 2
    while state.hand is not None and state.hand.number == 0:
        seat = GAME.seats_to_act(state)[0]
        state, events = act(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.last_result is not None and state.last_result.multiplier == 2
    assert abs(state.last_result.scores[1]) % 2 == 0 and state.pending_multiplier == 1


def test_no_pick_moster_the_most_points_loses() -> None:
    state = start(options={"no_pick": "moster"})
    tricks = tuple(
        Trick(number=i + 1, seats=(), cards=(), winner=w, points=p)
        for i, (w, p) in enumerate([(1, 30), (1, 20), (2, 20), (2, 15), (3, 10), (0, 4)])
    )
    hand = replace(state.hand, leaster="moster", tricks=tricks)  # type: ignore[arg-type]
    assert score_leaster(state, hand).scores == (1, -4, 1, 1, 1)
    tie = replace(hand, tricks=(*tricks[:2], replace(tricks[2], points=35), *tricks[3:4]))
    assert score_leaster(state, tie).scores == (0,) * 5
    state, _events = run(state, [(s, {"type": "pass"}) for s in range(5)])
    assert state.hand is not None and state.hand.leaster == "moster"


def test_no_pick_forced_pick_the_dealer_must_pick() -> None:
    state = start(STRONG, STRONG_BLIND, options={"no_pick": "forced_pick"})
    state, _ = run(state, [(s, {"type": "pass"}) for s in range(4)])
    assert GAME.legal_actions(state, 4) == [{"type": "pick"}]
    assert refused(state, 4, {"type": "pass"}).reason == "dealer_must_pick"


def test_leaster_blind_to_last_trick_adds_the_blind_before_choosing() -> None:
    state = start(STRONG, STRONG_BLIND, options={"leaster_blind_to_last_trick": True})
    state, _ = run(state, [(s, {"type": "pass"}) for s in range(5)])
    state, events = play_first_legal(state)
    result = scored(events)
    assert sum(result.points_taken) == 120


# --- scoring variants -------------------------------------------------------------------------


def test_double_on_bump_doubles_losing_rows_only() -> None:
    options = {"double_on_bump": True}
    assert score(45, 2, options=options).scores == (-4, -2, 2, 2, 2)
    assert score(10, 1, options=options).scores == (-8, -4, 4, 4, 4)
    assert score(0, 0, options=options).scores == (-24, -12, 12, 12, 12)
    assert score(70, 3, options=options).scores == (2, 1, -1, -1, -1)


def test_partner_off_the_hook_when_the_team_takes_no_trick() -> None:
    options = {"partner_off_the_hook": True}
    assert score(0, 0, options=options).scores == (-18, 0, 6, 6, 6)
    assert score(45, 2, options=options).scores == (-2, -1, 1, 1, 1)


# --- cracking and blitzing --------------------------------------------------------------------


def test_cracking_window_crack_and_recrack_double_the_stakes() -> None:
    state = start(STRONG, STRONG_BLIND, options={"cracking": True, "rounds": 1})
    state, events = pick_and_bury(state, 0, ["AD", "TD"])
    assert of_type(events, PreparationFinished)[0].crackers == (1, 2, 3, 4)
    assert GAME.legal_actions(state, 1) == [{"type": "no_crack"}]
    assert refused(state, 1, {"type": "crack"}).reason == "crack_not_allowed"
    state, events = run(state, [(1, {"type": "no_crack"}), (2, {"type": "crack"})])
    assert events[-1] == CrackDecided(seat=2, crack=True) and GAME.seats_to_act(state) == (0,)
    state, _ = act(state, 0, {"type": "recrack"})
    assert GAME.view(state, None)["multiplier"] == 4
    state, events = play_first_legal(state)
    assert scored(events).scores == (24, 12, -12, -12, -12)


def test_cracking_no_window_when_the_picker_is_the_dealer_or_in_a_leaster() -> None:
    state = start(STRONG, STRONG_BLIND, options={"cracking": True}, dealer=0)
    state, events = pick_and_bury(state, 0, ["AD", "TD"])
    assert of_type(events, PreparationFinished)[0].crackers == ()
    assert state.hand is not None and state.hand.phase == "playing"


def test_cracking_all_decline_then_play() -> None:
    state = start(STRONG, STRONG_BLIND, options={"cracking": True})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, _ = run(state, [(s, {"type": "no_crack"}) for s in (1, 2, 3, 4)])
    assert state.hand is not None and state.hand.phase == "playing" and state.hand.to_act == 0


def test_blitzing_shows_queen_pairs_and_doubles_per_pair() -> None:
    state = start(STRONG, STRONG_BLIND, options={"blitzing": True, "rounds": 1})
    assert {"type": "pick", "blitz": True} in GAME.legal_actions(state, 0)
    state, events = pick_and_bury(state, 0, ["AD", "TD"], blitz=True)
    assert of_type(events, Picked)[0].blitz == ("black", "red")
    assert GAME.view(state, 3)["blitz"] == ["black", "red"]
    state, events = play_first_legal(state)
    assert scored(events).scores == (24, 12, -12, -12, -12)


def test_blitzing_needs_a_pair() -> None:
    state = start(STRONG, STRONG_BLIND, options={"blitzing": True}, dealer=0)
    assert refused(state, 1, {"type": "pick", "blitz": True}).reason == "invalid_blitz"


# --- rounds, first dealer, action limit -------------------------------------------------------


def test_rounds_and_first_dealer_options() -> None:
    events = GAME.start(Setup(players=5, seed="s", options={"rounds": 7, "first_dealer": 2}))
    state = fold(GAME, events)
    assert state.options["rounds"] == 7 and state.hand is not None and state.hand.dealer == 2


def test_action_limit_ends_the_match_with_no_loser() -> None:
    state = start(STRONG, STRONG_BLIND, options={"action_limit": 3})
    state, events = run(
        state, [(0, {"type": "pass"}), (1, {"type": "pass"}), (2, {"type": "pass"})]
    )
    assert of_type(events, MatchAborted) == [MatchAborted(reason="action_limit", actions=3)]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["reason"] == "action_limit"
    assert outcome["losers"] == [] and GAME.seats_to_act(state) == ()
