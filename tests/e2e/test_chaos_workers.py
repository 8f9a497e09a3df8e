"""Chaos: RQ workers SIGKILLed at random, again and again, while bots-only games play.

Real processes: the test Redis, three worker processes (``workers.runner.run_worker``, each with
its sweeper thread, forked by ``tests.e2e.worker_zygote``); games are created through the
service layer in this process. A worker is killed at a
random instant (popping, running, chaining or enqueuing a turn) and a fresh one started in its
place, at least ``KILLS`` times across at least ``GAMES`` games. Every game must finish, with
versions 1..n and no gap, its hash chain intact and its replay verifying. Bounded in time.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq.job import Job

from replays.format import build_replay
from replays.verify import verify
from service import queues
from service.games import GameService
from service.store.redis import RedisEventStore
from tests.e2e.conftest import ROOT
from tests.support.redis_server import (
    delete_namespace,
    delete_rq_keys,
    redis_url,
    unique_namespace,
)
from workers.scheduler import RQScheduler, turn_job_id

pytestmark = pytest.mark.e2e

GAMES = 32
KILLS = 50
WORKERS = 3
KILL_BUDGET = 30.0  # seconds the kills are spread over (at most)
DEADLINE = 58.0  # seconds for the whole run; every game must be over by then
SEATS = [{"type": "bot", "bot": "random"}] * 2
OPTIONS = {"action_limit": 10}  # small games: random play ends or is cut off


class Workers:
    """Worker processes forked by ``tests.e2e.worker_zygote`` (one Python start-up in all)."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.log = logs / "workers.log"
        log = open(self.log, "wb")  # noqa: SIM115
        command = [sys.executable, "-m", "tests.e2e.worker_zygote"]
        self.zygote = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=log)  # fmt: skip
        self.started = 0
        self.processes = [self.spawn() for _ in range(WORKERS)]

    def spawn(self) -> int:
        assert self.zygote.stdin is not None and self.zygote.stdout is not None
        self.zygote.stdin.write(b"spawn\n")
        self.zygote.stdin.flush()
        self.started += 1
        return int(self.zygote.stdout.readline())

    def kill_one(self, rng: random.Random) -> None:
        index = rng.randrange(len(self.processes))
        os.kill(self.processes[index], signal.SIGKILL)
        self.processes[index] = self.spawn()

    def log_tail(self, lines: int = 60) -> str:
        said = self.log.read_text(errors="replace").splitlines()
        return "\n".join([line for line in said if " serving " not in line][-lines:])

    def stop(self) -> None:
        for pid in self.processes:
            os.kill(pid, signal.SIGKILL)
        assert self.zygote.stdin is not None
        self.zygote.stdin.close()
        self.zygote.wait(10)


