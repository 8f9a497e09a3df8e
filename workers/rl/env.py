"""The PettingZoo AEC environment of each game, over the domain's own rules.

``env(game, players=None, options=None)`` (or ``CardroomEnv``): agents ``player_0`` ...;
``reset(seed=N)`` deals from the seed ``str(N)`` (the same seed, the same deal); the agent to
act is the first seat the game waits on (in Shithead's pre-play every seat that is not ready
is awaited: the lowest acts first, as the service asks bots). ``observe(agent)`` is
``{"observation": float32 vector of the seat's view, "action_mask": int8 over the game's fixed
action space}`` (``workers.rl.observe``, ``workers.rl.spaces``); the mask is all zeros for an
agent that is not to act. ``step(index)`` plays the first legal action of that index.

Rewards: Sixty-Six +1 to the match's winner and -1 to the loser; Shithead -1 shared by the
losers (the shithead) and +1 shared by the others; Sheepshead each hand's score as it is
scored (the change of the seat's total). A game the action limit ends is a truncation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from domain.events import canonical_json
from domain.protocol import Game, Setup, fold
from domain.registry import get_game
from workers.rl.observe import Encoder, encoder_for
from workers.rl.spaces import ActionSpace, OutsideTheSpace, space_for

DEFAULT_PLAYERS = {"shithead": 4, "sixty_six": 2, "sheepshead": 5}


class CardroomEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """One game of ``game`` at a table of ``players`` with ``options`` (see the module)."""

    metadata = {"render_modes": ["ansi"], "name": "cardroom_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str = "sixty_six",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game: Game[Any] = get_game(game)
        self.players = players or DEFAULT_PLAYERS.get(game, self.game.min_players)
        self.options = dict(options or {})
        self.render_mode = render_mode
        probe = fold(self.game, self.game.start(self._setup("probe")))
        self.space: ActionSpace = space_for(game, self.players, self.options, probe)
        self.encoder: Encoder = encoder_for(game)
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.metadata = {**self.metadata, "name": f"cardroom_{game}_v0"}
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
        })  # fmt: skip
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self._rng = random.Random()
        self._legal_at: tuple[int, Any, dict[int, Any]] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _setup(self, seed: str) -> Setup:
        return Setup(players=self.players, seed=seed, options=self.options)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal: from ``str(seed)``, or from a fresh random seed."""
        if seed is not None:
            self._rng.seed(seed)
        deal = str(seed) if seed is not None else f"{self._rng.getrandbits(64):016x}"
        self.state = fold(self.game, self.game.start(self._setup(deal)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = self._score()
        self.agent_selection = self._next_agent()

    def view(self, agent: str) -> dict[str, Any]:
        """The agent's seat's view, as the API shows it (JSON types)."""
        seat = self.possible_agents.index(agent)
        return dict(json.loads(canonical_json(self.game.view(self.state, seat))))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # the domain's view itself: its vector is the JSON view's (tests/unit/workers/test_rl_env)
        seat = self.possible_agents.index(agent)
        view = self.game.view(self.state, seat)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if agent == self.agent_selection and not self._over():
            mask[list(self._legal(seat, view["legal_actions"]))] = 1
        return {"observation": self.encoder.encode(view), "action_mask": mask}

    def _legal(self, seat: int, actions: Any = None) -> dict[int, Any]:
        """The seat's legal actions by index (kept for the step that follows the observation)."""
        kept = self._legal_at
        if kept is not None and kept[0] == seat and kept[1] is self.state:
            return kept[2]
        if actions is None:
            actions = self.game.legal_actions(self.state, seat)
        legal = self.space.legal(actions)
        self._legal_at = (seat, self.state, legal)
        return legal

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        legal = self._legal(seat)
        if int(action) not in legal:
            raise OutsideTheSpace(f"action {action} is not legal for {agent} now (see the mask)")
        events = self.game.decide(self.state, seat, legal[int(action)])
        self.state = fold(self.game, events, self.state)
        self._cumulative_rewards[agent] = 0.0
        self._reward()
        self._accumulate_rewards()
        if not self._over():
            self.agent_selection = self._next_agent()

    def _over(self) -> bool:
        return self.game.outcome(self.state) is not None

    def _next_agent(self) -> str:
        awaited = self.game.awaited_seats(self.state)
        return self.possible_agents[awaited[0]] if awaited else self.agent_selection

    def _reward(self) -> None:
        scores = self._score()
        for i, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(scores[i] - self._scores[i])
        self._scores = scores
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            limit = outcome.get("reason") == "action_limit"
            ended = self.truncations if limit else self.terminations
            for agent in self.agents:
                ended[agent] = True

    def _score(self) -> list[float]:
        """Each seat's score so far (rewards are its changes; see the module)."""
        totals = getattr(self.state, "totals", None)
        if self.game.name == "sheepshead" and totals is not None:
            return [float(t) for t in totals]
        outcome = self.game.outcome(self.state)
        if outcome is None or outcome.get("reason") == "action_limit":
            return [0.0] * self.players
        losers = set(outcome.get("losers") or [])
        winners = [s for s in range(self.players) if s not in losers]
        if not losers or not winners:
            return [0.0] * self.players
        return [-1.0 / len(losers) if s in losers else 1.0 / len(winners)
                for s in range(self.players)]  # fmt: skip

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        view = self.game.view(self.state, None)
        return f"{self.game.name}: to act {view.get('to_act')}; outcome {view.get('outcome')}"

    def close(self) -> None:
        pass


def env(game: str = "sixty_six", **kwargs: Any) -> CardroomEnv:
    """A new environment (``players``, ``options``, ``render_mode`` as ``CardroomEnv``)."""
    return CardroomEnv(game, **kwargs)
