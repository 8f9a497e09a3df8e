"""Prometheus metrics (prometheus-client), correct across processes.

Every process of the service sets PROMETHEUS_MULTIPROC_DIR up itself (``service.metrics_dir``:
gunicorn's master through ``service.gunicorn_conf``, ``cardroom worker``, ``cardroom serve``),
so ``/metrics`` on any web process reports the sum over every process of the host
(prometheus-client's multiprocess mode). Without that variable (the app in a test, or under a
server of one's own) each process reports its own figures.

- ``cardroom_http_request_seconds{method, route, status}``  request latency (to the first byte)
- ``cardroom_actions_appended_total{game}``                 accepted actions (people and bots)
- ``cardroom_bot_turn_seconds``                             a bot turn, from enqueue to its end
- ``cardroom_open_streams``                                 event streams open now
- ``cardroom_queue_depth{queue}``                           RQ jobs waiting, read at scrape time
- ``cardroom_games{status}``                                games waiting and playing, read so
- ``cardroom_workers_alive``                                workers seen recently, read so
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC
from pathlib import Path
from typing import Any, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from service import metrics_dir

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST
F = TypeVar("F", bound=Callable[..., Any])

REQUEST_SECONDS = Histogram(
    "cardroom_http_request_seconds",
    "HTTP request latency, to the response's first byte",
    ["method", "route", "status"],
)
ACTIONS_APPENDED = Counter(
    "cardroom_actions_appended", "Actions accepted and appended to a game's stream", ["game"]
)
CATCH_UPS = Counter(
    "cardroom_fold_catch_ups",
    "Actions whose process's cached fold was behind, caught up by reading the stream (read)",
    ["source"],
)


@functools.cache
def appended(game: str) -> Any:
    """``ACTIONS_APPENDED`` of ``game``, labelled once (``labels`` takes a lock every call:
    with ``catch_up`` some 1.5 % of an action's CPU under load)."""
    return ACTIONS_APPENDED.labels(game)


@functools.cache
def catch_up(source: str) -> Any:
    """``CATCH_UPS`` from ``source`` (read), labelled once."""
    return CATCH_UPS.labels(source)


BOT_TURN_SECONDS = Histogram(
    "cardroom_bot_turn_seconds", "A bot turn job, from its enqueue to its end (wait + play)"
)
OPEN_STREAMS = Gauge(
    "cardroom_open_streams", "Event streams open now", multiprocess_mode="livesum"
)


def timed_bot_turn(job: F) -> F:
    """Record a bot-turn job's latency (from its enqueue when RQ knows it, else its run)."""

    @functools.wraps(job)
    def run(*args: Any, **kwargs: Any) -> Any:
        started = time.time()
        try:
            return job(*args, **kwargs)
        finally:
            BOT_TURN_SECONDS.observe(time.time() - _enqueued_at(started))

    return run  # type: ignore[return-value]


def _enqueued_at(default: float) -> float:
    try:
        from rq import get_current_job

        current = get_current_job()
    except Exception:
        return default
    enqueued = getattr(current, "enqueued_at", None) if current is not None else None
    if enqueued is None:
        return default

    return float(enqueued.replace(tzinfo=enqueued.tzinfo or UTC).timestamp())


def streaming(lines: Iterable[str]) -> Iterator[str]:
    """Count a stream as open while its lines are being sent."""
    OPEN_STREAMS.inc()
    try:
        yield from lines
    finally:
        OPEN_STREAMS.dec()


class ReadAtScrape(Collector):
    """A gauge read when scraped (from Redis: the same on every process), one sample per
    label value; ``label`` None: one sample, keyed ""."""

    def __init__(
        self, name: str, documentation: str, label: str | None, read: Callable[[], dict[str, float]]
    ) -> None:
        self.name, self.documentation, self.label, self.read = name, documentation, label, read

    def collect(self) -> Iterator[GaugeMetricFamily]:
        labels = [self.label] if self.label else []
        family = GaugeMetricFamily(self.name, self.documentation, labels=labels)
        for key, value in sorted(self.read().items()):
            family.add_metric([key] if self.label else [], value)
        yield family


def queue_depths(read: Callable[[], dict[str, float]]) -> ReadAtScrape:
    """``cardroom_queue_depth{queue}``: RQ jobs waiting."""
    return ReadAtScrape("cardroom_queue_depth", "RQ jobs waiting", "queue", read)


def games(read: Callable[[], dict[str, float]]) -> ReadAtScrape:
    """``cardroom_games{status}``: games waiting for players and games playing now."""
    return ReadAtScrape("cardroom_games", "Games by status (live ones)", "status", read)


def workers_alive(read: Callable[[], dict[str, float]]) -> ReadAtScrape:
    """``cardroom_workers_alive``: workers whose heartbeat is recent (as /readyz counts)."""
    return ReadAtScrape("cardroom_workers_alive", "Workers seen recently", None, read)


def exposition(*at_scrape: ReadAtScrape) -> bytes:
    """The text format: this process's (or, in multiprocess mode, all processes') metrics,
    then the gauges read now."""
    if os.environ.get(MULTIPROC_ENV):
        metrics_dir.forget_dead(Path(os.environ[MULTIPROC_ENV]))
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = REGISTRY
    now = CollectorRegistry()
    for collector in at_scrape:
        now.register(collector)
    return generate_latest(registry) + generate_latest(now)