@pytest.fixture
def chaos(tmp_path: Path) -> Iterator[tuple[GameService, Workers]]:
    url, namespace = redis_url(), unique_namespace("chaos")
    env = {
        **os.environ,
        "REDIS_URL": url,
        "CARDROOM_NAMESPACE": namespace,
        "CARDROOM_SWEEP_INTERVAL": "0.2",
        "CARDROOM_STALL_SECONDS": "0.5",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("CARDROOM_REPLAY_DIR", None)
    client = redis.Redis.from_url(url, decode_responses=True)
    service = GameService(RedisEventStore(client, namespace), RQScheduler.from_url(url, namespace))
    workers = Workers(env, tmp_path)
    try:
        yield service, workers
    finally:
        workers.stop()
        delete_namespace(client, namespace)
        delete_rq_keys(client, namespace)
        client.close()


def test_bots_only_games_finish_whatever_happens_to_their_workers(
    chaos: tuple[GameService, Workers],
) -> None:
    service, workers = chaos
    rng = random.Random(2026)
    start = time.monotonic()
    deadline = start + DEADLINE
    store = service.store
    games: list[str] = []
    kills = 0
    while (kills < KILLS or len(games) < GAMES) and time.monotonic() < deadline:
        live = [g for g in games if (m := store.meta(g)) is not None and m.status != "over"]
        if len(games) < GAMES or len(live) < 3:  # kills always land while games are in play
            created = service.create_game("shithead", SEATS, seed=f"chaos-{len(games)}",
                                          options=OPTIONS)  # fmt: skip
            games.append(str(created["id"]))
        moved = sum(store.versions(games).values())
        share = (start + KILL_BUDGET - time.monotonic()) / max(1, KILLS - kills)
        time.sleep(rng.uniform(0.02, max(0.02, min(0.3, share))))
        # the next kill waits for some play since the last one, within its share of the kill
        # budget: on a busy machine workers take a while to start, and killing only starting
        # workers would test little
        patience = time.monotonic() + min(2.0, share)
        while sum(store.versions(games).values()) == moved and time.monotonic() < patience:
            time.sleep(0.02)
        workers.kill_one(rng)
        kills += 1
    assert kills >= KILLS and len(games) >= GAMES, "the kills did not fit in the time allowed"
    kill_phase = time.monotonic() - start

    last_move = {g: (service.store.version(g), time.monotonic()) for g in games}
    longest_pause = 0.0
    unfinished = set(games)
    while unfinished and time.monotonic() < deadline:
        for game_id in list(unfinished):
            meta = service.store.meta(game_id)
            version = service.store.version(game_id)
            if meta is not None and meta.status == "over":
                unfinished.discard(game_id)
            elif version != last_move[game_id][0]:
                last_move[game_id] = (version, time.monotonic())
            longest_pause = max(longest_pause, time.monotonic() - last_move[game_id][1])
        time.sleep(0.05)
    elapsed = time.monotonic() - start
    print(
        f"\nchaos: {kills} SIGKILLs, {workers.started} workers started, {len(games)} games, "
        f"{len(unfinished)} stalled, longest pause after the kills {longest_pause:.2f}s, "
        f"{elapsed:.1f}s ({kill_phase:.1f}s of kills)"
    )
    assert not unfinished, stalled_report(service, workers, sorted(unfinished)[:5])

    for game_id in games:
        loaded = service.load(game_id)
        assert loaded.over
        entries = service.store.entries(game_id)
        assert [v for v, _ in entries] == list(range(1, loaded.version + 1))  # no gap, no dup
        assert service.store.verify_chain(game_id).ok
        seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
        replay = build_replay(game_id, entries, game=loaded.meta.game, seats=seats,
                              outcome=loaded.game.outcome(loaded.state))  # fmt: skip
        report = verify(replay)
        assert report.ok and report.head_hash == loaded.head_hash


def stalled_report(service: GameService, workers: Workers, stalled: list[str]) -> str:
    """What a stalled game's failure needs to be understood: each game's version and awaited
    seats, the sweeper's record of it and its re-runs, its turn jobs' statuses (RQ), and the
    end of the workers' log."""
    assert isinstance(service.scheduler, RQScheduler)
    scheduler = service.scheduler
    connection, namespace = scheduler.connection, scheduler.namespace
    lines = [f"{len(stalled)} games stalled (at most five shown):"]
    for game_id in stalled:
        loaded = service.load(game_id)
        awaited = loaded.game.awaited_seats(loaded.state)
        seen = connection.hget(queues.sweeper_seen_key(namespace), game_id)
        due = connection.zscore(f"{namespace}:sweeper:due", game_id)
        sweeps = connection.hgetall(f"{namespace}:game:{{{game_id}}}:sweeps")
        jobs = []
        for seat in awaited:
            for attempt in range(8):
                job_id = turn_job_id(namespace, game_id, seat, loaded.version, attempt)
                job = Job.fetch_many([job_id], connection=connection)[0]
                if job is not None:
                    jobs.append(f"{job_id}: {job.get_status()} by {job.worker_name} "
                                f"-> {job.return_value()!r}")  # fmt: skip
        lines += [f"{game_id}: v{loaded.version} {loaded.meta.status}, awaits {awaited}, "
                  f"seen {seen!r}, due {due}, now {time.time():.1f}, re-runs {sweeps}",
                  *(f"  {job}" for job in jobs)]  # fmt: skip
    return "\n".join([*lines, "workers' log (its end):", workers.log_tail()])
