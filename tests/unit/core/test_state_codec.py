"""``domain.state_codec``: every game's folded states (their lifecycle, clocks and leaves
included) are plain data read back into the same states, and data naming anything but a
dataclass of the domain is refused without importing or calling it."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest

from domain.lifecycle import Keys, lifecycle
from domain.protocol import fold
from domain.registry import get_game
from domain.state_codec import from_data, to_data

SETUPS = [("shithead", 3, {}), ("sixty_six", 2, {"turn_seconds": 30}),
          ("sheepshead", 5, {}), ("sixty_six", 2, {"on_leave": "bot"})]  # fmt: skip


def _states(name: str, players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """The states of one game of random legal actions (people leave now and then)."""
    rules, rnd = lifecycle(get_game(name)), random.Random(seed)
    keys = Keys(secret=f"{seed:064x}")
    entropy = [(s, f"{s:064x}") for s in range(players)]
    state = fold(rules, rules.create(keys=keys, players=players, options=options, dealer=None,
                                     bots=[], filled=entropy, at=0))  # fmt: skip
    states = [state]
    for _ in range(300):
        seats = list(rules.awaited_seats(state))
        if rules.outcome(state) is not None or not seats:
            break
        seat = rnd.choice(seats)
        action = rnd.choice([*rules.legal_actions(state, seat), {"type": "leave"}]
                            if rnd.random() < 0.02 else rules.legal_actions(state, seat))
        state = fold(rules, rules.act(state, seat, action, keys, 1000), state)
        states.append(state)
    return states


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
def test_every_state_of_a_game_reads_back_from_its_json_as_it_was(
    name: str, players: int, options: dict[str, Any]
) -> None:
    for seed in range(2):
        for state in _states(name, players, options, seed):
            back = from_data(json.loads(json.dumps(to_data(state))))
            assert back == state and type(back.inner) is type(state.inner)


def test_a_state_reads_back_into_the_domain_s_own_classes() -> None:
    state = _states("shithead", 3, {}, 0)[-1]
    back = from_data(to_data(state))
    assert type(back) is type(state) and type(back.inner.info) is type(state.inner.info)
    assert back.inner.rules == state.inner.rules  # properties over the fields still read them


@pytest.mark.parametrize("name", [
    "builtins:print", "os:system", "posix:system", "domain.events:canonical_json",
    "domain.events:typing", "domain.games.shithead.state:attrgetter", "domain.events:Event.x",
    "domain.not_a_module:State", "domain.events:json",
])  # fmt: skip
def test_data_naming_anything_but_a_domain_dataclass_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="no dataclass of the domain"):
        from_data({"@": name, "=": {}})
    assert "domain.not_a_module" not in sys.modules  # nothing is imported


@pytest.mark.parametrize("data", [
    {"@": "domain.seating:SeatLeft", "=": {"seat": 0}},  # a field missing
    {"@": "domain.seating:SeatLeft", "=": {"seat": 0, "bot": None, "extra": 1}},
    {"()": {"a": 1}}, {"{}": [[1]]}, {"?": []}, {"a": 1, "b": 2, "c": 3},
])  # fmt: skip
def test_data_that_is_not_a_state_s_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        from_data(data)


def test_a_value_of_no_known_type_is_not_written() -> None:
    with pytest.raises(TypeError):
        to_data({"a": {1, 2}})
