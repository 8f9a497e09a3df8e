"""Optional rights: a marriage may carry the declaration out (docs/rules/sixty_six.md,
"Optional rights"), so no opponent's move can come between the points and the declaration."""

from __future__ import annotations

import random

import pytest

from domain.errors import InvalidAction
from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import (
    CardPlayed,
    DealScored,
    DeclaredOut,
    MarriageAnnounced,
)
from domain.protocol import Setup, fold
from tests.unit.sixty_six.helpers import moves, start

HAND0 = "TC TD 9H 9D QS KS"
HAND1 = "AC AD KH QH 9S JS"
DECLARING = {"type": "marriage", "cards": ["KH"], "declare": True}


def _before_the_marriage(**options: object):
    state = start(HAND0, HAND1, "TH", **options)[0]
    return moves(state, (1, "play AC"), (0, "play TC"), (1, "draw"), (1, "play AD"),
                 (0, "play TD"), (1, "draw"))


def test_a_marriage_that_reaches_66_may_carry_the_declaration() -> None:
    state = _before_the_marriage()
    events = GAME.decide(state, 1, DECLARING)
    kinds = [type(e) for e in events[:4]]
    assert kinds == [MarriageAnnounced, CardPlayed, DeclaredOut, DealScored]
    scored = events[3]
    assert isinstance(scored, DealScored)
    assert (scored.winner, scored.reason, scored.base, scored.points) == (
        1, "declared_out", 3, (0, 82))


def test_the_declaring_form_is_listed_only_where_it_reaches_66() -> None:
    state = _before_the_marriage()
    assert DECLARING in GAME.legal_actions(state, 1)
    first_lead = start(HAND0, HAND1, "TH")[0]  # no trick yet: the 40 stay pending
    listed = GAME.legal_actions(first_lead, 1)
    assert {"type": "marriage", "cards": ["KH"]} in listed
    assert not any(a.get("declare") for a in listed)


def test_a_marriage_declaring_below_66_is_a_false_declaration() -> None:
    first_lead = start(HAND0, HAND1, "TH")[0]
    events = GAME.decide(first_lead, 1, DECLARING)
    scored = next(e for e in events if isinstance(e, DealScored))
    assert (scored.winner, scored.reason) == (0, "false_declaration")


def test_own_turn_declaring_still_allows_the_declaring_marriage() -> None:
    state = _before_the_marriage(declare_timing="own_turn")
    events = GAME.decide(state, 1, DECLARING)
    assert any(isinstance(e, DeclaredOut) and e.seat == 1 for e in events)


@pytest.mark.parametrize("bad", [{"type": "marriage", "cards": ["KH"], "declare": "yes"},
                                 {"type": "play", "cards": ["KH"], "declare": True}])
def test_declare_is_a_boolean_of_a_marriage_only(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidAction):
        GAME.decide(_before_the_marriage(), 1, bad)


def test_the_listing_of_the_declaring_form_agrees_with_the_scoring() -> None:
    checked = 0
    for match in range(12):
        rng = random.Random(match)
        state = fold(GAME, GAME.start(Setup(players=2, seed=f"rights-{match}", dealer=0)))
        while GAME.outcome(state) is None and checked < 400:
            seat = GAME.awaited_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            for marriage in (a for a in legal if a["type"] == "marriage" and "declare" not in a):
                events = GAME.decide(state, seat, {**marriage, "declare": True})
                scored = next(e for e in events if isinstance(e, DealScored))
                listed = {**marriage, "declare": True} in legal
                assert listed == (scored.reason == "declared_out" and scored.winner == seat)
                checked += 1
            move = rng.choice([a for a in legal if a["type"] != "declare_out"] or legal)
            state = fold(GAME, GAME.decide(state, seat, move), state)
    assert checked > 20
