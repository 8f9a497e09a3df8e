"""Sixty-Six states made by the fold and read back from pickles equal what plain copies give."""

from __future__ import annotations

import copy
import pickle
import random

from domain.games.sixty_six import GAME
from domain.games.sixty_six.state import Rules, State
from domain.protocol import Setup, fold


def _states(seed: str, actions: int) -> list[State]:
    state = fold(GAME, GAME.start(Setup(players=2, seed=seed)))
    states, rnd = [state], random.Random(seed)
    while GAME.outcome(state) is None and len(states) <= actions:
        seat = GAME.awaited_seats(state)[0]
        calm = [a for a in GAME.legal_actions(state, seat) if a["type"] != "declare_out"]
        state = fold(GAME, GAME.decide(state, seat, rnd.choice(calm)), state)
        states.append(state)
    return states


def test_a_state_read_back_from_its_pickle_is_equal_and_plays_the_same() -> None:
    for state in _states("pickles", 40):
        back = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == state
        assert GAME.legal_actions(back, 0) == GAME.legal_actions(state, 0)


def test_a_copied_state_has_its_own_fields() -> None:
    state = _states("copies", 5)[-1]
    for made in (copy.copy(state), copy.deepcopy(state)):
        assert made == state
        assert made.__dict__ is not state.__dict__
        assert made.deal is not None and state.deal is not None
        assert made.deal == state.deal


def test_the_initial_state_makes_its_own_default_rules() -> None:
    assert GAME.initial_state().rules == Rules()
    assert "rules" not in vars(State)  # a default factory, no class attribute
