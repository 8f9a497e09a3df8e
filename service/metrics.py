"""Prometheus metrics (prometheus-client), correct across processes.

``cardroom serve`` points PROMETHEUS_MULTIPROC_DIR at a fresh directory for all its children
(gunicorn workers and RQ workers), so ``/metrics`` on any web process reports the sum over all
of them (prometheus-client's multiprocess mode). Without that variable each process reports
its own figures (fine for one process; with several, scrape each or set the variable).

- ``cardroom_http_request_seconds{method, route, status}``  request latency (to the first byte)
- ``cardroom_actions_appended_total{game}``                 accepted actions (people and bots)
- ``cardroom_bot_turn_seconds``                             a bot turn, from enqueue to its end
- ``cardroom_open_streams``                                 event streams open now
- ``cardroom_queue_depth{queue}``                           RQ jobs waiting, read at scrape time
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC
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
    "Actions whose process's cached fold was behind: caught up from the append feed (heard, "
    "no round trip) or by reading the stream (read)",
    ["source"],
)


@functools.cache
def appended(game: str) -> Any:
    """``ACTIONS_APPENDED`` of ``game``, labelled once (``labels`` takes a lock every call:
    with ``catch_up`` some 1.5 % of an action's CPU under load)."""
    return ACTIONS_APPENDED.labels(game)


@functools.cache
def catch_up(source: str) -> Any:
    """``CATCH_UPS`` from ``source`` (heard, read), labelled once."""
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


class QueueDepths(Collector):
    """RQ queue lengths, read when scraped."""

    def __init__(self, depths: Callable[[], dict[str, int]]) -> None:
        self.depths = depths

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("cardroom_queue_depth", "RQ jobs waiting", labels=["queue"])
        for queue, depth in sorted(self.depths().items()):
            family.add_metric([queue], depth)
        yield family


def exposition(depths: Callable[[], dict[str, int]]) -> bytes:
    """The text format: this process's (or, in multiprocess mode, all processes') metrics."""
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = REGISTRY
    queues = CollectorRegistry()
    queues.register(QueueDepths(depths))
    return generate_latest(registry) + generate_latest(queues)
