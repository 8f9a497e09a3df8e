"""Scale-out benchmark: the store on a Redis Cluster against one Redis, with 1 and 2 workers.

Run: ``.venv/bin/python -m benchmarks.bench_cluster [--seconds 15] [--rounds 3]``.

Everything runs on this machine, started by the script: one plain ``redis-server`` (no
persistence) and a Redis Cluster of three masters (no persistence, ``redis-cli --cluster
create``). Two set-ups, each under ``cardroom serve`` with ONE web process (gunicorn, gevent):

- ``single``:  the store and RQ on the plain Redis (``REDIS_URL``);
- ``cluster``: the store on the cluster (``REDIS_URL=redis+cluster://...``), RQ on the plain
  Redis (``RQ_REDIS_URL``).

What is timed, per sample (a fresh ``cardroom serve`` and namespace each):

1. workers: ``--games`` bots-only 4-player Shithead games kept in flight for ``--seconds``
   with M = 1 or 2 RQ workers; finished games per minute and events appended per second (every
   bot action goes through the worker's service layer: fetch, decide, append). The client only
   creates games and polls their summaries over HTTP.
2. one web process: ``wrk -t1 -c8`` for ``--wrk-seconds`` on ``GET /games/{id}/view`` of a
   live two-person game at rest (a store fetch and a cached view per request); requests/s.
   Skipped when wrk is not installed.

Samples alternate (round r runs single then cluster, round r+1 cluster then single) and every
figure is printed as the median and range of ``--rounds`` samples, then as ratios measured in
the same run: cluster / single, and 2 workers / 1 worker. The machine's other load shares the
same CPUs (the load generator, the Redis servers and the service too): read the ratios, not the
absolute figures.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from benchmarks.servers import free_port
from tests.support.redis_cluster import OwnCluster
from tests.support.redis_server import OwnRedis

ROOT = Path(__file__).resolve().parent.parent
SEATS = [{"type": "bot", "bot": "heuristic"}] * 4


@contextmanager
def serve(env: dict[str, str], workers: int) -> Iterator[str]:
    """``cardroom serve`` with one web process and ``workers`` RQ workers; yields its base URL."""
    port = free_port()
    full = {**os.environ, **env, "CARDROOM_NAMESPACE": f"bench-{uuid.uuid4().hex[:8]}",
            "CARDROOM_RATE_LIMITS": "0"}  # fmt: skip
    command = [sys.executable, "-m", "service.cli", "serve", "--port", str(port),
               "--web-workers", "1", "--bot-workers", str(workers)]  # fmt: skip
    server = subprocess.Popen(
        command, cwd=ROOT, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{base}/readyz", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("cardroom serve did not become ready")
            time.sleep(0.2)
        yield base
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


def bots_throughput(base: str, games: int, seconds: float) -> tuple[float, float]:
    """Games finished per minute and events appended per second (in every game in flight,
    finished or not), ``games`` kept in flight."""
    http = requests.Session()
    live: dict[str, int] = {}  # game -> version when first seen
    finished = events = 0
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        while len(live) < games:
            created = http.post(f"{base}/games", json={"game": "shithead", "seats": SEATS})
            live[created.json()["id"]] = created.json()["version"]
        time.sleep(0.2)
        for game_id, first in list(live.items()):
            summary = http.get(f"{base}/games/{game_id}").json()
            if summary["status"] == "over":
                del live[game_id]
                finished += 1
                events += summary["version"] - first
    elapsed = time.monotonic() - started
    for game_id, first in live.items():  # the unfinished games' events count too
        events += http.get(f"{base}/games/{game_id}").json()["version"] - first
    return finished * 60 / elapsed, events / elapsed


def view_rate(base: str, seconds: float) -> float | None:
    """wrk's requests/s on one live game's spectator view (None without wrk)."""
    wrk = shutil.which("wrk")
    if wrk is None:
        return None
    http = requests.Session()
    seats = [{"type": "open"}, {"type": "open"}]
    game_id = http.post(f"{base}/games", json={"game": "shithead", "seats": seats}).json()["id"]
    for seat in (0, 1):
        http.post(f"{base}/games/{game_id}/seats/{seat}", json={"name": f"p{seat}"})
    url = f"{base}/games/{game_id}/view"
    assert http.get(url).status_code == 200
    out = subprocess.run(
        [wrk, "-t1", "-c8", f"-d{seconds:g}s", url], capture_output=True, text=True, check=True
    ).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"wrk saw {errors.group(1)} failed requests")
    return float(found.group(1)) if found else None


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):8.1f} (range {min(values):.1f}-{max(values):.1f})"


def ratio(top: list[float], bottom: list[float]) -> str:
    """Median of the per-round ratios, with their range."""
    each = [t / b for t, b in zip(top, bottom, strict=True) if b]
    if not each:
        return "n/a"
    return f"{statistics.median(each):.2f}x (range {min(each):.2f}-{max(each):.2f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="per throughput sample")
    parser.add_argument("--rounds", type=int, default=3, help="samples per set-up")
    parser.add_argument("--games", type=int, default=8, help="bots-only games in flight")
    parser.add_argument("--wrk-seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} CPUs; one web process; {args.rounds} rounds of {args.seconds:g} s; "
          f"{args.games} bots-only 4-player Shithead games (heuristic) in flight")  # fmt: skip
    games: dict[tuple[str, int], list[float]] = {}
    events: dict[tuple[str, int], list[float]] = {}
    views: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-cluster-") as tmp:
        plain = OwnRedis(Path(tmp), "--appendonly", "no")
        cluster = OwnCluster(Path(tmp) / "cluster")
        try:
            setups = {
                "single": {"REDIS_URL": plain.url},
                "cluster": {"REDIS_URL": cluster.url, "RQ_REDIS_URL": plain.url},
            }
            for index in range(args.rounds):
                order = ["single", "cluster"] if index % 2 == 0 else ["cluster", "single"]
                for workers in (1, 2):
                    for name in order:
                        with serve(setups[name], workers) as base:
                            rate, appended = bots_throughput(base, args.games, args.seconds)
                            games.setdefault((name, workers), []).append(rate)
                            events.setdefault((name, workers), []).append(appended)
                            line = f"round {index + 1} {name:<7} {workers} worker(s): "
                            line += f"{rate:6.1f} games/min {appended:7.1f} events/s"
                            if workers == 1:
                                seen = view_rate(base, args.wrk_seconds)
                                if seen is not None:
                                    views.setdefault(name, []).append(seen)
                                    line += f", web view {seen:7.1f} req/s"
                            print(line, flush=True)
        finally:
            cluster.stop()
            plain.stop()
    print("\nmedian (range) over the rounds")
    for (name, workers), values in sorted(games.items()):
        print(f"  {name:<7} {workers} worker(s): games/min {spread(values)}  "
              f"events/s {spread(events[(name, workers)])}")  # fmt: skip
    for name, values in sorted(views.items()):
        print(f"  {name:<7} one web process, GET view (wrk -c8): req/s {spread(values)}")
    print("\nratios (same run, per round)")
    for label, figures in (("games/min", games), ("events/s", events)):
        for workers in (1, 2):
            both = figures[("cluster", workers)], figures[("single", workers)]
            print(f"  cluster / single, {workers} worker(s), {label}: {ratio(*both)}")
        for name in ("single", "cluster"):
            print(f"  2 workers / 1 worker, {name}, {label}: "
                  f"{ratio(figures[(name, 2)], figures[(name, 1)])}")  # fmt: skip
    if "single" in views and "cluster" in views:
        print(f"  cluster / single, one web process, view req/s: "
              f"{ratio(views['cluster'], views['single'])}")  # fmt: skip


if __name__ == "__main__":
    main()
