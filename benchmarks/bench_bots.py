"""Bot decision time: how long ``choose(view, rng)`` takes, per game and bot (a part of every
bot reply's delay). Win rates are the per-game benchmarks' business (bench_<game>.py).

Run: ``.venv/bin/python -m benchmarks.bench_bots [--games 20]``.

Views are sampled from games played by the bots themselves (every bot seat of a game is the
same bot), each decision timed on its own.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import workers.examples.lowball  # noqa: F401  (registers the example user bot)
from domain.events import canonical_json
from domain.protocol import Setup, fold
from domain.registry import all_games
from workers.bots.base import UnknownBot, bot_names, get_bot, is_wait

PLAYERS = {"shithead": 4, "sixty_six": 2, "sheepshead": 5}


def decision_times(game_name: str, bot_name: str, games: int) -> tuple[list[float], int]:
    """Seconds per decision over ``games`` self-play games, and the actions played."""
    game = all_games()[game_name]
    bot = get_bot(bot_name, game_name)
    times: list[float] = []
    actions = 0
    for index in range(games):
        rng = random.Random(index)
        setup = Setup(players=PLAYERS.get(game_name, game.min_players), seed=f"bench-{index}")
        state = fold(game, game.start(setup))
        while game.outcome(state) is None and actions < 200_000:
            seat, action = _decide(game, bot, state, rng, times)
            state = fold(game, game.decide(state, seat, action), state)
            actions += 1
    return times, actions


def _decide(game: Any, bot: Any, state: Any, rng: random.Random, times: list[float]) -> Any:
    for seat in game.seats_to_act(state):
        view = json.loads(canonical_json(game.view(state, seat)))
        started = time.perf_counter()
        action = bot.choose(view, rng)
        times.append(time.perf_counter() - started)
        if not is_wait(action):
            return seat, action
    raise RuntimeError("every bot to act waits")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    print(f"{'game':<11} {'bot':<10} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for game_name in sorted(all_games()):
        for bot_name in bot_names(game_name):
            try:
                times, _ = decision_times(game_name, bot_name, args.games)
            except UnknownBot:
                continue
            ordered = sorted(times)
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            print(
                f"{game_name:<11} {bot_name:<10} {len(times):>9} "
                f"{statistics.median(ordered) * 1000:>8.3f} {p99 * 1000:>8.3f} "
                f"{ordered[-1] * 1000:>8.3f}"
            )


if __name__ == "__main__":
    main()
