"""`cardroom worker` beside `make run` (no REDIS_URL): it serves the running service's embedded
Redis, found through the URL `cardroom serve` writes into its data folder, and says so."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from benchmarks.servers import answers
from tests.e2e.conftest import ROOT, free_port, start_serve

pytestmark = pytest.mark.e2e

LOWBALL = {"type": "bot", "bot": "lowball"}


def test_a_worker_without_redis_url_serves_the_running_services_embedded_redis(
    tmp_path: Path,
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    serve = start_serve(tmp_path, port, CARDROOM_RATE_LIMITS="0")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CARDROOM_NAMESPACE")}
    worker: subprocess.Popen[bytes] | None = None
    try:
        _wait_for(lambda: (tmp_path / "var" / "redis.sock").exists(), "the embedded Redis")
        with (tmp_path / "worker.log").open("wb") as out:
            worker = subprocess.Popen(
                [sys.executable, "-m", "service.cli", "worker", "--bot", "lowball",
                 "--import", "workers.examples.lowball", "--no-sweep"],
                cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)}, stdout=out, stderr=out,
            )  # fmt: skip
        # served, not only listening: gunicorn accepts at once while its workers still load the
        # app (over 10 s under load), and a request sent meanwhile waits all that time
        assert answers(f"{base}/games", 60, alive=lambda: serve.poll() is None), "no web"
        game = _create_when_registered(base)
        _wait_for(lambda: _status(base, game) == "over", "the game with the worker's bot")
    finally:
        for process in (worker, serve):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGINT)
                process.wait(30)
    log = (tmp_path / "worker.log").read_text()
    socket = tmp_path / "var" / "redis.sock"
    assert f"using the embedded Redis of the `cardroom serve` running on {tmp_path / 'var'}" in log
    assert str(socket) in log
    assert not (tmp_path / "var" / "redis.url").exists(), "serve removes it when it stops"


def _create_when_registered(base: str) -> str:
    body = {"game": "sixty_six", "seats": [LOWBALL, {"type": "bot", "bot": "heuristic"}],
            "options": {"game_target": 1}}  # fmt: skip
    deadline = time.monotonic() + 30
    while True:  # until the worker has registered its bot
        try:
            created = requests.post(f"{base}/games", json=body, timeout=10)
        except requests.ConnectionError:
            created = None
        if created is not None and created.status_code == 201:
            return str(created.json()["id"])
        assert time.monotonic() < deadline, created.text if created is not None else "no web"
        time.sleep(0.2)


def _status(base: str, game: str) -> str:
    return str(requests.get(f"{base}/games/{game}", timeout=10).json()["status"])


def _wait_for(done: object, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)
