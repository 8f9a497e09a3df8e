"""`cardroom serve` supervises its children: SIGKILL the embedded Redis, a worker or gunicorn
and each is restarted (logged), and the service answers and plays again."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from tests.e2e.conftest import BOT, free_port, start_serve

pytestmark = pytest.mark.e2e


def _until(check: object, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():  # type: ignore[operator]
                return
        except (requests.RequestException, redis.RedisError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting until {what}")


def test_serve_restarts_a_killed_redis_worker_and_web(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    serve = start_serve(tmp_path, port, CARDROOM_SWEEP_INTERVAL="0.5")
    try:
        _until(lambda: requests.get(f"{base}/games", timeout=5).status_code == 200, "it is up")
        # ready: the store answers and the worker's heartbeat is fresh
        _until(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200, "ready")
        store = redis.Redis(unix_socket_path=str(tmp_path / "var" / "redis.sock"))

        def bots_game_finishes() -> None:
            body = {"game": "shithead", "seats": [BOT] * 2}
            game = requests.post(f"{base}/games", json=body, timeout=10).json()["id"]
            _until(
                lambda: requests.get(f"{base}/games/{game}", timeout=5).json()["status"]
                == "over",
                "the bots finish",
                60,
            )

        bots_game_finishes()
        before = requests.get(f"{base}/games", timeout=5).json()

        body = {"game": "shithead", "seats": [BOT] * 2}  # bots at work when Redis dies
        playing = requests.post(f"{base}/games", json=body, timeout=10).json()["id"]
        time.sleep(0.2)
        os.kill(int(store.info()["process_id"]), signal.SIGKILL)
        _until(lambda: "restarted embedded Redis" in log.read_text(), "Redis is restarted")

        def listed_before() -> Any:
            games = requests.get(f"{base}/games", timeout=5).json()
            return {**games, "games": [g for g in games["games"] if g["id"] != playing]}

        _until(lambda: listed_before() == before, "data is back")
        bots_game_finishes()
        # the worker waited for Redis and served again (it was not restarted: RQ's own loop
        # quitting on the lost connection mid-job is taken as the outage it is)
        assert "restarted worker 1" not in log.read_text()

        worker = int(re.findall(r"started worker 1, pid (\d+)", log.read_text())[-1])
        os.kill(worker, signal.SIGKILL)
        _until(lambda: "restarted worker 1" in log.read_text(), "the worker is restarted")

        web = int(re.findall(r"started web, pid (\d+)", log.read_text())[-1])
        os.kill(web, signal.SIGKILL)
        _until(lambda: "restarted web" in log.read_text(), "gunicorn is restarted")
        _until(lambda: requests.get(f"{base}/games", timeout=5).status_code == 200, "web is up")
        bots_game_finishes()
        assert serve.poll() is None
    finally:
        serve.send_signal(signal.SIGINT)
        assert serve.wait(30) == 0
