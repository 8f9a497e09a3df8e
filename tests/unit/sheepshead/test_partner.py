"""Burying and the partner (R6, R7)."""

from __future__ import annotations

from domain.games.sheepshead import GAME
from domain.games.sheepshead.events import (
    Buried,
    CardCalled,
    PartnerRevealed,
    PreparationFinished,
)

from .helpers import (
    STRONG,
    STRONG_BLIND,
    act,
    of_type,
    pick_and_bury,
    play,
    play_first_legal,
    refused,
    scored,
    start,
)

WITH_JD = {0: ["JD", "QC", "QS", "QH", "QD", "JC"], 3: ["JH", "7D", "AC", "TC", "KC", "9C"]}
WITH_JD_BLIND = ["7H", "8H"]


def _picked(hands=WITH_JD, blind=WITH_JD_BLIND, **kw):  # type: ignore[no-untyped-def]
    state = start(hands, blind, **kw)
    state, _ = act(state, 0, {"type": "pick"})
    return state


def test_R6_1_the_picker_buries_exactly_two_distinct_cards() -> None:
    state = _picked()
    assert refused(state, 0, {"type": "bury", "cards": ["7H"]}).reason == "invalid_bury"
    assert refused(state, 0, {"type": "bury", "cards": ["7H", "7H"]}).reason == "invalid_bury"
    assert refused(state, 1, {"type": "bury", "cards": ["7H", "8H"]}).reason == "not_your_turn"
    assert len(GAME.legal_actions(state, 0)) == 28


def test_R6_2_any_two_cards_may_be_buried_even_trump_and_jd() -> None:
    state = _picked()
    state, events = act(state, 0, {"type": "bury", "cards": ["JD", "QC"]})
    assert events[0] == Buried(seat=0, cards=("JD", "QC"))


def test_R6_3_buried_points_count_for_the_picker_team() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play_first_legal(state)
    result = scored(events)
    assert result.buried == ("AD", "TD") and result.team_points == 120


def test_R6_4_buried_cards_are_known_only_to_the_picker() -> None:
    state = _picked()
    state, events = act(state, 0, {"type": "bury", "cards": ["7H", "8H"]})
    assert GAME.redact(events[0], 0)["cards"] == ("7H", "8H")
    assert GAME.redact(events[0], 2)["cards"] == 2
    assert GAME.view(state, 0)["buried"] == ["7H", "8H"]
    assert GAME.view(state, 2)["buried"] is None and GAME.view(state, None)["buried"] is None


def test_R6_5_no_card_is_played_before_burying() -> None:
    state = _picked()
    assert refused(state, 0, {"type": "play", "cards": ["QC"]}).reason == "wrong_phase"


def test_R7_1_p8_is_the_eight_cards_right_after_picking() -> None:
    state = _picked(blind=["JS", "8H"])
    assert state.hand is not None
    assert sorted(state.hand.p8) == sorted([*WITH_JD[0], "JS", "8H"])


def test_R7_2_without_jd_the_jd_holder_is_the_partner_and_play_starts() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, events = pick_and_bury(state, 0, ["AD", "TD"])
    prep = of_type(events, PreparationFinished)[0]
    assert prep.alone is False and state.hand is not None
    assert state.hand.partner == 1 and state.hand.phase == "playing"


def test_R7_3_the_callable_jack_is_the_lowest_missing_from_p8() -> None:
    state = _picked({0: ["JD", "JH", "QC", "QS", "QH", "QD"]}, ["7H", "JC"])
    state, _ = act(state, 0, {"type": "bury", "cards": ["JC", "7H"]})
    assert GAME.legal_actions(state, 0) == [
        {"type": "call", "cards": ["JS"]},
        {"type": "alone"},
    ]


def test_R7_3a_call_exactly_the_callable_jack_or_alone() -> None:
    state = _picked()
    state, _ = act(state, 0, {"type": "bury", "cards": ["7H", "8H"]})
    assert state.hand is not None and state.hand.phase == "calling"
    for card in ("JS", "JC", "JD", "AC"):
        assert refused(state, 0, {"type": "call", "cards": [card]}).reason == "invalid_call"
    _after, events = act(state, 0, {"type": "call", "cards": ["JH"]})
    assert events[0] == CardCalled(seat=0, card="JH")
    alone, events = act(state, 0, {"type": "alone"})
    assert alone.hand is not None and alone.hand.alone and alone.hand.partner is None


def test_R7_3b_all_four_jacks_means_alone_automatically() -> None:
    state = _picked({0: ["JD", "JH", "JS", "JC", "QC", "QS"]})
    state, events = act(state, 0, {"type": "bury", "cards": ["7H", "8H"]})
    prep = of_type(events, PreparationFinished)[0]
    assert prep.alone and not prep.announced and not prep.by_action
    assert refused(state, 0, {"type": "alone"}).reason == "wrong_phase"
    assert refused(state, 0, {"type": "call", "cards": ["JH"]}).reason == "wrong_phase"


def test_R7_4_after_a_call_the_holder_of_the_jack_is_the_partner() -> None:
    state = _picked()
    state, _ = act(state, 0, {"type": "bury", "cards": ["7H", "8H"]})
    state, events = act(state, 0, {"type": "call", "cards": ["JH"]})
    assert state.hand is not None and state.hand.partner == 3
    assert GAME.redact(events[0], 2)["card"] == "JH"
    assert GAME.view(state, 4)["called"] == "JH"


def test_R7_5_alone_plays_one_against_four() -> None:
    state = _picked()
    state, _ = act(state, 0, {"type": "bury", "cards": ["7H", "8H"]})
    state, _ = act(state, 0, {"type": "alone"})
    state, events = play_first_legal(state)
    result = scored(events)
    assert result.alone and result.partner is None
    assert sorted(result.scores[1:]) == [result.scores[1]] * 4


def test_R7_6_a_picker_without_jd_may_not_call_or_go_alone() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    assert refused(state, 0, {"type": "alone"}).reason == "wrong_phase"
    assert refused(state, 0, {"type": "call", "cards": ["JH"]}).reason == "wrong_phase"


def test_R7_7_no_call_during_burying() -> None:
    state = _picked()
    assert refused(state, 0, {"type": "call", "cards": ["JH"]}).reason == "wrong_phase"
    assert refused(state, 0, {"type": "alone"}).reason == "wrong_phase"


def test_R7_8_a_partner_without_a_trick_shares_the_result() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play_first_legal(state)
    result = scored(events)
    assert result.tricks_taken[1] == 0 and result.scores == (6, 3, -3, -3, -3)


def test_R7_9_the_partner_is_revealed_only_by_playing_the_partner_card() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play(state, "QC", "JH")
    assert not of_type(events, PartnerRevealed)
    assert GAME.view(state, 3)["seats"][1]["partner"] is False
    state, events = play(state, "AC", "AS", "AH", "QS", "JD")
    assert of_type(events, PartnerRevealed) == [PartnerRevealed(seat=1, card="JD")]
    assert GAME.view(state, 3)["seats"][1]["partner"] is True
