"""For operators: ``/healthz``, ``/readyz``, ``/metrics``, worker heartbeats and JSON logs.

- ``GET /healthz``: 200 while the process answers (no store access).
- ``GET /readyz``: 200 when the store answers PING and, if bots are scheduled (a scheduler is
  configured), RQ's Redis answers and a worker heartbeat is younger than
  CARDROOM_WORKER_STALE_SECONDS; else 503. The body says which check failed.
- ``GET /metrics``: Prometheus text format (see ``service.metrics``).
- Workers write a heartbeat (``<ns>:workers:seen``, a sorted set: worker -> unix time) every
  HEARTBEAT_SECONDS, on RQ's Redis (``RQ_REDIS_URL``, default ``REDIS_URL``) beside the queues:
  the worker checks and queue depths read the scheduler's connection, the store check asks the
  store's ``Health`` port (a PING of its Redis, a Redis Cluster too) and the games' gauges its
  ``Listing``, all three given by ``create_app`` (``install``).
- CARDROOM_LOG_FORMAT=json (or ``cardroom serve --log-json``): one JSON object per log line.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import redis
from flask import Blueprint, Flask, Response, current_app, g, request

from service import metrics, queues
from service.store.port import Health, Listing
from service.store.redis import OUTAGES
from service.telemetry import use_json_logs, workers_key

blp = Blueprint("ops", __name__)
STORE = "cardroom.ops.store"  # the app's extension: the store's ports these endpoints read


@dataclass(frozen=True, slots=True)
class StorePorts:
    """What the operators' endpoints read of the store: whether it answers, and the listing's
    counts."""

    health: Health
    listing: Listing
    rq: redis.Redis | None = None  # RQ's Redis (the scheduler's), if bots are scheduled so


def _store() -> StorePorts:
    ports: StorePorts = current_app.extensions[STORE]
    return ports


def _rq() -> redis.Redis | None:
    """RQ's Redis (the scheduler's connection), if bots are scheduled through RQ."""
    return _store().rq


@blp.get("/healthz")
def healthz() -> Response:
    return _json({"status": "ok"}, 200)


@blp.get("/readyz")
def readyz() -> Response:
    checks: dict[str, Any] = {}
    try:
        _store().health.ping()
        checks["store"] = "ok"
    except OUTAGES as err:
        checks["store"] = f"unreachable: {err}"
    rq = _rq()
    if current_app.config.get("CARDROOM_SCHEDULER") and rq is not None:
        checks["workers"] = _workers_check(rq)
    ready = all(v == "ok" for v in checks.values())
    return _json({"ready": ready, "checks": checks}, 200 if ready else 503)


def _workers_check(rq: redis.Redis) -> str:
    """"ok" when a worker's heartbeat (on RQ's Redis) is recent enough, else what is wrong."""
    namespace = current_app.config["CARDROOM_NAMESPACE"]
    try:
        newest = rq.zrevrange(workers_key(namespace), 0, 0, withscores=True)
    except OUTAGES as err:
        return f"RQ's Redis unreachable: {err}"
    if not newest:
        return "no worker has been seen"
    age = time.time() - float(newest[0][1])
    if age > float(current_app.config["CARDROOM_WORKER_STALE_SECONDS"]):
        return f"no worker seen for {age:.0f}s"
    return "ok"


@blp.get("/metrics")
def metrics_view() -> Response:
    text = metrics.exposition(
        metrics.queue_depths(_queue_depths),
        metrics.games(_live_games),
        metrics.workers_alive(_workers_alive),
    )
    return Response(text, mimetype=None, headers={"Content-Type": metrics.CONTENT_TYPE})


def _live_games() -> dict[str, float]:
    """Games waiting and playing (the listing's counts); nothing while the store is away."""
    listing = _store().listing
    try:
        return {status: listing.game_count(status) for status in ("waiting", "playing")}
    except OUTAGES:
        return {}


def _workers_alive() -> dict[str, float]:
    """Workers whose heartbeat is at most CARDROOM_WORKER_STALE_SECONDS old (as /readyz)."""
    rq = _rq()
    if rq is None or not current_app.config.get("CARDROOM_SCHEDULER"):
        return {}
    since = time.time() - float(current_app.config["CARDROOM_WORKER_STALE_SECONDS"])
    key = workers_key(current_app.config["CARDROOM_NAMESPACE"])
    try:
        return {"": float(rq.zcount(key, since, "+inf"))}
    except OUTAGES:
        return {}


def _queue_depths() -> dict[str, float]:
    client = _rq()
    if client is None:
        return {}
    names = queues.default_queues(current_app.config["CARDROOM_NAMESPACE"])
    try:
        lengths = [int(client.llen(f"rq:queue:{name}")) for name in names]
    except OUTAGES:
        return {}
    return dict(zip(names, lengths, strict=True))


def _json(body: dict[str, Any], status: int) -> Response:
    return Response(json.dumps(body), status=status, mimetype="application/json")


def _started() -> None:
    g.cardroom_started = time.perf_counter()


def _finished(response: Response) -> Response:
    started = getattr(g, "cardroom_started", None)
    if started is not None:
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        metrics.REQUEST_SECONDS.labels(request.method, route, str(response.status_code)).observe(
            time.perf_counter() - started
        )
    return response


def install(app: Flask, health: Health, listing: Listing, scheduler: object = None) -> None:
    """Register the endpoints (on the store's ``health`` and ``listing``, and the connection
    of ``scheduler`` when it is RQ's) and the request timing; JSON logs if the config asks."""
    connection = getattr(scheduler, "connection", None)
    rq = connection if isinstance(connection, redis.Redis) else None
    app.extensions[STORE] = StorePorts(health, listing, rq)
    app.register_blueprint(blp)
    app.before_request(_started)
    app.after_request(_finished)
    if str(app.config.get("CARDROOM_LOG_FORMAT", "")).lower() == "json":
        use_json_logs()
