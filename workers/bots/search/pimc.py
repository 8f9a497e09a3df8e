"""Shared helpers of the Shithead and Sheepshead search bots (perfect-information Monte Carlo).

``IterationSearch`` is the flat search of ``workers.bots.search`` with a budget counted in
*iterations* only (sampled worlds per move), so a bot's strength does not depend on the
machine's load: per iteration one world is sampled and every candidate action is played in it
(the same world and the same rollout random numbers for every candidate: the comparison is
paired), and the action with the best total is played.
"""

from __future__ import annotations

import random

from workers.bots.base import Action, View
from workers.bots.search import Adapter


class IterationSearch:
    """Flat determinized Monte Carlo over an ``Adapter``; ``iterations`` worlds per move."""

    wants_history = True

    def __init__(self, adapter: Adapter, iterations: int) -> None:
        self.adapter = adapter
        self.iterations = iterations

    def choose(self, view: View, rng: random.Random) -> Action:
        forced = self.adapter.forced(view)
        if forced is not None:
            return forced
        actions = self.adapter.candidates(view)
        if len(actions) == 1:
            return dict(actions[0])
        return dict(actions[self.best_index(view, actions, rng)])

    def totals(self, view: View, actions: list[Action], rng: random.Random) -> list[float]:
        """Each candidate's summed rollout value over the sampled worlds."""
        seat = int(view["seat"])
        totals = [0.0] * len(actions)
        for _ in range(max(1, self.iterations)):
            world = self.adapter.sample(view, rng)
            common = rng.random()
            for i, action in enumerate(actions):
                totals[i] += self.adapter.rollout(world, seat, action, random.Random(common))
        return totals

    def best_index(self, view: View, actions: list[Action], rng: random.Random) -> int:
        """The candidate with the best total (the first on a tie: candidates come best first)."""
        totals = self.totals(view, actions, rng)
        return max(range(len(actions)), key=lambda i: (totals[i], -i))
