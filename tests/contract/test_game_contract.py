"""Given any game, random playouts terminate, conserve cards, agree with legal_actions,
fold identically from stored events, and never show a seat what it cannot see."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from domain.errors import DomainError
from domain.protocol import Setup, action_key, fold
from domain.registry import all_games, get_game
from tests.contract.scenarios import available

SCENARIOS = available()
SEEDS_PER_SETUP = 3

# every setup's first seed runs in the fast subset (``make unit``), the others with ``make test``
CASES = [
    pytest.param(name, players, options, seed, id=f"{name}-{players}p-{i}-s{seed}",
                 marks=pytest.mark.slow if seed else ())
    for name, module in SCENARIOS.items()
    for i, (players, options) in enumerate(module.SETUPS)
    for seed in range(SEEDS_PER_SETUP)
]


def test_every_game_has_a_contract_scenario() -> None:
    assert set(SCENARIOS) == set(all_games()), "every registered game runs the contract suite"


def _legal_choices(game: Any, state: Any) -> list[tuple[int, dict[str, Any]]]:
    return [(s, a) for s in game.seats_to_act(state) for a in game.legal_actions(state, s)]


def _accepted(game: Any, state: Any, seat: int, action: dict[str, Any]) -> bool:
    try:
        game.decide(state, seat, action)
    except DomainError:
        return False
    return True


@pytest.mark.parametrize(("name", "players", "options", "seed"), CASES)
def test_random_playout_keeps_the_contract(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    game = get_game(name)
    scenario = SCENARIOS[name]
    rnd = random.Random(f"{name}:{players}:{seed}")
    creation = game.start(Setup(players=players, options=options, seed=f"contract-{seed}"))
    state = fold(game, creation)
    dealt = Counter(scenario.cards_in_play(state))
    assert max(dealt.values()) == 1, "a card is dealt twice"
    log = list(creation)
    steps = 0
    while game.outcome(state) is None:
        choices = _legal_choices(game, state)
        assert choices, "a live game always offers an action"
        awaited = game.awaited_seats(state)
        assert awaited, "a live game always waits on some seat"
        assert set(awaited) <= set(game.seats_to_act(state))
        assert all(game.legal_actions(state, s) for s in awaited), "an awaited seat has a move"
        if steps % 7 == 0:
            _check_decide_agrees_with_legal(game, scenario, state, rnd)
            _check_views_hide_what_they_must(game, scenario, state, players, rnd)
        seat, action = rnd.choice(choices)
        events = game.decide(state, seat, action)
        assert events, "an accepted action records at least one fact"
        state = fold(game, events, state)
        log.extend(events)
        assert Counter(scenario.cards_in_play(state)) == dealt, "cards are conserved"
        steps += 1
        assert steps <= 20_000, "the game must end (action limit)"
    assert game.outcome(state) is not None
    assert game.legal_actions(state, 0) == []
    assert game.seats_to_act(state) == ()
    assert game.awaited_seats(state) == ()
    _check_fold_from_storage_equals_live_state(game, log, state)


def _check_decide_agrees_with_legal(
    game: Any, scenario: Any, state: Any, rnd: random.Random
) -> None:
    acting = set(game.seats_to_act(state))
    players = len(game.view(state, None)["seats"])
    for seat in range(players):
        legal = {action_key(a) for a in game.legal_actions(state, seat)}
        if seat not in acting:
            assert not legal, f"seat {seat} is offered actions while it may not act"
        for action in game.legal_actions(state, seat):
            assert _accepted(game, state, seat, action), f"legal {action} was rejected"
        candidates = scenario.candidate_actions(state, seat)
        for action in rnd.sample(candidates, min(len(candidates), 40)):
            accepted = _accepted(game, state, seat, action)
            assert accepted == (action_key(action) in legal), (
                f"seat {seat}: decide {'accepted' if accepted else 'rejected'} {action}, "
                f"legal_actions {'did not offer' if accepted else 'offered'} it"
            )


def _check_views_hide_what_they_must(
    game: Any, scenario: Any, state: Any, players: int, rnd: random.Random
) -> None:
    for seat in [*range(players), None]:
        scrambled = scenario.scramble_hidden(state, seat, rnd)
        assert game.view(scrambled, seat) == game.view(state, seat), f"view of {seat} leaks"
        json.dumps(game.view(state, seat))


def _check_fold_from_storage_equals_live_state(game: Any, log: list[Any], state: Any) -> None:
    stored = [json.loads(json.dumps(game.codec.encode(e))) for e in log]
    decoded = [game.codec.decode(d) for d in stored]
    assert [game.codec.encode(e) for e in decoded] == [game.codec.encode(e) for e in log]
    assert fold(game, decoded) == state
