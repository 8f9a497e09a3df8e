"""Serve any policy over the environment's encoding as a bot.

A policy is ``policy(observation, mask, rng) -> index``: the same float32 observation and
int8 legal-action mask ``CardroomEnv.observe`` gives, an index of the game's fixed action
space. ``PolicyBot`` turns a seat's view (from the service, the arena or the environment: the
same view) into them and the chosen index back into the legal action, so a policy trained on
the environment plays through ``cardroom bot run``, a worker or the arena unchanged::

    class MyBot(PolicyBot):
        def policy(self, observation, mask, rng):
            return int(np.flatnonzero(mask)[0])

    # cardroom bot run mymodule:MyBot --url ... --token ...
"""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np

from domain.events import canonical_json
from domain.protocol import Setup, fold
from domain.registry import get_game
from workers.rl.observe import Encoder, encoder_for
from workers.rl.spaces import ActionSpace, space_for


@functools.lru_cache(maxsize=64)
def table_space(game: str, players: int, options_json: str) -> ActionSpace:
    """The fixed action space of a table (cached: built once per game, size and options)."""
    import json

    options = json.loads(options_json)
    rules = get_game(game)
    probe = fold(rules, rules.start(Setup(players=players, seed="probe", options=options)))
    return space_for(game, players, options, probe)


def encoding(view: dict[str, Any]) -> tuple[ActionSpace, Encoder]:
    """The action space and the observation encoder of the table a view is from."""
    game = str(view["game"])
    options = {k: v for k, v in (view.get("options") or {}).items() if v is not None}
    players = len(view.get("seats") or []) or int(view.get("players") or 0)
    return table_space(game, players, canonical_json(options)), encoder_for_game(game)


@functools.lru_cache(maxsize=8)
def encoder_for_game(game: str) -> Encoder:
    return encoder_for(game)


class PolicyBot:
    """A bot whose choices are a policy's over the environment's encoding (subclass it and
    write ``policy``; ``self.space`` is the table's action space, its ``keys`` name each
    index, and ``self.encoder`` the observation's encoder, which names its parts)."""

    space: ActionSpace | None = None
    encoder: Encoder | None = None

    def policy(self, observation: np.ndarray, mask: np.ndarray, rng: random.Random) -> int:
        """The index to play (one where ``mask`` is 1); by default a uniform random one."""
        return int(rng.choice(np.flatnonzero(mask).tolist()))

    def choose(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        space, encoder = encoding(view)
        legal = space.legal(view["legal_actions"])
        mask = np.zeros(space.size, dtype=np.int8)
        mask[list(legal)] = 1
        self.space, self.encoder = space, encoder
        index = self.policy(encoder.encode(view), mask, rng)
        return dict(legal[int(index)])
