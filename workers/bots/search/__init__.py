"""Search bots: determinized Monte Carlo search over the pure domain deciders.

A search bot sees only its seat's view and the seat's redacted event history (``view["history"]``,
added by whoever asks the bot: the job runner, the arena, ``cardroom bot run``; a bot that wants
it sets ``wants_history = True``). Per move it repeatedly

1. samples a *world*: a full game state consistent with everything the seat has seen (its own
   cards, the cards played, the voids revealed, the cards shown), with the unseen cards dealt
   at random among the places they could be (``Adapter.sample``);
2. plays every candidate action in that same world and finishes the deal (or hand, or game)
   with a fast rollout policy straight on the domain's ``decide``/``evolve`` (no JSON);
3. scores the result from the seat's point of view (``Adapter.rollout``).

The action with the best mean over the sampled worlds is played (perfect-information Monte
Carlo: each world is searched as if its cards were known, and the worlds are averaged). The
budget is ``iterations`` worlds per move, cut short after ``ms`` milliseconds.
"""

from __future__ import annotations

import random
import time
from typing import Any, Protocol

from workers.bots.base import Action, View

DEFAULT_ITERATIONS = 48
DEFAULT_MS = 150.0


class Adapter(Protocol):
    """What the search needs to know about one game."""

    def forced(self, view: View) -> Action | None:
        """An action to play without searching (a sure declaration, WAIT, a single choice)."""
        ...

    def candidates(self, view: View) -> list[Action]:
        """The actions worth comparing (usually ``view["legal_actions"]``)."""
        ...

    def sample(self, view: View, rng: random.Random) -> Any:
        """A full state consistent with the view and its history."""
        ...

    def rollout(self, world: Any, seat: int, action: Action, rng: random.Random) -> float:
        """Play ``action`` in ``world``, finish with the rollout policy, return the seat's value."""
        ...


class SearchBot:
    """A determinized Monte Carlo search over an ``Adapter``; see the module docstring."""

    wants_history = True

    def __init__(
        self,
        adapter: Adapter,
        iterations: int = DEFAULT_ITERATIONS,
        ms: float = DEFAULT_MS,
    ) -> None:
        self.adapter = adapter
        self.iterations = iterations
        self.ms = ms

    def choose(self, view: View, rng: random.Random) -> Action:
        forced = self.adapter.forced(view)
        if forced is not None:
            return forced
        actions = self.adapter.candidates(view)
        if len(actions) == 1:
            return dict(actions[0])
        totals = [0.0] * len(actions)
        deadline = time.perf_counter() + self.ms / 1000
        worlds = 0
        while worlds < self.iterations and (worlds < 2 or time.perf_counter() < deadline):
            world = self.adapter.sample(view, rng)
            seat = int(view["seat"])
            common = rng.random()  # every action's rollout in this world draws the same numbers
            for i, action in enumerate(actions):
                totals[i] += self.adapter.rollout(world, seat, action, random.Random(common))
            worlds += 1
        best = max(range(len(actions)), key=lambda i: totals[i])
        return dict(actions[best])
