"""How late clocks fire: `cardroom serve` (gunicorn, RQ workers with RQ's scheduler, the sweeper)
with people who join a clocked game and never move.

Run: ``.venv/bin/python -m benchmarks.bench_clocks [--timeouts 30] [--parallel 10]``.

Two stacks run side by side, and rounds alternate between them:

- ``job``: the normal path, an RQ job scheduled at the seat's time (RQ's scheduler keeps whole
  seconds and polls every second: the job is scheduled at the second before the time and waits
  for it);
- ``sweeper``: ``CARDROOM_CLOCK_JOBS=0``, no job at all, only the sweeper enforcing overdue
  clocks from the clock index (every ``CARDROOM_SWEEP_INTERVAL`` seconds, default 2).

Each timeout's lateness is read from the game's own events: ``TimedOut.at`` (stamped by the
enforcing process just before its append) minus the seat's time, ``deadline + bank`` of the
last ``ClockSet``. Reported: p50, p99 and max per path, the range of the per-round medians,
and the ratio of the sweeper's median to the job's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

import requests

from benchmarks.bench_stack import redis_for_bench, stack

OPTIONS = {"turn_seconds": 1, "on_timeout": "forfeit"}
SEATS = [{"type": "open"}, {"type": "bot", "bot": "heuristic"}]


def one_timeout(base: str) -> int:
    """A person joins a clocked Sixty-Six game against a bot and never moves: the lateness (ms)
    of the timeout that ends it."""
    http = requests.Session()
    created = http.post(f"{base}/games", json={"game": "sixty_six", "seats": SEATS,
                                               "options": OPTIONS}).json()  # fmt: skip
    game_id = created["id"]
    http.post(f"{base}/games/{game_id}/seats/0", json={"name": "gone"}).raise_for_status()
    deadline = time.monotonic() + 60
    while http.get(f"{base}/games/{game_id}").json()["status"] != "over":
        if time.monotonic() > deadline:
            raise SystemExit(f"game {game_id} never timed out")
        time.sleep(0.1)
    history = http.get(f"{base}/games/{game_id}/events?after=0").json()["events"]
    return lateness([e["event"] for e in history])


def lateness(events: list[dict[str, Any]]) -> int:
    clock = None
    for event in events:
        if event["type"] == "lifecycle.ClockSet":
            clock = event
        elif event["type"] == "lifecycle.TimedOut" and clock is not None:
            seat = event["seat"]
            return int(event["at"] - (clock["deadlines"][seat] + clock["banks"][seat]))
    raise SystemExit("a game ended without a timeout")


def percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeouts", type=int, default=30, help="timeouts per path (30)")
    parser.add_argument("--parallel", type=int, default=10, help="games at once per round (10)")
    args = parser.parse_args(argv)
    rounds = max(1, -(-args.timeouts // args.parallel))
    results: dict[str, list[int]] = {"job": [], "sweeper": []}
    medians: dict[str, list[float]] = {"job": [], "sweeper": []}
    with redis_for_bench() as url, ExitStack() as stacks:
        bases = {}
        for path, jobs in (("job", "1"), ("sweeper", "0")):
            os.environ["CARDROOM_CLOCK_JOBS"] = jobs
            bases[path] = stacks.enter_context(stack(url, 1, 1, "heuristic"))[0]
        os.environ.pop("CARDROOM_CLOCK_JOBS", None)
        with ThreadPoolExecutor(args.parallel) as pool:
            for round_ in range(rounds):
                for path in ("job", "sweeper") if round_ % 2 == 0 else ("sweeper", "job"):
                    late = list(pool.map(one_timeout, [bases[path]] * args.parallel))
                    results[path] += late
                    medians[path].append(statistics.median(late))
    print(f"clock lateness over {rounds} alternating rounds of {args.parallel} timeouts "
          "(turn_seconds 1, on_timeout forfeit; ms after the seat's time):")  # fmt: skip
    for path, late in results.items():
        print(f"  {path:8} n={len(late):3}  p50 {percentile(late, 0.5):7.0f}  "
              f"p99 {percentile(late, 0.99):7.0f}  max {max(late):7.0f}  "
              f"round medians {min(medians[path]):.0f}..{max(medians[path]):.0f}")  # fmt: skip
    job, sweep = statistics.median(results["job"]), statistics.median(results["sweeper"])
    print(f"  sweeper/job median ratio: {sweep / job:.2f}" if job > 0 else "  job median 0 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
