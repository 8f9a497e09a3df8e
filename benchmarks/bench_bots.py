"""Bot decision time: the CPU time ``choose(view, rng)`` takes, per game and bot (a part of
every bot reply's delay; CPU time, so the machine's load does not inflate it). Win rates are
the per-game benchmarks' business (bench_<game>.py).

Run: ``.venv/bin/python -m benchmarks.bench_bots [--games 20]``.

Views are sampled from games played by the bots themselves in the arena (every bot seat of a
game is the same bot; a bot that wants its history gets it), each decision timed on its own.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import workers.examples.lowball  # noqa: F401  (registers the example user bot)
from domain.registry import all_games
from workers.arena import play_game
from workers.bots.base import UnknownBot, bot_names, get_bot, register_bot

PLAYERS = {"shithead": 4, "sixty_six": 2, "sheepshead": 5}


class _Timed:
    """A bot that records the CPU time of each of the wrapped bot's decisions (CPU time, so
    the machine's load does not inflate it)."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot, self.times = bot, times
        self.wants_history = getattr(bot, "wants_history", False)

    def choose(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        started = time.process_time()
        action = self.bot.choose(view, rng)
        self.times.append(time.process_time() - started)
        return dict(action)


def decision_times(game_name: str, bot_name: str, games: int) -> tuple[list[float], int]:
    """CPU seconds per decision over ``games`` self-play games (the arena's, so a bot that
    wants its history gets it), and the games' actions."""
    game = all_games()[game_name]
    times: list[float] = []
    timed = f"timed-{bot_name}"
    register_bot(timed, game_name)(lambda: _Timed(get_bot(bot_name, game_name), times))
    players = PLAYERS.get(game_name, game.min_players)
    for index in range(games):
        play_game(game_name, [timed] * players, f"bench-{index}", bot_seed=f"bench-{index}")
    return times, len(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    print(f"{'game':<11} {'bot':<10} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for game_name in sorted(all_games()):
        for bot_name in [n for n in bot_names(game_name) if not n.startswith("timed-")]:
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
