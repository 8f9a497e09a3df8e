"""Bots isolated from each other: built-in bots' games per minute beside a hostile HTTP bot,
as a ratio to the same run without it (issue 28 §5).

Run: ``.venv/bin/python -m benchmarks.bench_bot_isolation [--seconds 30] [--rounds 2]
[--modes loop,instant,silent] [--hostile-games 20] [--bot-limit "20 per second"]``, under
``flock /tmp/cardroom-bench.lock``.

Each phase is a fresh deployment as ``bench_capacity`` starts it (a web role, a worker role with
one RQ worker, the store and RQ on redis-servers of their own), with the default limits of
actions per seat and of requests per bot account (``--bot-limit`` sets the latter, ``""``
none). ``--games`` (10) bots-only games of built-in heuristic bots (Shithead at 4,
Sixty-Six, Sheepshead at 5, in turn) are kept in flight for ``--seconds``; the figure is the
games that finished per minute. Phases: ``alone`` (nothing else), then each mode of the hostile
HTTP bot, an account seated in ``--hostile-games`` games beside heuristic bots, played by client
threads of this process (``tests.support.hostile``): ``loop`` answers every turn at once,
swapping in Shithead for ever, ``instant`` answers every turn at once with a move that takes
the game on, ``silent`` never answers; ``loop`` and ``instant`` do not wait out a 429.

The order of the phases alternates between rounds. A mode passes when its median ratio to
``alone`` is at least 0.8. The same figures per minute of the worker's CPU time tell the
worker's scheduling apart from the machine's load (the hostile bot's client and requests run on
the same cores).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

import requests

from benchmarks.bench_capacity import BOT_GAMES, HEURISTIC, deployment
from benchmarks.stats import load_note
from tests.support.hostile import Hostile


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="per phase")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=10, help="bots-only games in flight")
    parser.add_argument("--hostile-games", type=int, default=20)
    parser.add_argument("--modes", default="loop,instant,silent")
    parser.add_argument("--bot-limit", default=None,
                        help="CARDROOM_LIMIT_BOT_REQUESTS (default: the service's)")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    limit = "the default" if args.bot_limit is None else repr(args.bot_limit)
    print(f"{load_note()}; {args.rounds} rounds of {args.seconds:g} s per phase; requests per "
          f"bot account: {limit}", flush=True)  # fmt: skip
    rates: dict[str, list[float]] = {}
    per_cpu: dict[str, list[float]] = {}
    for index in range(args.rounds):
        phases = ["alone", *modes]
        for phase in phases if index % 2 == 0 else phases[::-1]:
            rate, cpu_rate, extra = _phase(phase, args)
            rates.setdefault(phase, []).append(rate)
            per_cpu.setdefault(phase, []).append(cpu_rate)
            print(f"round {index + 1} {phase:<7}: {rate:6.1f} games/min, {cpu_rate:6.1f} per "
                  f"worker CPU-minute {extra}", flush=True)  # fmt: skip
    _report(rates, modes, "games/min")
    _report(per_cpu, modes, "games per worker CPU-minute (the worker's share, whatever the "
            "machine's load)")


def _phase(phase: str, args: argparse.Namespace) -> tuple[float, float, str]:
    """Games per minute, and per minute of the worker's CPU, in one phase."""
    # the action limit per seat as deployed; creations unlimited (one client makes them all)
    limits = {"CARDROOM_RATE_LIMITS": "1", "CARDROOM_LIMIT_CREATE": "100000 per minute"}
    if args.bot_limit is not None:
        limits["CARDROOM_LIMIT_BOT_REQUESTS"] = args.bot_limit
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-isolation-") as tmp, \
            deployment(Path(tmp), "single", limits) as (base, tiers, _):  # fmt: skip
        stop = threading.Event()
        hostile = Hostile(base, phase, args.hostile_games, stop) if phase != "alone" else None
        before, client = tiers.cpu(), time.process_time()
        try:
            finished = bots_only(base, args.games, args.seconds)
        finally:
            after, client = tiers.cpu(), time.process_time() - client
            stop.set()
            if hostile is not None:
                hostile.join()
        used = {tier: after[tier] - before[tier] for tier in after}
        worker = max(used["worker"], 0.01)
        # where the machine went: each tier's CPU seconds, and this process's (the hostile
        # bot's client threads and the bots-only games' poller)
        extra = ", ".join(f"{tier} {seconds:.1f}" for tier, seconds in used.items())
        extra = f"[CPU s: {extra}, client {client:.1f}]"
        if hostile is not None:
            extra += f" (hostile: {hostile.actions} actions, {hostile.refused} refused)"
        return finished * 60.0 / args.seconds, finished * 60.0 / worker, extra


def bots_only(base: str, games: int, seconds: float) -> int:
    """Keep ``games`` bots-only games in flight for ``seconds``; how many finished."""
    http, live, finished, turn = requests.Session(), set[str](), 0, 0
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        while len(live) < games:
            name, seats = BOT_GAMES[turn % len(BOT_GAMES)]
            turn += 1
            created = http.post(f"{base}/games", json={"game": name, "seats": [HEURISTIC] * seats})
            live.add(created.json()["id"])
        time.sleep(0.2)
        for game_id in list(live):
            if http.get(f"{base}/games/{game_id}").json()["status"] == "over":
                live.discard(game_id)
                finished += 1
    return finished


def _report(rates: dict[str, list[float]], modes: list[str], unit: str) -> None:
    print(f"{unit}:")
    alone = rates["alone"]
    print(f"alone: median {statistics.median(alone):.1f} "
          f"({', '.join(f'{r:.1f}' for r in alone)})")  # fmt: skip
    for mode in modes:
        ratios = [r / a for r, a in zip(rates[mode], alone, strict=True) if a > 0]
        median = statistics.median(ratios) if ratios else 0.0
        verdict = "ok" if median >= 0.8 else "BELOW 0.8"
        print(f"{mode}: median {statistics.median(rates[mode]):.1f}, ratio to alone "
              f"{median:.2f} ({', '.join(f'{r:.2f}' for r in ratios)}): {verdict}")  # fmt: skip


if __name__ == "__main__":
    main()
