"""Shithead benchmark: random self-play speed, fold throughput and the heuristic bot's strength.

Run: ``.venv/bin/python -m benchmarks.bench_shithead [--quick]``.

1. Random self-play with 2, 4 and 6 players (default rules): games of uniformly random legal
   actions; games/s and actions/s (legal_actions + decide + fold).
2. Fold throughput: the longest of those games is stored (JSON text per event); folding its
   decoded events is timed against ``json.loads`` of the same texts in the same run.
3. Heuristic vs random: 4 players, one heuristic seat (rotated game by game) and three random
   bots; the rate of not being the shithead and of going out first, each with a 95% Wilson
   interval, next to the same seat played by a random bot on the first half of those seeds
   (the baseline: random-only games are longer, so fewer of them keep the run under 2 minutes).
   Games run on two worker processes. A game aborted by the action limit counts as neither.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from benchmarks.stats import wilson
from domain.games.shithead import GAME
from domain.games.shithead.state import State
from domain.protocol import Setup, fold
from workers.bots.base import RandomBot
from workers.bots.shithead import ShitheadHeuristic


def random_game(players: int, seed: str) -> tuple[list[Any], int]:
    """One game of random legal actions: (events, actions)."""
    rnd = random.Random(seed)
    events = GAME.start(Setup(players=players, seed=seed))
    state: State = fold(GAME, events)
    actions = 0
    while GAME.outcome(state) is None:
        choices = [(s, a) for s in GAME.seats_to_act(state) for a in GAME.legal_actions(state, s)]
        seat, action = rnd.choice(choices)
        batch = GAME.decide(state, seat, action)
        state = fold(GAME, batch, state)
        events += batch
        actions += 1
    return events, actions


def self_play(players: int, budget: float, min_games: int) -> list[Any]:
    """Random games for about ``budget`` seconds; prints speed, returns the longest log."""
    games = actions = 0
    longest: list[Any] = []
    began = time.perf_counter()
    while games < min_games or time.perf_counter() - began < budget:
        events, n = random_game(players, f"bench-{players}-{games}")
        games += 1
        actions += n
        longest = max(longest, events, key=len)
    spent = time.perf_counter() - began
    print(
        f"  {players} players: {games} games, {games / spent:8.1f} games/s, "
        f"{actions / spent:9.0f} actions/s ({actions / games:.0f} actions/game)"
    )
    return longest


def fold_throughput(events: list[Any], repeat: int) -> None:
    """Events/s folding decoded events vs json.loads of the same stored texts."""
    texts = [json.dumps(GAME.codec.encode(e)) for e in events]
    decoded = [GAME.codec.decode(json.loads(t)) for t in texts]
    began = time.perf_counter()
    for _ in range(repeat):
        for text in texts:
            json.loads(text)
    loads = time.perf_counter() - began
    began = time.perf_counter()
    for _ in range(repeat):
        fold(GAME, decoded)
    folding = time.perf_counter() - began
    began = time.perf_counter()
    for _ in range(repeat):
        [GAME.codec.decode(json.loads(t)) for t in texts]
    decoding = time.perf_counter() - began
    n = len(events) * repeat
    print(
        f"  {len(events)} events x {repeat}: fold {n / folding:9.0f} events/s, "
        f"json.loads {n / loads:9.0f} events/s, fold/json.loads time ratio "
        f"{folding / loads:.2f}; loads+decode {n / decoding:9.0f} events/s"
    )


def bot_game(seed: int, hero_seat: int, hero: Any, players: int = 4) -> dict[str, Any]:
    """One game: the hero in one seat, random bots elsewhere; the outcome."""
    state: State = fold(GAME, GAME.start(Setup(players=players, seed=f"duel-{seed}")))
    bots = [hero if s == hero_seat else RandomBot() for s in range(players)]
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    while (result := GAME.outcome(state)) is None:
        seat = GAME.seats_to_act(state)[0]
        if isinstance(bots[seat], RandomBot):
            action = rngs[seat].choice(GAME.legal_actions(state, seat))
        else:
            action = bots[seat].choose(GAME.view(state, seat), rngs[seat])
        state = fold(GAME, GAME.decide(state, seat, action), state)
    return result


def _duel_chunk(job: tuple[str, list[int], int]) -> tuple[int, int, int]:
    """(not shithead, out first, aborted) of the measured seat over some seeds."""
    name, seeds, players = job
    factory = ShitheadHeuristic if name == "heuristic" else RandomBot
    safe = first = aborted = 0
    for i in seeds:
        seat = i % players
        result = bot_game(i, seat, factory(), players)
        aborted += result["reason"] != "finished"
        safe += result["reason"] == "finished" and result["loser"] != seat
        first += result["finishing_order"][:1] == [seat]
    return safe, first, aborted


def duel(heuristic: int, baseline: int, players: int = 4, workers: int = 2) -> None:
    """The heuristic and (baseline) a random bot in the rotated seat of the same seeds."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name, games in (("heuristic", heuristic), ("random", baseline)):
            began = time.perf_counter()
            jobs = [(name, list(range(k, games, 8 * workers)), players) for k in range(8 * workers)]
            totals = [sum(col) for col in zip(*pool.map(_duel_chunk, jobs), strict=True)]
            safe, first, aborted = totals
            spent = time.perf_counter() - began
            p, lo, hi = wilson(safe, games)
            q, qlo, qhi = wilson(first, games)
            print(
                f"  {name:9} x{games} ({spent:5.1f}s, {aborted} aborted): not shithead "
                f"{p:6.1%} [{lo:6.1%}, {hi:6.1%}]  out first {q:6.1%} [{qlo:6.1%}, {qhi:6.1%}]"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds per part")
    args = parser.parse_args()
    budget, duels, baseline, repeat = (1.0, 64, 64, 3) if args.quick else (2.0, 400, 200, 3)
    print("random self-play (default rules):")
    longest = {players: self_play(players, budget, 3) for players in (2, 4, 6)}
    print("fold throughput (the longest stored game of each size):")
    for players, events in longest.items():
        print(f" {players} players:", end="")
        fold_throughput(events, repeat)
    print(f"heuristic vs 3 random bots, 4 players, {duels} games, heuristic seat rotated:")
    began = time.perf_counter()
    duel(duels, baseline)
    print(f"(duel wall time {time.perf_counter() - began:.1f}s on 2 worker processes)")


if __name__ == "__main__":
    main()
