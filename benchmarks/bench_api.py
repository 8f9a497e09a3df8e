"""HTTP benchmark: the action endpoint against a bare JSON + XADD endpoint, same gunicorn set-up.

Run: ``.venv/bin/python -m benchmarks.bench_api [--seconds 5] [--workers 4] [--game shithead]``
(needs a Redis: REDIS_URL, else 127.0.0.1:6379). Loopback only; every phase is time-bounded.

(a) ``POST /bare`` of ``benchmarks.bare_app``: parse JSON, one XADD.
(b) ``POST /games/{id}/actions`` of ``service.app``: every client thread plays its own games,
    reading the acting seat's view (GET, not timed) and posting a random legal action (timed).
Both at concurrency 8 and 64 (client threads spread over several client processes), sync
gunicorn workers, no keep-alive (gunicorn sync closes each connection). Prints requests/s and
p50/p99 latency, and (b)/(a). Then: GET /view latency of a game at version ~1000 and at ~10,
with the per-process state cache and without it (CARDROOM_CACHE_SIZE=0: a fold of the whole
stream per request).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis

Result = tuple[list[float], int, int]  # latencies of timed requests (s), errors, untimed


class Http:
    """A minimal JSON client on http.client (lighter than requests: the client shares the CPUs)."""

    def __init__(self, base: str) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            sent = dict(headers or {})
            payload = None
            if body is not None:
                payload = json.dumps(body).encode()
                sent["Content-Type"] = "application/json"
            connection.request(method, path, body=payload, headers=sent)
            response = connection.getresponse()
            data = response.read()
            kind = response.getheader("Content-Type") or ""
            return response.status, json.loads(data) if "json" in kind else None
        finally:
            connection.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def gunicorn(app: str, workers: int, env: dict[str, str]) -> Iterator[str]:
    """Serve ``app`` with sync workers on a free loopback port; yield its base URL."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class",
               "sync", "--bind", f"127.0.0.1:{port}", "--backlog", "2048", "--log-level",
               "warning", app]
    process = subprocess.Popen(command, env={**os.environ, **env})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)


