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
budget is a count of worlds per move (``pimc.IterationSearch``), so a bot plays alike on a busy
machine and an idle one.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from workers.bots.base import Action, View


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

