"""Whole matches of random play that declare only at 66: invariants over many deals."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import DealScored, MatchEnded
from domain.games.sixty_six.state import Deal, State
from domain.protocol import Setup, fold
from tests.contract.scenario_sixty_six import cards_in_play
from tests.unit.sixty_six.helpers import DECK20, DECK24

OPTION_SETS = [{}, {"deck20": True}, {"close_before_draw": False, "must_head_trick": False},
               {"declare_timing": "own_turn", "exchange_timing": "any_own_turn"}]


def _choose(state, rnd: random.Random):
    seat = state.deal.turn
    if state.deal.points(seat) >= 66:
        return seat, {"type": "declare_out"}
    legal = [a for a in GAME.legal_actions(state, seat) if a["type"] != "declare_out"]
    return seat, rnd.choice(legal)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_matches_keep_every_invariant(options: dict[str, object]) -> None:
    rnd = random.Random(json.dumps(options))
    deck = sorted(DECK20 if options.get("deck20") else DECK24)
    for match in range(8):
        log = GAME.start(Setup(players=2, seed=f"inv-{match}", options=options))
        state = fold(GAME, log)
        while GAME.outcome(state) is None:
            assert sorted(cards_in_play(state)) == deck
            d = state.deal
            if d.phase == "end_window" and d.closed_by is None:
                assert d.points(0) + d.points(1) == 130 + sum(d.marriage_points)
            seat, action = _choose(state, rnd)
            events = GAME.decide(state, seat, action)
            for event in events:
                if isinstance(event, DealScored) and event.winner is not None:
                    assert event.game_points == event.base + event.carry_over_applied
                    assert event.base in (1, 2, 3)
            state = fold(GAME, events, state)
            log += events
        assert isinstance(log[-1], MatchEnded)
        assert max(state.game_points) >= 7 > min(state.game_points)
        totals = Counter()
        for event in log:
            if isinstance(event, DealScored) and event.winner is not None:
                totals[event.winner] += event.game_points
        assert (totals[0], totals[1]) == state.game_points
        stored = [GAME.codec.decode(json.loads(json.dumps(GAME.codec.encode(e)))) for e in log]
        assert fold(GAME, stored) == state


@pytest.mark.parametrize("options", OPTION_SETS)
def test_a_folded_deal_has_exactly_its_fields(options: dict[str, object]) -> None:
    """The fold copies a deal's field values directly (fold.py ``_next``): a misspelt name would
    add a stray attribute instead of changing the field."""
    deal_fields, state_fields = set(Deal.__dataclass_fields__), set(State.__dataclass_fields__)
    rnd = random.Random(f"fields-{json.dumps(options)}")
    for match in range(3):
        state = fold(GAME, GAME.start(Setup(players=2, seed=f"fields-{match}", options=options)))
        while GAME.outcome(state) is None:
            for event in GAME.decide(state, *_choose(state, rnd)):
                state = GAME.evolve(state, event)
                assert set(vars(state)) == state_fields
                assert state.deal is not None and set(vars(state.deal)) == deal_fields