def wait_until_up(base: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            Http(base).call("GET", "/")
            return
        except (OSError, ValueError):
            time.sleep(0.1)
    raise RuntimeError(f"{base} did not start")


# -- load ---------------------------------------------------------------------------------
def bare_client(base: str, seconds: float, seed: int) -> Result:
    client, latencies, errors, n = Http(base), [], 0, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = {"type": "play", "cards": ["3H"], "expected_version": n}
        started = time.perf_counter()
        status, _ = client.call("POST", "/bare", body)
        latencies.append(time.perf_counter() - started)
        errors += status != 200
        n += 1
    return latencies, errors, 0


class Player:
    """One client playing its own games through the API, seat by seat, from their views."""

    def __init__(self, base: str, game: str, seed: int) -> None:
        self.game = game
        self.http = Http(base)
        self.rnd = random.Random(seed)
        self.untimed = 0
        self.new_game()

    def new_game(self) -> None:
        seats = [{"type": "open"}, {"type": "open"}]
        _, created = self.http.call("POST", "/games", {"game": self.game, "seats": seats})
        self.id = created["id"]
        self.tokens = [
            self.http.call("POST", f"/games/{self.id}/seats/{s}", {"name": f"p{s}"})[1]["token"]
            for s in range(2)
        ]
        self.to_act = list(created["to_act"])

    def step(self, latencies: list[float]) -> bool:
        """Read an acting seat's view, post one legal action (timed); False on an error."""
        seat = self.rnd.choice(self.to_act)
        auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
        _, view = self.http.call("GET", f"/games/{self.id}/view", headers=auth)
        self.untimed += 1
        legal = view["view"]["legal_actions"]
        if not legal:
            self.to_act = view["view"]["to_act"]
            if not self.to_act:
                self.new_game()
            return True
        body = {**self.rnd.choice(legal), "expected_version": view["version"]}
        started = time.perf_counter()
        status, result = self.http.call("POST", f"/games/{self.id}/actions", body, auth)
        latencies.append(time.perf_counter() - started)
        if status != 200:
            return False
        after = result["view"]
        self.to_act = after["to_act"]
        if after.get("outcome") is not None or not self.to_act:
            self.new_game()
        return True


def action_client(base: str, seconds: float, seed: int, game: str) -> Result:
    player = Player(base, game, seed)
    latencies: list[float] = []
    errors = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        errors += not player.step(latencies)
    return latencies, errors, player.untimed


def _threads(target: Callable[..., Result], count: int, args: tuple[Any, ...],
             queue: Any) -> None:
    import threading

    results: list[Result] = []
    lock = threading.Lock()

    def run(i: int) -> None:
        out = target(*args[:2], args[2] * 1000 + i, *args[3:])
        with lock:
            results.append(out)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queue.put((
        [x for lat, _, _ in results for x in lat],
        sum(e for _, e, _ in results),
        sum(u for _, _, u in results),
    ))


def load(target: Callable[..., Result], concurrency: int, base: str, seconds: float,
         *extra: Any) -> dict[str, float]:
    """Run ``concurrency`` client threads over up to 4 processes; summarise the timed requests."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    procs = min(4, concurrency)
    sizes = [concurrency // procs + (i < concurrency % procs) for i in range(procs)]
    workers = [ctx.Process(target=_threads, args=(target, n, (base, seconds, i, *extra), queue))
               for i, n in enumerate(sizes)]
    for w in workers:
        w.start()
    parts = [queue.get() for _ in workers]
    for w in workers:
        w.join()
    latencies = sorted(x for lat, _, _ in parts for x in lat)
    out = summarise(latencies, sum(e for _, e, _ in parts), seconds)
    out["all_rps"] = (len(latencies) + sum(u for _, _, u in parts)) / seconds
    return out


def summarise(latencies: list[float], errors: int, seconds: float) -> dict[str, float]:
    ordered = sorted(latencies)
    if not ordered:
        return {"rps": 0.0, "p50_ms": float("nan"), "p99_ms": float("nan"), "n": 0,
                "errors": errors}
    return {
        "rps": len(ordered) / seconds,
        "p50_ms": 1000 * ordered[len(ordered) // 2],
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "n": len(ordered),
        "errors": errors,
    }


# -- view latency by version ---------------------------------------------------------------
def long_game(url: str, namespace: str, game: str, target: int) -> str:
    """A game played in process (random legal actions) until its version reaches ``target``."""
    from domain.registry import get_game
    from service.games import GameService
    from service.store.redis import RedisEventStore

    service = GameService(RedisEventStore.from_url(url, namespace))
    rules, rnd = get_game(game), random.Random(target)
    created = service.create_game(game, [{"type": "bot", "bot": "random"}] * 2, seed=f"v{target}")
    version = created["version"]
    while version < target:
        state = service.load(created["id"]).state
        choices = [(s, a) for s in rules.seats_to_act(state) for a in rules.legal_actions(state, s)]
        if not choices:
            break
        seat, action = rnd.choice(choices)
        version = service.submit_action(created["id"], seat, action, version)["version"]
    return str(created["id"])


def view_latency(base: str, game_id: str, count: int) -> dict[str, float]:
    client = Http(base)
    latencies = []
    version = 0
    for _ in range(count):
        started = time.perf_counter()
        _, view = client.call("GET", f"/games/{game_id}/view")
        latencies.append(time.perf_counter() - started)
        version = view["version"]
    out = summarise(latencies, 0, 1.0)
    out["version"] = version
    out["mean_ms"] = 1000 * statistics.fmean(latencies)
    return out


# -- main -----------------------------------------------------------------------------------
def row(name: str, r: dict[str, float]) -> str:
    return (f"  {name:<34} {r['rps']:8.0f} req/s   p50 {r['p50_ms']:7.2f} ms   "
            f"p99 {r['p99_ms']:7.2f} ms   n={int(r['n'])} errors={int(r['errors'])}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--game", default="shithead")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8, 64])
    args = parser.parse_args(argv)
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    env = {"REDIS_URL": url, "CARDROOM_NAMESPACE": namespace, "CARDROOM_SCHEDULER": "",
           "CARDROOM_RATE_LIMITS": "0"}  # fmt: skip
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"bench_api: {args.workers} sync gunicorn workers, {os.cpu_count()} CPUs, "
          f"{args.seconds:.0f} s per phase, game {args.game}, Redis {url}")
    try:
        bare, action = {}, {}
        with gunicorn("benchmarks.bare_app:create_app()", args.workers, env) as base:
            for c in args.concurrency:
                bare[c] = load(bare_client, c, base, args.seconds)
        with gunicorn("service.app:create_app()", args.workers, env) as base:
            for c in args.concurrency:
                action[c] = load(action_client, c, base, args.seconds, args.game)
        for c in args.concurrency:
            print(f"concurrency {c}:")
            print(row("(a) bare JSON + XADD", bare[c]))
            print(row("(b) POST /games/{id}/actions", action[c]))
            print(f"      (b) clients also GET the acting seat's view before each action: "
                  f"{action[c]['all_rps']:.0f} req/s served in all")
            print(f"  (b)/(a): throughput {action[c]['rps'] / bare[c]['rps']:.2f}, "
                  f"p50 latency {action[c]['p50_ms'] / bare[c]['p50_ms']:.2f}x")
        views(url, namespace, env, args)
    finally:
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(match=f"{namespace}:*", count=1000))
        for i in range(0, len(keys), 500):
            client.unlink(*keys[i : i + 500])


def views(url: str, namespace: str, env: dict[str, str], args: argparse.Namespace) -> None:
    small = long_game(url, namespace, args.game, 10)
    large = long_game(url, namespace, args.game, 1000)
    print("GET /games/{id}/view, one client, 200 requests:")
    for label, extra in (("state cache", {}), ("no cache", {"CARDROOM_CACHE_SIZE": "0"})):
        with gunicorn("service.app:create_app()", 1, {**env, **extra}) as base:
            for game_id in (small, large):
                r = view_latency(base, game_id, 200)
                print(f"  {label:<12} version {int(r['version']):5d}: p50 {r['p50_ms']:6.2f} ms"
                      f"   p99 {r['p99_ms']:6.2f} ms   mean {r['mean_ms']:6.2f} ms")


if __name__ == "__main__":
    main()
