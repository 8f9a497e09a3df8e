"""An explicit deal may start any deal of a match: the match state in ``deal.extra``."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidDeal
from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import (
    DealScored,
    DealStarted,
    GameStarted,
    MatchEnded,
    MatchResumed,
)
from domain.protocol import Setup, fold
from domain.shuffle import deal_label, shuffled
from tests.unit.sixty_six.helpers import DECK24, HAND0, HAND1, act, explicit_deal, of_type


def _start(extra: dict[str, Any], **options: Any) -> tuple[Any, list[Any]]:
    deal = explicit_deal(HAND0, HAND1, "TH")
    deal["extra"].update(extra)
    events = GAME.start(Setup(players=2, seed="test", dealer=0, options=options, deal=deal))
    return fold(GAME, events), events


def test_a_deal_starts_at_5_6_with_two_carried_points() -> None:
    state, events = _start({"match_points": [5, 6], "carry_over": 2, "deal_number": 4})
    assert [type(e) for e in events[:3]] == [GameStarted, MatchResumed, DealStarted]
    assert events[1] == MatchResumed(match_points=(5, 6), deals_scored=4)
    started = of_type(events, DealStarted)[0]
    assert (started.number, started.carry_over) == (4, 2)
    view = GAME.view(state, 0)
    assert (view["game_points"], view["carry_over"], view["deal_number"]) == ([5, 6], 2, 4)


def test_the_deal_from_the_middle_ends_the_match_correctly() -> None:
    state, _ = _start({"match_points": [5, 6], "carry_over": 2, "deal_number": 4})
    # seat 0 declares with no trick: false, seat 1 wins 3 + the 2 carried points
    state, events = act(state, 0, "declare")
    scored = of_type(events, DealScored)[0]
    assert (scored.winner, scored.base, scored.carry_over_applied) == (1, 3, 2)
    assert scored.match_points == (5, 11)
    assert of_type(events, MatchEnded) == [MatchEnded(winner=1, match_points=(5, 11))]
    assert GAME.outcome(state) == {"reason": "finished", "winners": [1], "losers": [0],
                                   "game_points": [5, 11], "deals": 5, "carry_over": 0}


def test_the_match_goes_on_with_the_seed_s_next_deal() -> None:
    state, _ = _start({"match_points": [5, 1], "carry_over": 1, "deal_number": 4},
                      game_target=10)
    state, events = act(state, 0, "declare")  # seat 1: 1 + 3 + 1 = 5, below 10
    assert not of_type(events, MatchEnded)
    following = of_type(events, DealStarted)[0]
    assert (following.number, following.carry_over, following.dealer) == (5, 0, 1)
    order = shuffled(DECK24, "test", deal_label(5))
    assert state.deal is not None and state.deal.trump_card == order[12]
    assert state.game_points == (5, 5)


def test_an_ordinary_explicit_deal_records_no_match_state() -> None:
    _, events = _start({})
    assert not of_type(events, MatchResumed)
    _, events = _start({"match_points": [0, 0]})  # said, though the default: recorded as said
    assert not of_type(events, MatchResumed)


@pytest.mark.parametrize(
    ("extra", "options", "field"),
    [
        ({"match_points": [7, 0]}, {}, "deal.extra.match_points[0]"),
        ({"match_points": [0, 3]}, {"game_target": 3}, "deal.extra.match_points[1]"),
        ({"match_points": [1]}, {}, "deal.extra.match_points"),
        ({"match_points": "5-6"}, {}, "deal.extra.match_points"),
        ({"match_points": [True, 0]}, {}, "deal.extra.match_points[0]"),
        ({"carry_over": -1}, {}, "deal.extra.carry_over"),
        ({"carry_over": 1}, {"carry_over_undecided": False}, "deal.extra.carry_over"),
        ({"deal_number": 1.5}, {}, "deal.extra.deal_number"),
    ],
)
def test_bad_match_state_is_refused_naming_the_field(
    extra: dict[str, Any], options: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidDeal) as info:
        _start(extra, **options)
    assert info.value.field == field
    assert field in info.value.message


def test_unknown_extra_fields_are_still_refused() -> None:
    with pytest.raises(InvalidDeal, match="unknown field"):
        _start({"match_point": [1, 1]})
