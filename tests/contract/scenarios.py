"""How the contract suite reaches each game's test knowledge.

A game joins the suite by providing ``tests/contract/scenario_<game>.py`` with:

- ``SETUPS``: a list of ``(players, options)`` pairs the playouts run (every player count and
  sampled option combinations);
- ``cards_in_play(state) -> list[str]``: every card of the deal, wherever it lies now;
- ``candidate_actions(state, seat) -> list[dict]``: a broad superset of the legal actions
  (legal ones, near-misses and nonsense) used to check that decide accepts exactly the legal;
- ``scramble_hidden(state, seat, rnd) -> state``: the same state with the cards that ``seat``
  cannot see permuted among their hidden places (the no-leak property).
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAME_NAMES = ("shithead", "sixty_six", "sheepshead")


def available() -> dict[str, ModuleType]:
    """The scenario module of every game; a game or scenario that is missing is an error."""
    return {name: importlib.import_module(f"tests.contract.scenario_{name}") for name in GAME_NAMES}
