"""An explicit deal may start any hand of a match: totals, doubling and hand number."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidDeal
from domain.games.sheepshead import GAME
from domain.games.sheepshead.events import HandDealt, HandThrownIn, MatchEnded, MatchResumed
from domain.protocol import Setup, fold

from .helpers import STRONG, STRONG_BLIND, make_deal, of_type, play_first_legal, run


def _start(extra: dict[str, Any], **options: Any) -> tuple[Any, list[Any]]:
    deal = make_deal(STRONG, STRONG_BLIND)
    deal["extra"].update(extra)
    events = GAME.start(Setup(players=5, seed="test", dealer=4, options=options, deal=deal))
    return fold(GAME, events), events


def _all_pass(state: Any) -> tuple[Any, list[Any]]:
    first = state.hand.active[0]
    return run(state, [((first + s) % 5, {"type": "pass"}) for s in range(5)])


def test_the_last_hand_of_a_match_ends_it_with_the_totals_carried() -> None:
    totals = [6, -2, -2, -1, -1]
    state, events = _start({"totals": totals, "hand_number": 4, "deal_number": 6})
    assert events[1] == MatchResumed(totals=tuple(totals), multiplier=1)
    dealt = of_type(events, HandDealt)[0]
    assert (dealt.deal, dealt.hand) == (6, 4)
    assert GAME.view(state, None)["totals"] == totals
    state, _ = _all_pass(state)  # a leaster (the default no_pick)
    state, log = play_first_legal(state)
    ended = of_type(log, MatchEnded)
    assert len(ended) == 1
    scores = [sum(p) for p in zip(totals, log[-2].scores, strict=True)]
    assert list(ended[0].totals) == scores and sum(scores) == 0
    assert GAME.outcome(state) is not None


def test_a_carried_doubling_doubles_again_when_thrown_in() -> None:
    state, _ = _start({"multiplier": 2}, no_pick="doubler")
    assert state.pending_multiplier == 2
    state, events = _all_pass(state)
    assert of_type(events, HandThrownIn) == [HandThrownIn(multiplier=4)]
    assert of_type(events, HandDealt)[0].hand == 0  # a thrown-in deal is not counted


@pytest.mark.parametrize(
    ("extra", "options", "field"),
    [
        ({"totals": [1, 0, 0, 0]}, {}, "deal.extra.totals"),
        ({"totals": [1, 0, 0, 0, 0]}, {}, "deal.extra.totals"),
        ({"totals": [1, -1, 0, 0, "x"]}, {}, "deal.extra.totals[4]"),
        ({"multiplier": 2}, {}, "deal.extra.multiplier"),
        ({"multiplier": 3}, {"no_pick": "doubler"}, "deal.extra.multiplier"),
        ({"hand_number": 5}, {}, "deal.extra.hand_number"),
        ({"hand_number": 2, "deal_number": 1}, {}, "deal.extra.deal_number"),
    ],
)
def test_bad_match_state_is_refused_naming_the_field(
    extra: dict[str, Any], options: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidDeal) as info:
        _start(extra, **options)
    assert info.value.field == field


def test_an_empty_stock_is_accepted() -> None:
    deal = make_deal(STRONG, STRONG_BLIND)
    events = GAME.start(Setup(players=5, seed="t", dealer=4, deal={**deal, "stock": []}))
    assert of_type(events, HandDealt)
