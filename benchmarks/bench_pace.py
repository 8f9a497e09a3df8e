"""A bot's pace and one worker: bot turns per second of ONE worker with ``--games`` games with
people in flight at once (docs/decisions.md, "A bot's pace holds no worker").

Run: ``.venv/bin/python -m benchmarks.bench_pace [--games 5] [--seconds 12] [--rounds 2]``.

Each game is Sheepshead: a person (seat 0, played by a thread of this script that answers its
turns at once with a random legal action, as a web process would) and four ``random`` bots,
with ``bot_pace_ms`` ``--pace-ms`` (1500, the service's default). One non-forking
``FairWorker`` (as ``cardroom serve`` runs by default) serves the bots' queue in this process
(stopped by a SIGINT at the window's end, as a worker is stopped).
Two ways of spending the pace, alternated round by round, each on a namespace of its own:

- **held**: the turn job waits out the rest of its pace itself and then moves (``start_timer``
  replaced by a sleep and the move: the behaviour before the pace was handed to a timer);
- **timer**: today's: the job chooses, hands the move to a timer for the rest of the pace and
  returns.

Printed per way: bot turns per second of the worker (the figure compared, as a ratio to held),
how long a bot's move came after its turn was queued (a person waits that, p50 and p99), and
the timer's lateness past the pace's end (p50, p99, max: its precision; the move's moment
depends on the turn's start and the pace only).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC

import redis
from rq import Queue, get_current_job

from benchmarks.bench_stack import redis_for_bench
from benchmarks.stats import spread
from service.games import GameService
from service.store.redis import RedisEventStore
from workers import config, jobs, process
from workers.scheduler import RQScheduler, job_prefix
from workers.shares import FairWorker

BOT = "random"


class Run:
    """One way of spending the pace, on a namespace of its own, for ``seconds``."""

    def __init__(self, url: str, way: str, args: argparse.Namespace) -> None:
        self.way, self.args = way, args
        self.namespace = f"bench-pace-{way}-{uuid.uuid4().hex[:6]}"
        self.rq = redis.Redis.from_url(url)
        store = RedisEventStore.from_url(url, self.namespace)
        self.service = self._service(store)
        self.person = self._service(RedisEventStore.from_url(url, self.namespace))  # the web's
        self.queue = Queue(config.bot_queue(BOT, self.namespace), connection=self.rq)
        self.moves: list[float] = []  # when each bot move was made (monotonic)
        self.waited: list[float] = []  # its turn queued -> its move, seconds
        self.late: list[float] = []  # the move past its pace's end, seconds
        self.stop = threading.Event()

    def _service(self, store: RedisEventStore) -> GameService:
        scheduler = RQScheduler(self.rq, self.namespace, accounts=store.client)
        return GameService(store, scheduler, bot_pace_ms=self.args.pace_ms)

    def start_timer(self, delay: float, action: Callable[[], None]) -> None:
        job = get_current_job()
        queued = job.enqueued_at if job is not None else None
        since = queued.replace(tzinfo=queued.tzinfo or UTC).timestamp() if queued else None
        due = time.monotonic() + delay

        def move() -> None:
            self.late.append(time.monotonic() - due)
            action()
            self.moves.append(time.monotonic())
            if since is not None:
                self.waited.append(time.time() - since)

        if self.way == "held":
            time.sleep(delay)
            move()
        else:
            threading.Timer(delay, move).start()

    def new_game(self) -> str:
        seats = [{"type": "open"}] + [{"type": "bot", "bot": BOT}] * 4
        game_id = str(self.person.create_game("sheepshead", seats)["id"])
        self.person.join_seat(game_id, 0, "ann")
        return game_id

    def play_people(self, games: list[str]) -> None:
        rng = random.Random(1)
        while not self.stop.is_set():
            for i, game_id in enumerate(games):
                loaded = self.person.load(game_id)
                if loaded.over:
                    games[i] = self.new_game()
                elif 0 in loaded.game.awaited_seats(loaded.state):
                    action = rng.choice(loaded.game.legal_actions(loaded.state, 0))
                    with contextlib.suppress(Exception):  # it moved meanwhile: look again
                        self.person.submit_action(game_id, 0, action, loaded.version)
            time.sleep(0.02)

    def run(self) -> float:
        """Bot turns per second of the worker over ``--seconds`` (after a second's warm-up)."""
        process.use_service(self.service)
        jobs.start_timer = self.start_timer
        games = [self.new_game() for _ in range(self.args.games)]
        person = threading.Thread(target=self.play_people, args=(games,), daemon=True)
        person.start()
        began = time.monotonic()
        window = (began + 1.0, began + 1.0 + self.args.seconds)
        stopper = threading.Timer(window[1] - began, os.kill, (os.getpid(), signal.SIGINT))
        stopper.start()  # the worker's warm stop: after its job, if it is in one
        try:
            FairWorker([self.queue], connection=self.rq).work(logging_level="WARNING")
        finally:
            stopper.cancel()
            self.stop.set()
            person.join()
            time.sleep(self.args.pace_ms / 1000 + 0.2)  # the timers still running end
            process.use_service(None)
            jobs.start_timer = jobs._start_pace_timer
        counted = [t for t in self.moves if window[0] <= t < window[1]]
        return len(counted) / self.args.seconds

    def drop(self) -> None:
        for pattern in (f"{self.namespace}:*", f"rq:*{job_prefix(self.namespace)}*",
                        f"rq:*{self.namespace}*"):  # fmt: skip
            for key in self.rq.scan_iter(match=pattern, count=1000):
                self.rq.unlink(key)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games with a person at once")
    parser.add_argument("--seconds", type=float, default=12.0, help="counted per round and way")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pace-ms", type=int, default=1500)
    args = parser.parse_args(argv)
    rates: dict[str, list[float]] = {"held": [], "timer": []}
    runs: dict[str, list[Run]] = {"held": [], "timer": []}
    with redis_for_bench() as url:
        for round_ in range(args.rounds):
            for way in ("held", "timer") if round_ % 2 == 0 else ("timer", "held"):
                run = Run(url, way, args)
                try:
                    rates[way].append(run.run())
                finally:
                    run.drop()
                runs[way].append(run)
    held, timer = statistics.median(rates["held"]), statistics.median(rates["timer"])
    print(f"one worker, {args.games} Sheepshead games each with a person and 4 bots, pace "
          f"{args.pace_ms} ms, {args.rounds} rounds of {args.seconds:g} s per way:")
    for way in ("held", "timer"):
        waited = [w for r in runs[way] for w in r.waited]
        late = [x * 1000 for r in runs[way] for x in r.late]
        print(f"  {way:5}  bot turns/s {spread(rates[way], '{:.2f}')}   turn queued -> move "
              f"p50 {_pct(waited, 0.5):.2f} s p99 {_pct(waited, 0.99):.2f} s   past the pace's "
              f"end p50 {_pct(late, 0.5):.1f} ms p99 {_pct(late, 0.99):.1f} ms max "
              f"{max(late, default=float('nan')):.1f} ms")
    ratios = [t / h for h, t in zip(rates["held"], rates["timer"], strict=True) if h]
    print(f"  ratio timer/held {timer / held:.2f} (per round "
          f"{', '.join(f'{r:.2f}' for r in ratios)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
