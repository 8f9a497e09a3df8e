"""Redis outages, on a ``redis-server`` of the test's own that it kills and restarts.

- while it is down every request answers 503 problem+json ``store_unavailable``, Retry-After;
- a web process whose cached fold is ahead of the stream (Redis restored from an older
  snapshot) refolds instead of answering 409 for ever;
- a worker busy with a job when Redis goes away survives and serves jobs once it is back.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue
from rq.job import Job, JobStatus

from service.app import create_app
from tests.support.redis_server import OwnRedis, unique_namespace

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def own(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path, "--appendonly", "yes", "--appendfsync", "always")
    yield server
    server.stop()


def _client(url: str) -> FlaskClient:
    config = {"REDIS_URL": url, "CARDROOM_NAMESPACE": unique_namespace(), "TESTING": True}
    return create_app(config).test_client()


def _table(client: FlaskClient) -> tuple[str, list[dict[str, str]]]:
    created = client.post("/games", json={"game": "shithead", "seats": [{"type": "open"}] * 2})
    assert created.status_code == 201, created.get_data(as_text=True)
    game_id = created.get_json()["id"]
    auth = []
    for seat in (0, 1):
        joined = client.post(f"/games/{game_id}/seats/{seat}", json={"name": f"p{seat}"})
        auth.append({"Authorization": f"Bearer {joined.get_json()['token']}"})
    return game_id, auth


def _act(client: FlaskClient, game_id: str, auth: list[dict[str, str]]) -> Any:
    seat = client.get(f"/games/{game_id}").get_json()["to_act"][0]
    view = client.get(f"/games/{game_id}/view", headers=auth[seat]).get_json()
    body = {**view["view"]["legal_actions"][0], "expected_version": view["version"]}
    return client.post(f"/games/{game_id}/actions", json=body, headers=auth[seat])


def test_every_request_answers_503_while_redis_is_down_then_works_again(own: OwnRedis) -> None:
    client = _client(own.url)
    game_id, auth = _table(client)
    own.kill()
    requests = [
        ("GET", "/games", None, {}),
        ("POST", "/games", {"game": "shithead", "seats": [{"type": "open"}] * 2}, {}),
        ("GET", f"/games/{game_id}", None, {}),
        ("GET", f"/games/{game_id}/view", None, auth[0]),
        ("GET", f"/games/{game_id}/events", None, {}),
        ("GET", f"/games/{game_id}/stream", None, {}),
        ("POST", f"/games/{game_id}/seats/0", {"name": "late"}, {}),
        ("POST", f"/games/{game_id}/actions", {"type": "pass", "expected_version": 1}, auth[0]),
    ]
    for method, path, body, headers in requests:
        response = client.open(path, method=method, json=body, headers=headers)
        assert response.status_code == 503, (method, path, response.get_data(as_text=True))
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == "store_unavailable"
        assert int(response.headers["Retry-After"]) > 0
    own.start()  # the same port and AOF: everything acknowledged is back
    assert client.get(f"/games/{game_id}").status_code == 200
    assert _act(client, game_id, auth).status_code == 200


def test_a_cache_ahead_of_a_restored_stream_is_refolded(tmp_path: Path) -> None:
    own = OwnRedis(tmp_path, "--appendonly", "no")
    try:
        client = _client(own.url)
        game_id, auth = _table(client)
        for _ in range(3):
            assert _act(client, game_id, auth).status_code == 200
        snapshot = client.get(f"/games/{game_id}").get_json()["version"]
        redis.Redis.from_url(own.url).save()  # the older state Redis comes back from
        for _ in range(3):
            assert _act(client, game_id, auth).status_code == 200
        own.kill()
        own.start()
        assert client.get(f"/games/{game_id}").get_json()["version"] == snapshot
        assert _act(client, game_id, auth).status_code == 200
    finally:
        own.stop()


def test_a_worker_busy_when_redis_goes_away_survives_and_reconnects(
    own: OwnRedis, tmp_path: Path
) -> None:
    namespace = unique_namespace()
    env = {**os.environ, "REDIS_URL": own.url, "CARDROOM_NAMESPACE": namespace}
    env["CARDROOM_SWEEP_INTERVAL"] = "0.5"
    log_path = tmp_path / "worker.log"
    with log_path.open("wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "worker"], cwd=ROOT, env=env, stdout=log,
            stderr=log,
        )  # fmt: skip
    try:
        connection = redis.Redis.from_url(own.url)
        queue = Queue(f"{namespace}:bots", connection=connection)
        busy = queue.enqueue(time.sleep, 2)
        _wait_status(busy.id, connection, JobStatus.STARTED, 20)
        own.kill()  # while the job runs
        time.sleep(3.5)  # the job ends; its result cannot be written
        assert worker.poll() is None, log_path.read_text()
        own.start()
        connection = redis.Redis.from_url(own.url)
        after = Queue(f"{namespace}:bots", connection=connection).enqueue(time.sleep, 0)
        _wait_status(after.id, connection, JobStatus.FINISHED, 30)
        assert worker.poll() is None
    finally:
        worker.terminate()
        worker.wait(15)


def _wait_status(job_id: str, connection: redis.Redis, status: JobStatus, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if Job.fetch(job_id, connection=connection).get_status() == status:
                return
        except redis.ConnectionError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} never reached {status}")
