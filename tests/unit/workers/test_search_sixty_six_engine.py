"""The search bot's compact Sixty-Six deal agrees with the domain: the heuristic rollout ends
every deal as the domain does with the heuristic bots, and the endgame solver's minimax equals
a plain minimax over the domain's own decide/evolve."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.sixty_six.state import TARGET, State
from domain.protocol import Setup, fold
from domain.registry import get_game
from tests.support.decisions import as_json
from workers.bots.base import get_bot, is_wait
from workers.bots.search import sixty_six_engine as engine
from workers.bots.search.sixty_six_engine import Sim, Table, code

GAME = get_game("sixty_six")


def _deal_outcome(state: State) -> int:
    """The scored deal, signed from seat 0's view."""
    result = state.last_result or {}
    winner, base = result.get("winner"), int(result.get("base") or 0)
    return 0 if winner is None else base if winner == 0 else -base


def _heuristic_step(state: State, bot: Any, rng: random.Random) -> State:
    for seat in (0, 1):  # an out-of-turn declaration first, as any-time declaring allows
        view = as_json(GAME.view(state, seat))
        if not view["legal_actions"]:
            continue
        action = bot.choose(view, rng)
        if not is_wait(action):
            return fold(GAME, GAME.decide(state, seat, action), state)
    raise AssertionError("nobody moved")


def _positions(seed: str) -> Any:
    """Every state of a heuristic self-play match, with the deal number."""
    state = fold(GAME, GAME.start(Setup(players=2, seed=seed)))
    bot, rng = get_bot("heuristic", "sixty_six"), random.Random(seed)
    while GAME.outcome(state) is None:
        yield state
        state = _heuristic_step(state, bot, rng)


def _table(state: State) -> Table:
    assert state.deal is not None
    return Table.of(state.rules, code(state.deal.trump_card) // 6)


@pytest.mark.slow
def test_the_heuristic_rollout_ends_each_deal_as_the_domain_does() -> None:
    checked = 0
    bot, rng = get_bot("heuristic", "sixty_six"), random.Random(0)
    for seed in ("e1", "e2", "e3", "e4", "e5", "e6"):
        for state in _positions(seed):
            deal = state.deal
            assert deal is not None
            if deal.phase != "lead" or deal.trick or max(deal.points(0), deal.points(1)) >= TARGET:
                continue
            predicted = engine.rollout(Sim.of(deal), deal.turn, _table(state), None)
            real = state
            while real.deals_scored == state.deals_scored:
                real = _heuristic_step(real, bot, rng)
            assert predicted == _deal_outcome(real), (seed, deal)
            checked += 1
    assert checked > 100


def _minimax(state: State, scored: int) -> int:
    """Both seats play perfectly on the domain itself (declaring at 66 at once)."""
    deal = state.deal
    assert deal is not None
    if state.deals_scored > scored or state.ended is not None:
        return _deal_outcome(state)
    seat = deal.turn  # bots are asked on their own turn: they declare then
    if deal.points(seat) >= TARGET:
        return _minimax(fold(GAME, GAME.decide(state, seat, {"type": "declare_out"}), state),
                        scored)
    values = []
    for action in GAME.view(state, seat)["legal_actions"]:
        if action["type"] == "declare_out":
            continue
        values.append(_minimax(fold(GAME, GAME.decide(state, seat, action), state), scored))
    return max(values) if seat == 0 else min(values)


def test_the_endgame_solver_equals_a_minimax_on_the_domain() -> None:
    checked = 0
    for seed in ("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"):
        for state in _positions(seed):
            deal = state.deal
            assert deal is not None
            small = len(deal.hands[deal.turn]) <= 4
            if deal.phase != "lead" or deal.stock_open or not small or deal.trick:
                continue
            if max(deal.points(0), deal.points(1)) >= TARGET:
                continue
            solved = engine.solve(Sim.of(deal), deal.turn, _table(state), {})
            assert solved == _minimax(state, state.deals_scored), (seed, deal)
            checked += 1
    assert checked > 20


def test_the_match_value_is_a_chance_that_grows_with_the_points_won() -> None:
    from workers.bots.search.sixty_six import match_value, outcome_value

    for mine in range(7):
        for theirs in range(7):
            both = match_value(mine, theirs, 0, 7) + match_value(theirs, mine, 0, 7)
            assert abs(both - 1) < 1e-9  # one of the two wins
            assert match_value(mine + 1, theirs, 0, 7) >= match_value(mine, theirs, 0, 7)
    # a deal that wins the match is worth the same whatever its points; one short is not
    assert outcome_value(1, 0, (6, 5), 0, 7) == outcome_value(3, 0, (6, 5), 0, 7) == 1.0
    assert outcome_value(1, 1, (0, 3), 0, 7) < outcome_value(-1, 1, (0, 3), 0, 7)  # seat 1 loses
    assert [outcome_value(v, 0, (2, 2), 0, 7) for v in (-3, -2, -1, 0, 1, 2, 3)] == sorted(
        outcome_value(v, 0, (2, 2), 0, 7) for v in (-3, -2, -1, 0, 1, 2, 3)
    )


@pytest.mark.slow
def test_the_endgame_solver_judges_a_closed_stock_as_the_domain_does() -> None:
    """Close before drawing late in a deal (five cards each), then solve: a failed close costs
    the closer, a made one scores, as the domain's own minimax says."""
    checked = 0
    for seed in ("c1", "c2", "c3", "c4", "c5", "c6"):
        for state in _positions(seed):
            deal = state.deal
            assert deal is not None
            if deal.phase != "draw" or deal.stock_size > 4 or checked >= 8:
                continue
            if max(deal.points(0), deal.points(1)) >= TARGET:
                continue
            closed = fold(GAME, GAME.decide(state, deal.turn, {"type": "close"}), state)
            assert closed.deal is not None
            solved = engine.solve(Sim.of(closed.deal), deal.turn, _table(closed), {})
            assert solved == _minimax(closed, closed.deals_scored), (seed, deal)
            checked += 1
    assert checked >= 6
