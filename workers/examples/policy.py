"""An example bot that is a policy over the training environment's encoding (docs/bots.md,
"A training environment"): a tiny scripted numpy policy, served as a bot by ``PolicyBot``.

It scores every index of the game's fixed action space once (numpy), prefers moves that
move the game on (Shithead: `ready` before any `swap`, plays before a pickup) and among plays
the lowest cards (one move in ten a random legal one), and in Sixty-Six declares out once
its observation shows 66 points (a match whose deals nobody declares stays undecided for
ever); the same policy plays in the environment and through the service::

    cardroom bot run workers.examples.policy:TinyPolicyBot --url URL --token TOKEN

Needs the ``rl`` extra (``pip install 'cardroom[rl]'``).
"""

from __future__ import annotations

import random

import numpy as np

from workers.rl.bot import PolicyBot
from workers.rl.spaces import ActionSpace, Key

EXPLORE = 0.1  # how often it plays a random legal index instead
ORDER = "23456789TJQKAX"  # ranks, low to high (X: a joker)
KINDS = {  # higher first: what moves a game on
    "play": 60, "flip": 55, "ready": 50, "marriage": 45, "exchange_trump": 44, "call": 40,
    "bury": 40, "pick": 35, "pass": 36, "alone": 30, "partner": 31, "no_crack": 30,
    "no_recrack": 30, "crack": 20, "recrack": 20, "draw": 15, "pickup": 10, "play_stock": 12,
    "close": 5, "declare_out": 1, "stack": 0, "swap": 0,
}  # fmt: skip


def _score(key: Key) -> float:
    low = min((ORDER.find(str(part)[0]) for part in key[1:] if isinstance(part, str) and part),
              default=0)  # fmt: skip
    return KINDS.get(str(key[0]), 0) - low / len(ORDER)


_PREFERENCES: dict[int, np.ndarray] = {}


def preferences(space: ActionSpace) -> np.ndarray:
    """One score per index of the space (computed once per table: spaces are kept)."""
    found = _PREFERENCES.get(id(space))
    if found is None:
        found = _PREFERENCES[id(space)] = np.array([_score(k) for k in space.keys], np.float32)
    return found


class TinyPolicyBot(PolicyBot):
    """The legal index with the best score (see the module)."""

    def policy(self, observation: np.ndarray, mask: np.ndarray, rng: random.Random) -> int:
        assert self.space is not None and self.encoder is not None
        declare = self.space.index.get(("declare_out",))
        if declare is not None and mask[declare] and self._has_66(observation):
            return declare
        if rng.random() < EXPLORE:  # deterministic play can cycle in Shithead: never for ever
            return int(rng.choice(np.flatnonzero(mask).tolist()))
        scores = np.where(mask == 1, preferences(self.space), -np.inf)
        return int(np.argmax(scores))

    def _has_66(self, observation: np.ndarray) -> bool:
        assert self.encoder is not None
        return self.encoder.scalar(observation, "points") >= 1.0  # points / 66
