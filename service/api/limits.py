"""Rate limits (Flask-Limiter) on the same Redis as the store: creates per client, actions per seat.

Settings (app config or environment): ``CARDROOM_RATE_LIMITS`` (1 on, 0 off),
``CARDROOM_LIMIT_CREATE`` (``POST /games`` per client address), ``CARDROOM_LIMIT_ACTIONS``
(``POST /games/{id}/actions`` per seat token, else per address), and
``RATELIMIT_STORAGE_URI`` (default: ``REDIS_URL``, a Redis Cluster's ``redis+cluster://`` URL
included; ``memory://`` for one process). A refused
request is a 429 problem+json ``rate_limited`` with ``Retry-After`` (whole seconds). When the
limits' storage is unreachable requests are let through (logged), not refused.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

import redis
from flask import Flask, Response, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from service.api import problems
from service.store.connect import is_cluster_url

CREATE_ENDPOINT = "games.Games"
ACTIONS_ENDPOINT = "actions.Actions"


def client_key() -> str:
    """A client: its address (behind a proxy, configure the proxy's forwarded address)."""
    return f"ip:{get_remote_address()}"


def seat_key() -> str:
    """A seat: the digest of its bearer token, else the client's address."""
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer ") and header[7:].strip():
        return "seat:" + hashlib.sha256(header[7:].strip().encode()).hexdigest()[:32]
    return client_key()


def install(app: Flask) -> Limiter:
    """Attach the limiter and its limits to the app's create and action endpoints."""
    config = app.config
    storage_uri = config.get("RATELIMIT_STORAGE_URI") or ""
    storage_options: dict[str, Any] = {}
    if not storage_uri and is_cluster_url(config["REDIS_URL"]):
        storage_uri = config["REDIS_URL"]  # limits' own Redis Cluster storage reads it
    elif not storage_uri:  # the store's Redis, whatever its URL scheme (unix:// included)
        storage_uri = "redis://"
        storage_options["connection_pool"] = redis.ConnectionPool.from_url(config["REDIS_URL"])
    limiter = Limiter(
        client_key,
        app=app,
        storage_uri=storage_uri,
        storage_options=storage_options,
        key_prefix=f"{config['CARDROOM_NAMESPACE']}:limits",
        enabled=bool(int(config["CARDROOM_RATE_LIMITS"])),
        swallow_errors=True,
        headers_enabled=False,
    )
    views = app.view_functions
    views[CREATE_ENDPOINT] = limiter.limit(  # type: ignore[assignment]  # flask typing
        lambda: str(config["CARDROOM_LIMIT_CREATE"]), methods=["POST"], key_func=client_key
    )(views[CREATE_ENDPOINT])
    views[ACTIONS_ENDPOINT] = limiter.limit(  # type: ignore[assignment]  # flask typing
        lambda: str(config["CARDROOM_LIMIT_ACTIONS"]), methods=["POST"], key_func=seat_key
    )(views[ACTIONS_ENDPOINT])

    def refused(err: RateLimitExceeded) -> Response:
        current = limiter.current_limit
        wait = current.reset_at - time.time() if current is not None else 1.0
        retry_after = str(max(1, math.ceil(wait)))
        return problems.problem(
            "rate_limited",
            f"too many requests: at most {err.description}; retry after {retry_after} s",
            headers={"Retry-After": retry_after},
        )

    app.register_error_handler(RateLimitExceeded, refused)
    return limiter
