"""How late clocks fire: `cardroom serve` (gunicorn, RQ workers with RQ's scheduler, the sweeper)
with people who join a clocked game and never move.

Run: ``.venv/bin/python -m benchmarks.bench_clocks [--timeouts 30] [--parallel 10]``.

Two stacks run side by side, and rounds alternate between them:

- ``job``: the normal path, an RQ job scheduled at the seat's time (RQ's scheduler keeps whole
  seconds and polls every second: the job is scheduled at the second before the time and waits
  for it);
- ``sweeper``: ``CARDROOM_CLOCK_JOBS=0``, no job at all, only the sweeper enforcing overdue
  clocks from the clock index (every ``CARDROOM_SWEEP_INTERVAL`` seconds, default 2).

Then (``--games``, default 21; 0 skips it) every game at once on the ``job`` stack: a third
each of Sixty-Six (2 seats), Sheepshead (5) and Shithead (6: its swap phase puts every seat on
one deadline), every seat a person who never moves, ``turn_seconds`` 2 and ``on_timeout``
move, until each game has ``--per-game`` timeouts (8); every timeout's lateness counts.
Target (issue 29): p99 at most 250 ms, max at most 1 s.

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
    found = latenesses(events)
    if not found:
        raise SystemExit("a game ended without a timeout")
    return found[0]


def latenesses(events: list[dict[str, Any]]) -> list[int]:
    """Every timeout's lateness (ms): its ``at`` minus the seat's time by the last ClockSet."""
    clock, found = None, []
    for event in events:
        if event["type"] == "lifecycle.ClockSet":
            clock = event
        elif event["type"] == "lifecycle.TimedOut" and clock is not None:
            seat = event["seat"]
            found.append(int(event["at"] - (clock["deadlines"][seat] + clock["banks"][seat])))
    return found


GAMES = (("sixty_six", 2), ("sheepshead", 5), ("shithead", 6))
SILENT: dict[str, Any] = {"turn_seconds": 2, "on_timeout": "move"}


def silent_game(base: str, game: str, players: int, timeouts: int) -> list[int]:
    """People join a clocked game and never move: the lateness of its first ``timeouts``
    timeouts (then a seat resigns)."""
    http = requests.Session()
    created = http.post(f"{base}/games", json={"game": game, "seats": [{"type": "open"}] * players,
                                               "options": SILENT}).json()  # fmt: skip
    game_id, tokens = created["id"], []
    for seat in range(players):
        joined = http.post(f"{base}/games/{game_id}/seats/{seat}", json={"name": f"p{seat}"})
        tokens.append(joined.json()["token"])
    deadline = time.monotonic() + 30 + 4 * timeouts
    while True:
        events = [e["event"] for e in
                  http.get(f"{base}/games/{game_id}/events?after=0").json()["events"]]
        if len(latenesses(events)) >= timeouts or events[-1]["type"] == "lifecycle.SecretRevealed":
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"{game} game {game_id} had too few timeouts in time")
        time.sleep(0.5)
    http.post(f"{base}/games/{game_id}/actions", json={"type": "resign"},
              headers={"Authorization": f"Bearer {tokens[0]}"})  # fmt: skip
    return latenesses(events)[:timeouts]


def all_games(base: str, games: int, timeouts: int) -> dict[str, list[int]]:
    """``games`` silent games at once, a third of each kind: lateness per kind."""
    kinds = [GAMES[i % len(GAMES)] for i in range(games)]
    with ThreadPoolExecutor(len(kinds)) as pool:
        found = list(pool.map(lambda k: silent_game(base, k[0], k[1], timeouts), kinds))
    by_kind: dict[str, list[int]] = {}
    for (game, players), late in zip(kinds, found, strict=True):
        by_kind.setdefault(f"{game} {players}p", []).extend(late)
    return by_kind


def summary(late: list[int]) -> str:
    return (f"n={len(late):3}  p50 {percentile(late, 0.5):6.0f}  p99 {percentile(late, 0.99):6.0f}"
            f"  max {max(late):6.0f}")


def percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeouts", type=int, default=30, help="timeouts per path (30)")
    parser.add_argument("--parallel", type=int, default=10, help="games at once per round (10)")
    parser.add_argument("--games", type=int, default=21, help="silent games at once (21; 0: none)")
    parser.add_argument("--per-game", type=int, default=8, help="timeouts per silent game (8)")
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
        by_kind = all_games(bases["job"], args.games, args.per_game) if args.games else {}
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
    if by_kind:
        print(f"{args.games} silent games at once (turn_seconds 2, on_timeout move, "
              f"{args.per_game} timeouts each; ms after the seat's time):")  # fmt: skip
        for kind, late in by_kind.items():
            print(f"  {kind:14} {summary(late)}")
        print(f"  {'all':14} {summary([t for late in by_kind.values() for t in late])}")
    job, sweep = statistics.median(results["job"]), statistics.median(results["sweeper"])
    print(f"  sweeper/job median ratio: {sweep / job:.2f}" if job > 0 else "  job median 0 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
