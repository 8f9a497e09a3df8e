"""The Sixty-Six search bot's decision time at its default budget, wall and CPU.

Run: ``.venv/bin/python -m benchmarks.bench_search_sixty_six [--matches 6] [--worlds N]``.

Plays ``--matches`` matches of ``search`` against ``heuristic`` (seats alternating, the arena's
own ``play_game``) and times every search decision twice: wall clock (``perf_counter``, what a
player waits, inflated when the machine is loaded) and the process's CPU time
(``process_time``, close to what the same decision takes on an idle core). The heuristic bot's
decisions in the same games are the baseline: the figures are printed as medians and p90s and
as ratios to it, per match and overall (median and range over the matches).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from workers.arena import play_game
from workers.bots.base import get_bot, register_bot
from workers.bots.search.sixty_six import DEFAULT_WORLDS, SixtySixSearch


class _Timed:
    """Wraps a bot; records wall and CPU milliseconds per decision."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.wants_history = getattr(bot, "wants_history", False)
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def choose(self, view: dict[str, Any], rng: random.Random) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view, rng)
        self.cpu.append((time.process_time() - cpu) * 1000)
        self.wall.append((time.perf_counter() - wall) * 1000)
        return action


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    parser.add_argument("--seed", default="bench-search-66")
    args = parser.parse_args(argv)
    search = _Timed(SixtySixSearch(worlds=args.worlds))
    heuristic = _Timed(get_bot("heuristic", "sixty_six"))
    chosen = {"search": search, "heuristic": heuristic}
    register_bot("bench:search", "sixty_six")(lambda: search)
    register_bot("bench:heuristic", "sixty_six")(lambda: heuristic)
    ratios: list[float] = []
    for match in range(args.matches):
        seats = ["bench:search", "bench:heuristic"]
        if match % 2:
            seats.reverse()
        before_s, before_h = len(search.cpu), len(heuristic.cpu)
        play_game("sixty_six", seats, f"{args.seed}-{match // 2}", bot_seed=f"{args.seed}-{match}")
        cpu_s = statistics.median(search.cpu[before_s:])
        cpu_h = statistics.median(heuristic.cpu[before_h:])
        ratios.append(cpu_s / cpu_h if cpu_h else float("inf"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"search ({args.worlds} worlds) vs heuristic, {args.matches} matches, "
          f"load average {load:.1f}")
    print(f"{'bot':<10} {'decisions':>9} {'wall p50':>9} {'wall p90':>9} {'cpu p50':>8} "
          f"{'cpu p90':>8}  (ms)")
    for name, timed in chosen.items():
        print(f"{name:<10} {len(timed.cpu):>9} {statistics.median(timed.wall):>9.2f} "
              f"{p90(timed.wall):>9.2f} {statistics.median(timed.cpu):>8.2f} "
              f"{p90(timed.cpu):>8.2f}")
    print(f"search/heuristic median CPU per decision, per match: median "
          f"{statistics.median(ratios):.0f}x, range {min(ratios):.0f}x..{max(ratios):.0f}x")


if __name__ == "__main__":
    main()
