"""The baseline for bench_api: a Flask endpoint that only parses JSON and does one XADD.

Served by the same gunicorn set-up as the real app: ``gunicorn 'benchmarks.bare_app:create_app()'``.
"""

from __future__ import annotations

import json
import os
from typing import Any

import redis
from flask import Flask, jsonify, request


def create_app() -> Flask:
    """POST /bare: parse the JSON body, XADD it to one stream, answer with the entry id."""
    app = Flask(__name__)
    client = redis.Redis.from_url(
        os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), decode_responses=True
    )
    key = f"{os.environ.get('CARDROOM_NAMESPACE', 'bench')}:bare"

    @app.post("/bare")
    def bare() -> Any:
        body = request.get_json()
        entry = client.xadd(key, {"event": json.dumps(body)}, maxlen=10_000, approximate=True)
        return jsonify({"id": entry, "version": body.get("expected_version", 0) + 1})

    return app
