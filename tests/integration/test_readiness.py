"""/readyz on a real Redis of the test's own: store reachable and a worker seen recently."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import redis

from service import telemetry
from service.app import create_app
from tests.support.redis_server import OwnRedis, unique_namespace

pytestmark = pytest.mark.integration


def test_readyz_needs_the_store_and_a_recent_worker_heartbeat(tmp_path: Path) -> None:
    own = OwnRedis(tmp_path, "--appendonly", "no")
    try:
        namespace = unique_namespace()
        config = {
            "REDIS_URL": own.url,
            "CARDROOM_NAMESPACE": namespace,
            "CARDROOM_SCHEDULER": "workers.scheduler:from_config",
            "CARDROOM_WORKER_STALE_SECONDS": 30,
            "TESTING": True,
        }
        client = create_app(config).test_client()
        assert client.get("/healthz").status_code == 200
        waiting = client.get("/readyz")
        assert waiting.status_code == 503
        assert waiting.get_json()["checks"] == {"store": "ok", "workers": "no worker has been seen"}

        connection = redis.Redis.from_url(own.url)
        stopped = threading.Event()
        stopped.set()
        telemetry.heartbeat_forever(connection, namespace, stopped)  # one beat
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.get_json()
        assert ready.get_json() == {"ready": True, "checks": {"store": "ok", "workers": "ok"}}

        old = {name: score - 60 for name, score in connection.zrange(
            telemetry.workers_key(namespace), 0, -1, withscores=True)}  # fmt: skip
        connection.zadd(telemetry.workers_key(namespace), old)
        stale = client.get("/readyz")
        assert stale.status_code == 503
        assert stale.get_json()["checks"]["workers"].startswith("no worker seen for")

        depth = client.get("/metrics").get_data(as_text=True)
        assert f'cardroom_queue_depth{{queue="{namespace}:bots"}} 0.0' in depth

        own.kill()
        down = client.get("/readyz")
        assert down.status_code == 503
        assert down.get_json()["checks"]["store"].startswith("unreachable")
        assert client.get("/healthz").status_code == 200
    finally:
        own.stop()
