"""The training environment's speed against the domain's own random self-play, same run.

Run: ``.venv/bin/python -m benchmarks.bench_rl_env [--steps 3000] [--samples 5]``.

Baseline: random self-play as the arena and the service's bots play it, on the domain alone:
per action, the first awaited seat's view (with its legal actions), a uniformly random legal
action, ``decide`` and the fold. Measured: the same number of actions through the PettingZoo
environment as an agent loop does it: ``last()`` (the observation vector and the mask), a
uniformly random index where the mask is 1, ``step``. Samples alternate (baseline, env, env,
baseline, ...); the figure is the env's time per step over the baseline's, per sample (the
issue's bound: at most 1.5x).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from benchmarks.stats import alternate, load_note, ratio_line, spread
from domain.events import canonical_json
from domain.protocol import Setup, fold
from domain.registry import get_game
from workers.rl.env import DEFAULT_PLAYERS, env

GAMES = ("shithead", "sixty_six", "sheepshead")


def self_play(game_name: str, steps: int, seed: int) -> float:
    """Seconds per action of random self-play on the domain."""
    game, rng = get_game(game_name), random.Random(seed)
    players, done, deal = DEFAULT_PLAYERS[game_name], 0, seed
    began = time.perf_counter()
    while done < steps:
        state = fold(game, game.start(Setup(players=players, seed=str(deal))))
        while game.outcome(state) is None and done < steps:
            seat = game.awaited_seats(state)[0]
            view = json.loads(canonical_json(game.view(state, seat)))
            action = rng.choice(view["legal_actions"])
            state = fold(game, game.decide(state, seat, action), state)
            done += 1
        deal += 1
    return (time.perf_counter() - began) / steps


def env_play(game_name: str, steps: int, seed: int) -> float:
    """Seconds per step of the environment with a random agent."""
    environment, rng = env(game_name), np.random.default_rng(seed)
    done, deal = 0, seed
    began = time.perf_counter()
    while done < steps:
        environment.reset(seed=deal)
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated or done >= steps:
                environment.step(None) if terminated or truncated else None
                if done >= steps:
                    break
                continue
            environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
        deal += 1
    return (time.perf_counter() - began) / steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args(argv)
    print(load_note())
    for name in GAMES:
        base, measured = alternate(
            args.samples,
            lambda n=name: self_play(n, args.steps, 1),
            lambda n=name: env_play(n, args.steps, 1),
        )
        ratios = [m / b for b, m in zip(base, measured, strict=True)]
        print(f"{name}: self-play {spread([1 / b for b in base], '{:.0f}')} actions/s, "
              f"env {spread([1 / m for m in measured], '{:.0f}')} steps/s")  # fmt: skip
        print("  " + ratio_line(f"{name} env time per step / self-play's", ratios))


if __name__ == "__main__":
    main()
