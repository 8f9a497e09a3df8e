"""HTTP benchmark: the action endpoint against a bare Flask endpoint, same server set-up.

Run: ``.venv/bin/python -m benchmarks.bench_api [--samples 5] [--seconds 3]`` (needs ``wrk``:
``apt-get install -y wrk``; and ``redis-server``: the benchmark starts its own, on a free port).

What is timed: wrk (one thread, C keep-alive connections, outside the measured processes)
replays precomputed requests for ``seconds``; throughput is wrk's completed requests per second,
latency wrk's per-request p50/p99. Both servers are gunicorn with ``--workers`` gevent
processes (as ``cardroom serve``, no access log), both up for the whole run:

- **bare** (``benchmarks.bare_app``): plain Flask, parses the JSON body, one XADD, answers;
- **action** (``service.app``): ``POST /games/{id}/actions`` playing real games, with the
  service's defaults (rate limits on; ``--action-env`` changes a setting).

Each sample first extends the plan (not timed): ``--games`` games of two joined seats, played
on in this process with random legal actions from where the server left them in the previous
sample (their state read back from the store; games that ended are replaced by new ones), so
each web process meets a game cold once, as a live server does, not once per sample. One line
per action (path, the acting seat's token, the body with its expected version), games taken
round-robin so a game's next action is sent after its previous one was answered (at least 8C
live games apart, 512 at least). wrk hands the next line to whichever connection is free, so
an answer slower than hundreds of others can still be overtaken by its game's next line: that
one is a 409, and so is the rest of that game's lines in the sample. The report counts non-2xx
answers by status.
Then bare and action replay the same lines, alternately (A B, then B A, ...). With
``--alternative KEY=VALUE`` a third server, the action server with that setting too, plays
games of its own in the same rotation (A B C, B C A, ...), and its ratios to bare and to the
action server are reported as well: two designs measured in one run (with
``--alternative-checkout DIR`` the third server runs the code of DIR, another commit's checkout:
the code before and after a change in one run). Bare wraps around
the plan; action never does: a sample in which an action server's plan ran out (its last
request repeated) is played again with a plan at least twice as big and half again the rate
that run reached, up to three times (reported).
Server CPU per request is the gunicorn workers' user+system time (/proc) over the requests wrk
completed; Redis CPU per request, the Redis server's (``INFO cpu``) over the same requests.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.servers import gunicorn, routed
from benchmarks.stats import load_note, own_redis, ratio_line, spread

LUA = Path(__file__).with_name("wrk_replay.lua")
RESULT = re.compile(r"^RESULT (.*)$", re.M)


@dataclass
class Run:
    rps: float
    p50_ms: float
    p99_ms: float
    cpu_ms: float  # server CPU per completed request
    redis_ms: float  # Redis's CPU per completed request
    errors: int
    exhausted: int
    refused: str = "none"  # non-2xx answers by status, "409=3,422=1"


def need_wrk() -> str:
    path = shutil.which("wrk")
    if path is None:
        sys.exit(
            "bench_api needs wrk: apt-get install -y wrk (Debian/Ubuntu) or build it from "
            "https://github.com/wg/wrk, then run again"
        )
    return path


def new_game(service: Any, game: str) -> dict[str, Any]:
    """A game of two joined seats created on ``service`` (a ``GameService``), as a plan keeps
    it: id, tokens, rules, state, version, deal keys."""
    from service import deal_keys

    created = service.create_game(game, [{"type": "open"}, {"type": "open"}])
    tokens = [service.join_seat(created["id"], s, f"p{s}")["token"] for s in range(2)]
    loaded = service.load(created["id"])
    return {"id": created["id"], "tokens": tokens, "rules": loaded.game, "state": loaded.state,
            "version": loaded.version, "keys": deal_keys.keys_of(loaded.meta)}  # fmt: skip


def one_round(
    live: list[dict[str, Any]], rnd: random.Random
) -> Iterator[tuple[dict[str, Any], int, dict[str, Any]]]:
    """A random legal action of each kept game in turn, played on its state: (the game, the
    seat, the request's body with the version it expects); a game that ended leaves ``live``."""
    from domain.protocol import fold
    from service import folding
    from service.json_ready import json_ready

    for g in list(live):
        rules, state = g["rules"], g["state"]
        choices = [(s, a) for s in rules.awaited_seats(state)
                   for a in rules.legal_actions(state, s)]  # fmt: skip
        if not choices or rules.outcome(state) is not None:
            live.remove(g)
            continue
        seat, action = rnd.choice(choices)
        body = {**json_ready(action), "expected_version": g["version"]}
        events = folding.decide(rules, state, seat, action, g["keys"])
        g["state"], g["version"] = fold(rules, events, state), g["version"] + len(events)
        yield g, seat, body


def plan(
    url: str,
    namespace: str,
    game: str,
    games: int,
    lines: int,
    concurrency: int,
    seed: int,
    out: Path,
    live: list[dict[str, Any]] | None = None,
) -> tuple[int, list[dict[str, Any]]]:
    """Write up to ``lines`` replayable actions of ``games`` games: the ``live`` ones of the
    previous sample go on from where the server left them (their state read back from the
    store), new ones top them up. (lines written, the games still live)."""
    from domain.events import canonical_json
    from service.games import GameService
    from service.store.redis import RedisEventStore

    service = GameService(RedisEventStore.from_url(url, namespace))
    rnd = random.Random(seed)
    live = list(live or [])
    for g in live:
        loaded = service.load(g["id"])
        g["state"], g["version"] = loaded.state, loaded.version
    while len(live) < games:
        live.append(new_game(service, game))
    written = 0
    with out.open("w") as file:
        while written < lines and len(live) >= 8 * concurrency:
            for g, seat, body in one_round(live, rnd):
                file.write(
                    f"/games/{g['id']}/actions\t{g['tokens'][seat]}\t"
                    f"{canonical_json(body)}\n"
                )
                written += 1
                if written >= lines:
                    break
    return written, live


def worker_cpu(master: int) -> float:
    """User + system seconds of the gunicorn workers (children of ``master``)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def redis_cpu(url: str) -> float:
    """User + system seconds the Redis server has used (``INFO cpu``)."""
    import redis

    info = redis.Redis.from_url(url).info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def wrk(
    binary: str, base: str, masters: list[int], concurrency: int, seconds: float, lines: Path,
    wrap: bool, redis_url: str,
) -> Run:
    command = [binary, "-t1", f"-c{concurrency}", f"-d{seconds:g}s", "--timeout", "10s",
               "-s", str(LUA), base, "--", str(lines), *(["wrap"] if wrap else [])]  # fmt: skip
    before, redis_before = sum(map(worker_cpu, masters)), redis_cpu(redis_url)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    cpu = sum(map(worker_cpu, masters)) - before
    redis = redis_cpu(redis_url) - redis_before
    match = RESULT.search(done.stdout)
    if match is None:
        raise RuntimeError(f"wrk gave no result: {done.stdout}\n{done.stderr}")
    fields = dict(kv.split("=", 1) for kv in match.group(1).split())
    refused = fields.pop("refused", "none")
    r = {k: float(v) for k, v in fields.items()}
    n = max(1.0, r["requests"])
    return Run(rps=r["requests"] / (r["duration_us"] / 1e6), p50_ms=r["p50_us"] / 1000,
               p99_ms=r["p99_us"] / 1000, cpu_ms=1000 * cpu / n, redis_ms=1000 * redis / n,
               errors=int(r["status_errors"] + r["socket_errors"]),
               exhausted=int(r["exhausted"]), refused=refused)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--games", type=int, default=0, help="games per plan (default 16*C+64, at least 512)"
    )
    parser.add_argument(
        "--max-rps", type=float, default=3000.0,
        help="the plan holds seconds * max-rps actions (raised when a server runs out)",
    )  # fmt: skip
    parser.add_argument("--game", default="shithead")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8, 64])
    parser.add_argument(
        "--action-env", action="append", default=[], metavar="KEY=VALUE",
        help="a setting of the action server only (repeatable), e.g. CARDROOM_RATE_LIMITS=0 "
        "(the default is the service's defaults: rate limits on)",
    )  # fmt: skip
    parser.add_argument(
        "--route-by-game", action="store_true",
        help="each server as --workers single-worker gunicorns behind nginx hashing on the game "
        "id (every request of a game reaches one process), instead of one gunicorn whose "
        "workers share its socket (as cardroom serve)",
    )  # fmt: skip
    parser.add_argument(
        "--alternative", action="append", default=[], metavar="KEY=VALUE",
        help="also run a second action server with these settings added (repeatable), "
        "on games of its own, in the same alternation: e.g. CARDROOM_ACTION_SLOTS=0",
    )  # fmt: skip
    parser.add_argument(
        "--alternative-checkout", metavar="DIR",
        help="run the alternative server (with --alternative's settings, if any) on the code of "
        "DIR, a checkout of another commit (git worktree add DIR main): the code before and "
        "after a change in one run",
    )  # fmt: skip
    args = parser.parse_args(argv)
    action_env = dict(kv.split("=", 1) for kv in args.action_env)
    alternative = dict(kv.split("=", 1) for kv in args.alternative)
    binary = need_wrk()
    print(
        f"bench_api: {load_note()}; {args.workers} gevent workers per server"
        + (" (single-worker gunicorns behind nginx hashing on the game id)"
           if args.route_by_game else "")
        + "; wrk -t1; "
        f"{args.seconds:g} s per run; {args.samples} samples per concurrency; {args.game}"
        + "".join(f"; action server {k}={v}" for k, v in action_env.items())
        + "".join(f"; alternative server {k}={v}" for k, v in alternative.items())
        + (f"; alternative server on the code of {args.alternative_checkout}"
           if args.alternative_checkout else "")
    )
    with own_redis() as url, tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        serve = routed if args.route_by_game else _shared
        servers: dict[str, Server] = {}
        for name, app, extra in (
            ("bare", "benchmarks.bare_app:create_app()", {}),
            ("action", "service.app:create_app()", action_env),
            ("alternative", "service.app:create_app()", {**action_env, **alternative}),
        ):
            checkout = args.alternative_checkout if name == "alternative" else None
            if name == "alternative" and not (alternative or checkout):
                continue
            namespace = f"bench-{uuid.uuid4().hex[:8]}"
            env = {"REDIS_URL": url, "CARDROOM_NAMESPACE": namespace, "CARDROOM_SCHEDULER": ""}
            base, pids = stack.enter_context(
                serve(app, args.workers, {**env, **extra}, checkout)
            )
            servers[name] = Server(base, pids, namespace)
        max_rps = args.max_rps
        for c in args.concurrency:
            runs: dict[str, list[Run]] = {name: [] for name in servers}
            for server in servers.values():
                server.live = []
            games = args.games or max(16 * c + 64, 512)
            if games < 8 * c + 1:
                sys.exit(f"--games must exceed 8 x concurrency ({8 * c})")
            for i in range(args.samples):
                for _ in range(REPLANS + 1):
                    sample = run_sample(args, binary, url, Path(tmp), servers, c, games, i,
                                        max_rps)  # fmt: skip
                    if not any(r.exhausted for n, r in sample.items() if n != "bare"):
                        break
                    # a faster machine than the plan was sized for: a run that ran out of
                    # lines repeated its last request, so the sample is played again, bigger
                    # (at least what that run went through, its quick refusals included)
                    fastest = max(r.rps for n, r in sample.items() if n != "bare")
                    max_rps = max(2 * max_rps, 1.5 * fastest)
                    print(f"  (a plan ran out at concurrency {c}, sample {i + 1}: played again "
                          f"with {int(args.seconds * max_rps)} actions per server)")  # fmt: skip
                for name, run in sample.items():
                    runs[name].append(run)
            report(c, runs)


REPLANS = 3  # times a sample whose plan ran out is played again, with a bigger plan


def run_sample(
    args: argparse.Namespace, binary: str, url: str, tmp: Path, servers: dict[str, Server],
    c: int, games: int, i: int, max_rps: float,
) -> dict[str, Run]:
    """Sample ``i`` at concurrency ``c``: extend each action server's plan to ``seconds *
    max_rps`` actions (not timed), then one wrk run per server, rotated."""
    time.sleep(1)  # answers still in flight when wrk stopped land first
    for name, server in servers.items():
        if name != "bare":  # each action server plays games of its own
            server.lines = tmp / f"plan-{c}-{i}-{name}.txt"
            _, server.live = plan(
                url, server.namespace, args.game, games, int(args.seconds * max_rps), c,
                1000 * c + i, server.lines, server.live,
            )  # fmt: skip
    servers["bare"].lines = servers["action"].lines  # bare replays the same lines
    names = list(servers)
    order = names[i % len(names):] + names[: i % len(names)]  # rotated each sample
    return {name: wrk(binary, servers[name].base, servers[name].pids, c, args.seconds,
                      servers[name].lines, name == "bare", url) for name in order}  # fmt: skip


@dataclass
class Server:
    base: str
    pids: list[int]
    namespace: str
    live: list[dict[str, Any]] = field(default_factory=list)
    lines: Path = Path()


@contextmanager
def _shared(
    app: str, workers: int, env: dict[str, str], checkout: str | None = None
) -> Iterator[tuple[str, list[int]]]:
    """One gunicorn whose ``workers`` share its socket (as ``cardroom serve``)."""
    with gunicorn(app, workers, env, checkout=checkout) as (base, pid):
        yield base, [pid]


def report(c: int, runs: dict[str, list[Run]]) -> None:
    bare = runs["bare"]
    print(f"concurrency {c} (median (min-max) of {len(bare)} alternated samples):")
    for name, rs in runs.items():
        print(
            f"  {name:<6} req/s {spread([r.rps for r in rs], '{:.0f}')}   "
            f"p50 ms {spread([r.p50_ms for r in rs], '{:.2f}')}   "
            f"p99 ms {spread([r.p99_ms for r in rs], '{:.2f}')}   "
            f"server CPU ms/req {spread([r.cpu_ms for r in rs], '{:.2f}')}   "
            f"Redis CPU ms/req {spread([r.redis_ms for r in rs], '{:.3f}')}   "
            f"errors {sum(r.errors for r in rs)}"
            + "".join(f" [{r.refused}]" for r in rs if r.refused != "none")
        )
    for name, rs in runs.items():
        exhausted = sum(r.exhausted for r in rs if name != "bare")
        if exhausted:
            print(f"  WARNING: the {name} plan ran out {exhausted} times even after "
                  f"{REPLANS} re-plans: raise --max-rps")
    pairs = [(n, "bare") for n in runs if n != "bare"]
    if "alternative" in runs:
        pairs.append(("action", "alternative"))
    for a, b in pairs:
        for label, of in (
            ("throughput", lambda r: r.rps),
            ("p99 latency", lambda r: r.p99_ms),
            ("server CPU per request", lambda r: r.cpu_ms),
            ("Redis CPU per request", lambda r: r.redis_ms),
        ):
            ratios = [of(x) / of(y) for x, y in zip(runs[a], runs[b], strict=True)]
            print("  " + ratio_line(f"{a}/{b} {label}", ratios))


if __name__ == "__main__":
    main()
