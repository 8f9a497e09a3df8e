"""The baseline for bench_api: a plain Flask endpoint that parses the same JSON and does one XADD.

It answers the very requests the action benchmark sends (``POST /games/<id>/actions``, the
same bodies and headers), served by the same gunicorn set-up as the real app:
``gunicorn 'benchmarks.bare_app:create_app()'``.
"""

from __future__ import annotations

import json
import os
from typing import Any

import redis
from flask import Flask, jsonify, request


def create_app() -> Flask:
    """POST /games/<id>/actions: parse the JSON body, XADD it to that game's stream, answer
    with the entry id; GET /healthz for the start-up probe."""
    app = Flask(__name__)
    client = redis.Redis.from_url(
        os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), decode_responses=True
    )
    prefix = f"{os.environ.get('CARDROOM_NAMESPACE', 'bench')}:bare"

    @app.post("/games/<game_id>/actions")
    def bare(game_id: str) -> Any:
        body = request.get_json()
        entry = client.xadd(
            f"{prefix}:{{{game_id}}}", {"event": json.dumps(body)}, maxlen=1000, approximate=True
        )
        return jsonify({"id": entry, "version": body.get("expected_version", 0) + 1})

    @app.get("/healthz")
    def healthz() -> Any:
        return jsonify({"ok": True})

    return app
