"""Capacity: what one core of each tier sustains, for sizing a deployment (docs/operations.md,
"Sizing").

Run: ``.venv/bin/python -m benchmarks.bench_capacity [--seconds 20] [--rounds 3]``.

Everything runs on this machine, started by the script, as a deployment runs it: RQ on a
plain redis-server of its own, one web role (``cardroom serve --only web --web-workers 1``),
one worker role (``cardroom serve --only workers``: one RQ worker), and the store (AOF on,
``appendfsync everysec``) on one redis-server (``single``) or on a Redis Cluster of three
masters (``cluster``): each round runs both, one after the other (the order alternates), a
fresh deployment each. In each, two kinds of samples (bots, people; then people, bots; ...):

- **bots**: ``--games`` bots-only games (heuristic bots) kept in flight for ``--seconds``,
  Shithead (4 seats), Sixty-Six (a match to 7) and Sheepshead (5 seats) in turn; the client
  only creates games and polls their summaries;
- **people**: ``--people`` client threads each playing two-person Sixty-Six games over HTTP
  as a person's client does: read the view of the seat to act, send one of its legal actions.

Every process's CPU time (user + system, /proc) is read before and after each sample, less what
the tier spends idle (its rate measured for ``--idle`` seconds with no load at the start of each
round: Redis's timers and cluster bus, the workers' sweeper and heartbeats), so each figure is
work per CPU-second of the tier that did it, whatever else shares the machine (the load
generator, other benchmarks): bot turns per worker core-second, person actions (each with its
view) per web core-second, events appended per store-Redis core-second (a cluster master is
one shard on one core), bot turns per RQ-Redis core-second. The baseline measured in the
same run: pipelined ``XADD`` of entries of the same size into the store's Redis (one master of
the cluster), events per that server's core-second; the store's figure is also given as a ratio
to it, and each cluster figure as a ratio to the single Redis's of the same round. Per finished
game of each kind: its actions and its events (from its replay file). Medians and ranges over
rounds.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
import requests

from benchmarks.servers import answers, free_port
from benchmarks.stats import load_note, spread
from replays.format import loads
from tests.support.processes import descendants
from tests.support.redis_cluster import OwnCluster
from tests.support.redis_server import OwnRedis

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
HEURISTIC = {"type": "bot", "bot": "heuristic"}
BOT_GAMES = (("shithead", 4), ("sixty_six", 2), ("sheepshead", 5))


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (those gone count 0)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


@dataclass
class Tiers:
    """The pids of each tier (read again at each sample: a restarted child counts)."""

    web: int
    worker: int
    store: list[int]
    rq: int

    def cpu(self) -> dict[str, float]:
        return {
            "web": cpu_seconds(descendants(self.web)),
            "worker": cpu_seconds(descendants(self.worker)),
            "store": cpu_seconds(self.store),
            "rq": cpu_seconds([self.rq]),
        }


@dataclass
class Store:
    """The store's Redis: its URL, its servers' pids, a client and a key for the baseline."""

    url: str
    pids: list[int]
    client: redis.Redis
    key: str


@contextmanager
def own_store(tmp: Path, kind: str) -> Iterator[Store]:
    persistence = ("--appendonly", "yes", "--appendfsync", "everysec")
    if kind == "single":
        (tmp / "store").mkdir()
        single = OwnRedis(tmp / "store", *persistence)
        try:
            yield Store(single.url, [single.process.pid], redis.Redis.from_url(single.url),
                        "bench-xadd")  # fmt: skip
        finally:
            single.stop()
        return
    cluster = OwnCluster(tmp / "cluster", options=persistence)
    try:
        first = cluster.ports[0]
        yield Store(cluster.url, [p.pid for p in cluster.processes], cluster.node(first),
                    cluster.key_on(first, "bench-xadd-"))  # fmt: skip
    finally:
        cluster.stop()


@contextmanager
def deployment(
    tmp: Path, kind: str, settings: dict[str, str] | None = None
) -> Iterator[tuple[str, Tiers, Store]]:
    """A web role and a worker role on the ``kind`` store; its base URL, tiers and store.
    ``settings``: environment variables over the ones set here (rate limits are off)."""
    with own_store(tmp, kind) as store:
        rq = OwnRedis(tmp, "--appendonly", "no")
        port = free_port()
        env = {**os.environ, "REDIS_URL": store.url, "RQ_REDIS_URL": rq.url,
               "CARDROOM_NAMESPACE": f"capacity-{uuid.uuid4().hex[:8]}",
               "CARDROOM_RATE_LIMITS": "0", "CARDROOM_ARCHIVE_DIR": str(tmp / "archive"),
               "CARDROOM_ARCHIVE_AFTER": "86400",
               "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics"), **(settings or {})}  # fmt: skip
        roles = [
            ["--only", "web", "--web-workers", "1", "--port", str(port), "--no-access-log"],
            ["--only", "workers", "--bot-workers", "1"],
        ]
        logs = [(tmp / f"{r[1]}.log").open("wb") for r in roles]  # if a run goes wrong
        started = [subprocess.Popen([sys.executable, "-m", "service.cli", "serve", *r],
                                    cwd=ROOT, env=env, stdout=log, stderr=log)
                   for r, log in zip(roles, logs, strict=True)]  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            if not answers(f"{base}/readyz", 60):
                raise SystemExit("the deployment did not become ready")
            yield base, Tiers(started[0].pid, started[1].pid, store.pids, rq.process.pid), store
        finally:
            for process in started:
                process.send_signal(signal.SIGTERM)
                process.wait(30)
            rq.stop()
            for log in logs:
                log.close()


def actions_so_far(base: str) -> float:
    """Accepted actions of every process of the host (/metrics sums them)."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("cardroom_actions_appended_total{"))  # fmt: skip


@dataclass
class Sample:
    work: float  # bot turns or person actions
    events: float
    cpu: dict[str, float]
    seconds: float
    finished: dict[str, list[str]] = field(default_factory=dict)  # game -> finished ids
    requests: int = 0  # HTTP requests the people's clients sent
    over: int = 0  # the people's games that ended (each exported by a worker)


@dataclass
class Done:
    """What a sample's load did in its window."""

    events: int
    finished: dict[str, list[str]] = field(default_factory=dict)
    requests: int = 0
    over: int = 0


def idle_rates(tiers: Tiers, seconds: float) -> dict[str, float]:
    """CPU seconds per second each tier spends with no load."""
    before = tiers.cpu()
    time.sleep(seconds)
    after = tiers.cpu()
    return {k: (after[k] - before[k]) / seconds for k in before}


Run = Callable[[Callable[[], None]], Done]  # a sample's load, given its end-of-window mark


def measured(base: str, tiers: Tiers, idle: dict[str, float], run: Run) -> Sample:
    """CPU (less the idle rate) and actions from the start of ``run(mark)`` to its call of
    ``mark()`` (the end of its window; it may go on, e.g. to let its games finish), with the
    events it appended in that window and the games it saw finish."""
    cpu, actions, began = tiers.cpu(), actions_so_far(base), time.monotonic()
    end: dict[str, Any] = {}

    def mark() -> None:
        end.update(cpu=tiers.cpu(), actions=actions_so_far(base), at=time.monotonic())

    done = run(mark)
    seconds = end["at"] - began
    used = {k: max(end["cpu"][k] - cpu[k] - idle[k] * seconds, 0.01) for k in cpu}
    return Sample(end["actions"] - actions, done.events, used, seconds, done.finished,
                  done.requests, done.over)  # fmt: skip



def bots(base: str, games: int, seconds: float, mark: Callable[[], None]) -> Done:
    """Bots-only games in flight for ``seconds`` (then ``mark()``): events appended in that
    time, finished games by kind. The games still in flight are played to their end before it
    returns (not counted), so that no sample or idle measurement sees them."""
    http, live, finished = requests.Session(), {}, {}  # type: ignore[var-annotated]
    events, turn, began = 0, 0, time.monotonic()
    while time.monotonic() - began < seconds:
        while len(live) < games:
            name, seats = BOT_GAMES[turn % len(BOT_GAMES)]
            turn += 1
            created = http.post(f"{base}/games", json={"game": name, "seats": [HEURISTIC] * seats})
            live[created.json()["id"]] = (name, created.json()["version"])
        time.sleep(0.2)
        for game_id, (name, first) in list(live.items()):
            summary = http.get(f"{base}/games/{game_id}").json()
            if summary["status"] == "over":
                del live[game_id]
                finished.setdefault(name, []).append(game_id)
                events += summary["version"] - first
    mark()
    for game_id, (_, first) in live.items():  # unfinished games' events count too
        events += http.get(f"{base}/games/{game_id}").json()["version"] - first
    deadline = time.monotonic() + 300
    while live and time.monotonic() < deadline:
        time.sleep(0.5)
        live = {g: v for g, v in live.items()
                if http.get(f"{base}/games/{g}").json()["status"] != "over"}  # fmt: skip
    return Done(events, finished)


def people(base: str, threads: int, seconds: float, mark: Callable[[], None]) -> Done:
    """Two-person games played by ``threads`` clients for ``seconds`` (then ``mark()``):
    events appended (no game is reported: they are all of one kind, and cut short)."""
    events: list[int] = []
    sent: list[int] = []  # one item per request
    cut: list[tuple[str, str]] = []  # games cut short: (id, a seat's token)
    stop = time.monotonic() + seconds
    workers = [threading.Thread(target=_person_client, args=(base, stop, i, events, sent, cut))
               for i in range(threads)]  # fmt: skip
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    mark()
    for game_id, token in cut:  # resigned, not left live: the sweeper would read them for ever
        version = requests.get(f"{base}/games/{game_id}", timeout=30).json()["version"]
        requests.post(f"{base}/games/{game_id}/actions", timeout=30,
                      json={"type": "resign", "expected_version": version},
                      headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    return Done(sum(events), requests=len(sent), over=len(events) - len(cut))


def _person_client(
    base: str,
    stop: float,
    index: int,
    events: list[int],
    sent: list[int],
    cut: list[tuple[str, str]],
) -> None:
    http, rng = requests.Session(), random.Random(index)
    http.hooks["response"].append(lambda *_, **__: sent.append(1))
    while time.monotonic() < stop:
        body = {"game": "sixty_six", "seats": [{"type": "open"}] * 2}
        game = http.post(f"{base}/games", json=body).json()
        tokens = [http.post(f"{base}/games/{game['id']}/seats/{s}", json={"name": f"p{s}"})
                  .json()["token"] for s in (0, 1)]  # fmt: skip
        first = last = http.get(f"{base}/games/{game['id']}").json()["version"]
        seat = 0
        while time.monotonic() < stop:
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            view = http.get(f"{base}/games/{game['id']}/view", headers=auth).json()
            if view["view"]["outcome"] is not None:
                break
            if not view["view"]["legal_actions"]:
                seat = 1 - seat
                continue
            action = {**rng.choice(view["view"]["legal_actions"]),
                      "expected_version": view["version"]}  # fmt: skip
            answer = http.post(f"{base}/games/{game['id']}/actions", json=action, headers=auth)
            last = answer.json().get("version", last)
        else:
            cut.append((game["id"], tokens[0]))
        events.append(last - first)


def per_game(base: str, finished: dict[str, list[str]]) -> dict[str, tuple[float, float]]:
    """Mean actions and events of up to 5 finished games of each kind (from their replays)."""
    out = {}
    for name, ids in finished.items():
        counted = []
        for game_id in ids[:5]:
            replay = loads(requests.get(f"{base}/games/{game_id}/replay", timeout=30).text)
            actions = sum(1 for b in replay.batches if b.command.get("kind") == "action")
            counted.append((actions, replay.header.head_version))
        out[name] = (statistics.mean(a for a, _ in counted), statistics.mean(e for _, e in counted))
    return out


def xadd_baseline(store: Store, seconds: float) -> float:
    """Events per core-second of the store's Redis (one master of a cluster) for bare
    pipelined XADDs of entries the size of the store's (event, hashes, command)."""
    fields = {"event": "x" * 400, "prev_hash": "0" * 64, "hash": "1" * 64, "command": "y" * 60}
    pid = store.pids[0]
    before, count, began = cpu_seconds([pid]), 0, time.monotonic()
    while time.monotonic() - began < seconds:
        pipe = store.client.pipeline(transaction=False)
        for _ in range(50):
            pipe.xadd(store.key, fields)  # type: ignore[arg-type]
        pipe.execute()
        count += 50
    used = cpu_seconds([pid]) - before
    store.client.delete(store.key)
    return count / used if used else float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per sample")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=8, help="bots-only games in flight")
    parser.add_argument("--people", type=int, default=8, help="person clients")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measurement")
    args = parser.parse_args(argv)
    print(f"{load_note()}; {args.rounds} rounds of {args.seconds:g} s per kind and store")
    figures: dict[str, list[float]] = {}
    games: dict[str, list[tuple[float, float]]] = {}
    for index in range(args.rounds):
        for store in ("single", "cluster") if index % 2 == 0 else ("cluster", "single"):
            _round(index, store, args, figures, games)
    _report(figures, games)


def _round(
    index: int,
    kind: str,
    args: argparse.Namespace,
    figures: dict[str, list[float]],
    games: dict[str, list[tuple[float, float]]],
) -> None:
    """One round on a fresh deployment of the ``kind`` store: idle, bots and people samples,
    the XADD baseline."""
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-capacity-") as tmp, \
            deployment(Path(tmp), kind) as (base, tiers, store):  # fmt: skip
        idle = idle_rates(tiers, args.idle)
        for sample_kind in ("bots", "people") if index % 2 == 0 else ("people", "bots"):
            sample = _sample(sample_kind, base, tiers, idle, args)
            _record(f"{kind} {sample_kind}", sample, figures)
            for name, pair in per_game(base, sample.finished).items():
                games.setdefault(name, []).append(pair)
            print(f"round {index + 1} {kind:<7} {sample_kind:<6}: " + _line(sample_kind, sample),
                  flush=True)  # fmt: skip
        figures.setdefault(f"{kind} xadd", []).append(xadd_baseline(store, min(5.0, args.seconds)))


def _sample(
    kind: str, base: str, tiers: Tiers, idle: dict[str, float], args: argparse.Namespace
) -> Sample:
    if kind == "bots":
        return measured(base, tiers, idle, lambda mark: bots(base, args.games, args.seconds,
                                                             mark))  # fmt: skip
    return measured(base, tiers, idle, lambda mark: people(base, args.people, args.seconds,
                                                           mark))  # fmt: skip


def _record(label: str, sample: Sample, figures: dict[str, list[float]]) -> None:
    """``label`` is ``<store> <kind>``: the sample's figures per core-second of each tier."""
    store, kind = label.split()
    cpu = sample.cpu
    if kind == "bots":
        figures.setdefault(f"{store} turns/worker", []).append(sample.work / cpu["worker"])
        figures.setdefault(f"{store} turns/rq", []).append(sample.work / cpu["rq"])
    else:
        figures.setdefault(f"{store} actions/web", []).append(sample.work / cpu["web"])
        figures.setdefault(f"{store} requests/web", []).append(sample.requests / cpu["web"])
        figures.setdefault(f"{store} exports/worker", []).append(sample.over / cpu["worker"])
    figures.setdefault(f"{store} events/store {kind}", []).append(sample.events / cpu["store"])


def _line(kind: str, sample: Sample) -> str:
    busy = ", ".join(f"{t} {u / sample.seconds:.2f}" for t, u in sample.cpu.items())
    what = "bot turns" if kind == "bots" else "person actions"
    return (f"{sample.work / sample.seconds:7.1f} {what}/s, "
            f"{sample.events / sample.seconds:7.1f} events/s; cores busy: {busy}")  # fmt: skip


LABELS = {
    "actions/web": "person actions (each with its view) per web core",
    "requests/web": "people's HTTP requests (views, actions, creates, joins) per web core",
    "turns/worker": "bot turns per worker core",
    "exports/worker": "people's games ended (their replay exports) per worker core",
    "events/store people": "events per store-Redis core (people's games)",
    "events/store bots": "events per store-Redis core (bots' games)",
    "turns/rq": "bot turns per RQ-Redis core",
    "xadd": "baseline: bare pipelined XADDs per store-Redis core",
}


def _report(figures: dict[str, list[float]], games: dict[str, list[tuple[float, float]]]) -> None:
    for store in ("single", "cluster"):
        print(f"\nstore on {store}: per core-second of the tier that did the work, median (range)")
        for key, label in LABELS.items():
            if f"{store} {key}" in figures:
                print(f"  {label}: {spread(figures[f'{store} {key}'], '{:.0f}')}")
        for kind in ("bots", "people"):
            each = _ratios(figures, f"{store} events/store {kind}", f"{store} xadd")
            if each:
                print(f"  store events ({kind}) / bare XADD per core: {spread(each, '{:.3f}')}")
    print("\ncluster / single, per round (same work per core-second), median (range)")
    for key, label in LABELS.items():
        each = _ratios(figures, f"cluster {key}", f"single {key}")
        if each:
            print(f"  {label}: {spread(each, '{:.2f}')}")
    print("\nper finished game (heuristic bots), mean actions / events:")
    for name, pairs in sorted(games.items()):
        print(f"  {name}: {statistics.mean(a for a, _ in pairs):.0f} actions, "
              f"{statistics.mean(e for _, e in pairs):.0f} events")  # fmt: skip
    if games:
        _sizing(figures, games, people=0.5)


def _sizing(
    figures: dict[str, list[float]], games: dict[str, list[tuple[float, float]]], people: float
) -> None:
    """Cores each tier needs at 50 % busy for 3 and 300 games/s, from the medians: a game of
    the three kinds' mean actions and events, ``people`` of its actions a person's."""
    actions = statistics.mean(a for pairs in games.values() for a, _ in pairs)
    events = statistics.mean(e for pairs in games.values() for _, e in pairs)
    print(f"\nsizing at 50 % busy: a game = {actions:.0f} actions ({people:.0%} a person's, each "
          f"with its requests), {events:.0f} events; cores (store: shards) per tier")  # fmt: skip
    for store in ("single", "cluster"):
        rate = {k: statistics.median(figures[f"{store} {k}"]) for k in LABELS
                if f"{store} {k}" in figures}  # fmt: skip
        for per_second in (3, 300):
            load = {
                "web": per_second * actions * people / rate["actions/web"],
                "workers": per_second * (actions * (1 - people) / rate["turns/worker"]
                                         + 1 / rate["exports/worker"]),
                "store Redis": per_second * events / rate["events/store bots"],
                "RQ's Redis": per_second * actions * (1 - people) / rate["turns/rq"],
            }  # fmt: skip
            cores = ", ".join(f"{tier} {2 * used:.1f}" for tier, used in load.items())
            print(f"  {store:<7} {per_second:>3} games/s: {cores}")


def _ratios(figures: dict[str, list[float]], top: str, bottom: str) -> list[float]:
    return [t / b for t, b in zip(figures.get(top, []), figures.get(bottom, []), strict=False)]


if __name__ == "__main__":
    main()
