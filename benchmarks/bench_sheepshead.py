"""Sheepshead benchmark: random self-play speed and the heuristic bot's strength.

Run: ``.venv/bin/python -m benchmarks.bench_sheepshead [--quick]``.

1. Random self-play, 5 players, default rules: whole matches (5 hands) of uniformly random
   legal actions; hands/s and actions/s (decide + fold + legal_actions).
2. Heuristic vs random on rotated duplicate deals: each deal (one hand, fixed dealer) is played
   five times, the heuristic in seat 0, 1, ... 4 in turn and random bots elsewhere (the random
   bots' rng depends only on the deal and the seat, so every rotation faces the same table
   luck); the same rotations with a random bot in the measured seat give the baseline. Prints
   mean score per hand and the hand win rate (score > 0), each with a 95% interval.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

from benchmarks.stats import wilson
from domain.games.sheepshead import GAME
from domain.games.sheepshead.state import State
from domain.protocol import Setup, fold
from workers.bots.base import RandomBot
from workers.bots.sheepshead import SheepsheadHeuristic

PLAYERS = 5


def self_play(matches: int) -> tuple[int, int, float]:
    """Random matches: (hands, actions, seconds)."""
    hands = actions = 0
    began = time.perf_counter()
    for i in range(matches):
        rnd = random.Random(i)
        state = fold(GAME, GAME.start(Setup(players=PLAYERS, seed=f"bench-{i}")))
        while state.finished is False and not state.aborted:
            seat = GAME.seats_to_act(state)[0]
            action = rnd.choice(GAME.legal_actions(state, seat))
            state = fold(GAME, GAME.decide(state, seat, action), state)
            actions += 1
        hands += state.options["rounds"]
    return hands, actions, time.perf_counter() - began


def play_hand(deal: int, hero_seat: int, hero: Any) -> int:
    """One hand of a duplicate deal; the hero's score."""
    setup = Setup(players=PLAYERS, seed=f"dup-{deal}", dealer=PLAYERS - 1, options={"rounds": 1})
    state: State = fold(GAME, GAME.start(setup))
    bots = [hero if s == hero_seat else RandomBot() for s in range(PLAYERS)]
    rngs = [random.Random(f"{deal}:{s}") for s in range(PLAYERS)]
    while GAME.outcome(state) is None:
        seat = GAME.seats_to_act(state)[0]
        action = bots[seat].choose(GAME.view(state, seat), rngs[seat])
        state = fold(GAME, GAME.decide(state, seat, action), state)
    return state.totals[hero_seat]


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def duplicate(deals: int) -> None:
    """Heuristic and random in every seat of the same deals."""
    for name, factory in (("heuristic", SheepsheadHeuristic), ("random", RandomBot)):
        began = time.perf_counter()
        scores = [play_hand(d, seat, factory()) for d in range(deals) for seat in range(PLAYERS)]
        mean, half = interval([float(s) for s in scores])
        rate, low, high = wilson(sum(1 for s in scores if s > 0), len(scores))
        print(
            f"  {name:9s} in each seat: {len(scores)} hands, mean score/hand {mean:+.3f} "
            f"± {half:.3f}, hand win rate {rate:.1%} [{low:.1%}, {high:.1%}] "
            f"({time.perf_counter() - began:.1f} s)"
        )


def main() -> None:
    """Run both measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer matches and deals")
    args = parser.parse_args()
    matches, deals = (40, 60) if args.quick else (400, 600)
    hands, actions, seconds = self_play(matches)
    print(f"random self-play, {PLAYERS} players: {matches} matches, {hands} hands, "
          f"{actions} actions in {seconds:.2f} s")  # fmt: skip
    print(f"  {hands / seconds:,.0f} hands/s, {actions / seconds:,.0f} actions/s")
    print(f"heuristic vs random, rotated duplicate deals ({deals} deals x {PLAYERS} seats):")
    duplicate(deals)


if __name__ == "__main__":
    main()
