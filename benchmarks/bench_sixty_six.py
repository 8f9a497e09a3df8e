"""Sixty-Six benchmark: random self-play speed, heuristic strength, and the VU `schnapsen` baseline.

Run: ``.venv/bin/python -m benchmarks.bench_sixty_six [--quick]``.

1. Random self-play (matches to 7): matches/s and actions/s, for two random players:
   ``uniform`` picks any legal action of the seat whose turn it is (false declarations included);
   ``auto66`` plays randomly but declares exactly when it has 66 (like the VU engine's automatic
   66 check), the fair counterpart of the baseline.
2. Heuristic bot vs ``uniform``, ``auto66`` and ``cautious`` random, over duplicate deals: each
   seed is played twice with the seats swapped (same deals, same first dealer); the heuristic's
   match win rate with a 95% Wilson interval.
3. The same random self-play on the `schnapsen` PyPI package (VU Amsterdam), installed only in
   its own virtualenv by ``benchmarks.bench_engines`` (``benchmarks/.anchor-venv``, git-ignored
   by its own ``.gitignore``) and run in a subprocess: it pins old Flask, so it never enters the
   project's venv.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks.bench_engines import anchor_python, anchor_sample
from benchmarks.stats import wilson
from domain.games.sixty_six import GAME
from domain.games.sixty_six.state import State
from domain.protocol import Setup, fold
from workers.bots.sixty_six import HeuristicBot, wants_to_declare

Policy = Callable[[State, int, random.Random], dict[str, Any]]


def uniform(state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
    """Any legal action of the seat."""
    return rnd.choice(GAME.legal_actions(state, seat))


def auto66(state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
    """Random play that declares exactly when it has 66 and never otherwise."""
    assert state.deal is not None
    if state.deal.points(seat) >= 66:
        return {"type": "declare_out"}
    legal = [a for a in GAME.legal_actions(state, seat) if a["type"] != "declare_out"]
    return rnd.choice(legal or GAME.legal_actions(state, seat))


def cautious(state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
    """Like ``auto66`` but never closes (a random closer nearly always fails)."""
    assert state.deal is not None
    if state.deal.points(seat) >= 66:
        return {"type": "declare_out"}
    legal = GAME.legal_actions(state, seat)
    calm = [a for a in legal if a["type"] not in ("declare_out", "close")]
    return rnd.choice(calm or legal)


def play_match(seed: str, policies: tuple[Policy, Policy], rnd: random.Random) -> tuple[State, int]:
    """One match from the seed: the seat whose turn it is acts; returns the state and actions."""
    state = fold(GAME, GAME.start(Setup(players=2, seed=seed)))
    actions = 0
    while state.ended is None:
        assert state.deal is not None
        seat = state.deal.turn
        state = fold(GAME, GAME.decide(state, seat, policies[seat](state, seat, rnd)), state)
        actions += 1
    return state, actions


def random_selfplay(policy: Policy, matches: int) -> dict[str, float]:
    """Matches/s and actions/s of random self-play."""
    rnd = random.Random(1)
    total = 0
    start = time.process_time()
    for i in range(matches):
        _, actions = play_match(f"bench-{i}", (policy, policy), rnd)
        total += actions
    elapsed = time.process_time() - start
    return {
        "matches": matches,
        "actions": total,
        "seconds": elapsed,
        "matches_per_s": matches / elapsed,
        "actions_per_s": total / elapsed,
    }


def heuristic_policy(bot: HeuristicBot) -> Policy:
    """The bot, fed with the seat's view only."""

    def choose(state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
        return bot.choose(GAME.view(state, seat), rnd)

    return choose


def play_duplicate(seed: str, heuristic_seat: int, rnd: random.Random, opponent: Policy) -> int:
    """One match of heuristic vs a random policy; the off-turn heuristic may declare out."""
    bot = HeuristicBot()
    policies: list[Policy] = [opponent, opponent]
    policies[heuristic_seat] = heuristic_policy(bot)
    state = fold(GAME, GAME.start(Setup(players=2, seed=seed)))
    while state.ended is None:
        assert state.deal is not None
        seat = state.deal.turn
        if seat != heuristic_seat and wants_to_declare(GAME.view(state, heuristic_seat)):
            seat, action = heuristic_seat, {"type": "declare_out"}
        else:
            action = policies[seat](state, seat, rnd)
        state = fold(GAME, GAME.decide(state, seat, action), state)
    assert state.winner is not None
    return state.winner


def heuristic_vs_random(seeds: int, opponent: Policy) -> dict[str, Any]:
    """Duplicate matches: every seed twice, the heuristic in seat 0 then in seat 1."""
    rnd = random.Random(2)
    wins = 0
    start = time.process_time()
    for i in range(seeds):
        for seat in (0, 1):
            wins += play_duplicate(f"dup-{i}", seat, rnd, opponent) == seat
    n = 2 * seeds
    _, low, high = wilson(wins, n)
    return {
        "matches": n,
        "wins": wins,
        "rate": wins / n,
        "low": low,
        "high": high,
        "seconds": time.process_time() - start,
    }


def _speed_line(name: str, r: dict[str, float]) -> str:
    return (
        f"  {name:<22} {r['matches']:>6} matches {r['actions']:>8} actions "
        f"{r['seconds']:6.2f} CPU s {r['matches_per_s']:8.1f} matches/s "
        f"{r['actions_per_s']:10.0f} actions/s"
    )


def main(argv: list[str] | None = None) -> None:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sample sizes")
    args = parser.parse_args(argv)
    matches, seeds = (200, 100) if args.quick else (2000, 600)
    print("Sixty-Six benchmark (matches to 7 game points)")
    print("1. random self-play, ours")
    ours_uniform = random_selfplay(uniform, matches)
    ours_auto = random_selfplay(auto66, matches)
    print(_speed_line("uniform random", ours_uniform))
    print(_speed_line("random, declares at 66", ours_auto))
    print(f"2. heuristic vs random, {seeds} seeds x 2 seats (duplicate deals)")
    opponents = (
        ("uniform random", uniform),
        ("random, declares at 66", auto66),
        ("random, no close, 66", cautious),
    )
    for name, opponent in opponents:
        h = heuristic_vs_random(seeds, opponent)
        print(f"  vs {name:<22}: heuristic wins {h['wins']}/{h['matches']} matches = "
              f"{h['rate']:.1%} (95% CI {h['low']:.1%} - {h['high']:.1%}), "
              f"{h['seconds']:.1f} CPU s")
    print("3. baseline: VU `schnapsen` engine, RandBot self-play, matches to 7 "
          "(benchmarks.bench_engines has the alternating per-action comparison)")
    theirs = anchor_sample(anchor_python(), max(matches // 4, 50), 0)
    print(f"  schnapsen RandBot: {1 / theirs:10.0f} actions/s")
    for name, ours in (("uniform", ours_uniform), ("declares at 66", ours_auto)):
        print(f"  ours ({name}) / theirs: actions/s x{ours['actions_per_s'] * theirs:.2f}")

if __name__ == "__main__":
    main()
