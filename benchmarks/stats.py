"""What every benchmark prints: a figure as a ratio against a baseline measured in the same run,
samples taken alternately (A B A B ...), reported as the median and the range of the ratios."""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from benchmarks.servers import free_port


def ratio_line(label: str, ratios: Sequence[float], unit: str = "x") -> str:
    """``label: median 0.71x (range 0.65-0.78, 5 samples)``."""
    ordered = sorted(ratios)
    return (
        f"{label}: median {statistics.median(ordered):.2f}{unit} "
        f"(range {ordered[0]:.2f}-{ordered[-1]:.2f}, {len(ordered)} samples)"
    )


def spread(values: Sequence[float], fmt: str = "{:.3f}") -> str:
    """``median (min-max)`` of raw values."""
    ordered = sorted(values)
    med = fmt.format(statistics.median(ordered))
    return f"{med} ({fmt.format(ordered[0])}-{fmt.format(ordered[-1])})"


def alternate(
    samples: int, baseline: Callable[[], float], measured: Callable[[], float]
) -> tuple[list[float], list[float]]:
    """Run baseline, measured, baseline, measured ... ``samples`` times each (the order flips
    every round so neither always runs first); the raw values of each."""
    base: list[float] = []
    meas: list[float] = []
    for i in range(samples):
        if i % 2 == 0:
            base.append(baseline())
            meas.append(measured())
        else:
            meas.append(measured())
            base.append(baseline())
    return base, meas


def best_of(repeat: int, run: Callable[[], None]) -> float:
    """The shortest of ``repeat`` timed runs (seconds, perf_counter)."""
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - began)
    return best


def load_note() -> str:
    """The machine's load when a benchmark starts (other work shares the cores)."""
    return f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"


@contextmanager
def own_redis() -> Iterator[str]:
    """A private redis-server on a free loopback port (no persistence); its URL."""
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(url).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def service_on_own_redis() -> Iterator[Any]:
    """A ``GameService`` on ``own_redis``, in a namespace of its own (its store: ``.store``)."""
    from service.games import GameService
    from service.store.redis import RedisEventStore

    with own_redis() as url:
        yield GameService(RedisEventStore.from_url(url, f"bench-{uuid.uuid4().hex[:8]}"))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """A proportion and its Wilson score interval (95 % at the default ``z``)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half
