"""The sweeper's cost with many idle games: a sweep reads the games due, not every live game.

Run: ``.venv/bin/python -m benchmarks.bench_sweeper [--games 20000] [--playing 0.1]
[--sweeps 30] [--rounds 3]``.

In one process, on the bench Redis (``REDIS_URL``, the local server, or an embedded one), two
namespaces: ``none`` with no game and ``idle`` with ``--games`` games that wait for ever on
people (a ``--playing`` share dealt to two people who never move, the rest never filled). The
sweeper of each (the real ``workers.sweeper.Sweeper`` on the same Redis for RQ's side, its
clock moved on by a sweep interval per sweep) is first let settle (every game seen and given its
next look: an hour or a day away), then rounds alternate between the two namespaces, each
timing ``--sweeps`` sweeps (this process's CPU time). Reported: CPU per sweep in each, the
ratio idle / none per round and overall (target, issue 29: within 2x), and the cost of the
sweep that reads the whole listing to repair it (every ``CARDROOM_SWEEP_REPAIR_SECONDS``, a day:
one in 43,200 sweeps of 2 s), alone and spread over those sweeps.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid

import redis

from benchmarks.bench_stack import redis_for_bench
from service.games import GameService
from service.store.redis import RedisEventStore
from workers.scheduler import RQScheduler
from workers.sweeper import DISCOVERY_SLACK, Sweeper, interval, repair_seconds

OPEN = {"type": "open"}


class Namespace:
    """A namespace of the bench Redis with its service and a sweeper on a clock of its own."""

    def __init__(self, url: str, name: str) -> None:
        self.namespace = f"bench-sweep-{name}-{uuid.uuid4().hex[:6]}"
        self.store = RedisEventStore.from_url(url, self.namespace)
        self.service = GameService(self.store)
        self.rq = redis.Redis.from_url(url)
        scheduler = RQScheduler(self.rq, self.namespace, accounts=self.store.client)
        self.now = time.time()
        store = self.store
        self.sweeper = Sweeper(GameService(store, scheduler), scheduler, creations=store,
                               listing=store, log=store, seats=store, clocks=store,
                               clock=lambda: self.now)  # fmt: skip

    def fill(self, games: int, playing: float) -> None:
        dealt = int(games * playing)
        for i in range(games):
            game_id = str(self.service.create_game("sixty_six", [OPEN, OPEN])["id"])
            if i < dealt:
                for seat in (0, 1):
                    self.service.join_seat(game_id, seat, f"p{seat}")

    def sweep(self) -> None:
        self.now += interval()
        self.sweeper.tick()

    def settle(self) -> int:
        """Sweep until no game is due within the next sweeps; returns the sweeps it took."""
        key = f"{self.namespace}:sweeper:due"
        for count in range(1, 10_000):
            self.sweep()
            if self.rq.zcount(key, "-inf", self.now + 10 * interval()) == 0:
                return count
        raise SystemExit("the sweeper never settled")

    def cpu_per_sweep(self, sweeps: int) -> float:
        began = time.process_time()
        for _ in range(sweeps):
            self.sweep()
        return (time.process_time() - began) / sweeps

    def repair_cpu(self) -> float:
        """CPU of one sweep that reads the whole listing (its repair pass is made due)."""
        self.rq.delete(f"{self.namespace}:sweeper:repaired")
        return self.cpu_per_sweep(1)

    def drop(self) -> None:
        for key in self.rq.scan_iter(match=f"{self.namespace}:*", count=1000):
            self.rq.unlink(key)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--playing", type=float, default=0.1, help="share dealt to people")
    parser.add_argument("--sweeps", type=int, default=30, help="sweeps timed per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    with redis_for_bench() as url:
        none, idle = Namespace(url, "none"), Namespace(url, "idle")
        try:
            began = time.monotonic()
            idle.fill(args.games, args.playing)
            filled = time.monotonic() - began
            time.sleep(DISCOVERY_SLACK + 1)  # the newest creations are past a sweep's slack
            settled = (none.settle(), idle.settle())
            ratios: list[float] = []
            costs: dict[str, list[float]] = {"none": [], "idle": []}
            for round_ in range(args.rounds):
                pair = (("none", none), ("idle", idle))
                for name, space in pair if round_ % 2 == 0 else pair[::-1]:
                    costs[name].append(space.cpu_per_sweep(args.sweeps))
                ratios.append(costs["idle"][-1] / costs["none"][-1])
            repair = idle.repair_cpu()
        finally:
            none.drop()
            idle.drop()
    per_period = repair_seconds() / interval()
    base, loaded = statistics.median(costs["none"]), statistics.median(costs["idle"])
    print(f"sweeper CPU per sweep, {args.games} idle games ({args.playing:.0%} dealt to silent "
          f"people; made in {filled:.0f} s, settled in {settled[1]} sweeps) vs none:")
    print(f"  none  {base * 1000:8.3f} ms   idle  {loaded * 1000:8.3f} ms   "
          f"ratio {loaded / base:.2f} (per round {', '.join(f'{r:.2f}' for r in ratios)})")
    spread = (repair + (per_period - 1) * loaded) / per_period
    print(f"  the repair sweep (whole listing, every {repair_seconds():.0f} s): "
          f"{repair * 1000:.0f} ms; spread over its {per_period:.0f} sweeps {spread * 1000:.3f} ms"
          f" a sweep, ratio {spread / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
