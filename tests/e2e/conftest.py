"""Real processes: `cardroom serve` (gunicorn + RQ workers) against the test Redis.

Each stack gets its own key namespace (and so its own queues) and a free port; it is stopped
and its keys deleted at the end.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from benchmarks.servers import answers, free_port
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace

ROOT = Path(__file__).resolve().parents[2]
BOT = {"type": "bot", "bot": "heuristic"}
# A cap on actions: random play (the person in these tests) can make long Shithead games.
SHORT = {"action_limit": 1500}


class Stack:
    """A running service: web (and optionally workers) as child processes."""

    def __init__(
        self,
        tmp: Path,
        bot_workers: int = 2,
        web_workers: int = 2,
        env: dict[str, str] | None = None,
    ) -> None:
        self.namespace = unique_namespace("e2e")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url(),
            "CARDROOM_NAMESPACE": self.namespace,
            "CARDROOM_SWEEP_INTERVAL": "0.5",
            "CARDROOM_RATE_LIMITS": "0",  # tested in tests/unit/service/test_limits.py
            "CARDROOM_REPLAY_DIR": str(tmp / "replays"),
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.logs = tmp
        self.http = requests.Session()
        self.workers: list[subprocess.Popen[bytes]] = []
        self.log_of: dict[int, Path] = {}
        self.web = self.spawn(
            "web",
            "serve",
            "--port",
            str(self.port),
            "--web-workers",
            str(web_workers),
            "--bot-workers",
            str(bot_workers),
        )
        try:
            self._wait_until_up()
        except BaseException:
            self.stop()  # no fixture will: leave nothing running (and no keys) behind
            raise

    def spawn(self, name: str, *args: str, module: str = "service.cli") -> subprocess.Popen[bytes]:
        path = self.logs / f"{name}-{uuid.uuid4().hex[:6]}.log"
        log = open(path, "wb")  # noqa: SIM115
        command = [sys.executable, "-m", module, *args]
        process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=log)
        self.log_of[process.pid] = path
        return process

    def wait_log(self, process: subprocess.Popen[bytes], text: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log_of[process.pid].read_text() and time.monotonic() < deadline:
            time.sleep(0.05)

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of every process's log (for a failure's message)."""
        tails = []
        for path in self.log_of.values():
            said = path.read_text(errors="replace").splitlines()
            tails.append("\n".join([f"--- {path.name}:", *said[-lines:]]))
        return "\n".join(tails)

    def start_worker(self, *args: str) -> subprocess.Popen[bytes]:
        worker = self.spawn("worker", "worker", *args)
        self.workers.append(worker)
        return worker

    def _wait_until_up(self) -> None:
        # a start takes 2-5 s on an idle machine and over 20 s under CI load (load average 15)
        if not answers(f"{self.base}/games", 60, alive=lambda: self.web.poll() is None):
            raise RuntimeError(f"the web service did not start: see {self.logs}")

    # -- the API --------------------------------------------------------------------------
    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        response = self.http.post(
            f"{self.base}/games", json={"game": game, "seats": seats, **extra}
        )
        assert response.status_code == 201, response.text
        return dict(response.json())

    def summary(self, game_id: str) -> dict[str, Any]:
        return dict(self.http.get(f"{self.base}/games/{game_id}").json())

    def wait_over(self, game_id: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            summary = self.summary(game_id)
            if summary["status"] == "over":
                return summary
            time.sleep(0.1)
        raise AssertionError(f"game {game_id} did not finish: {self.summary(game_id)}")

    def wait_replay(self, game_id: str, timeout: float = 10) -> Path:
        path = self.logs / "replays" / f"{game_id}.replay.json"
        deadline = time.monotonic() + timeout
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert path.exists(), "the worker exported no replay file"
        return path

    def stop(self) -> None:
        for process in [*self.workers, self.web]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in [*self.workers, self.web]:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
        client = redis.Redis.from_url(redis_url())
        delete_namespace(client, self.namespace)


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = Stack(tmp_path_factory.mktemp("stack"))
    yield running
    running.stop()


def play_person(stack: Stack, game_id: str, seat: int, name: str, seed: int = 0) -> int:
    """Join a seat and play random legal actions over HTTP until the game ends; returns moves."""
    joined = stack.http.post(f"{stack.base}/games/{game_id}/seats/{seat}", json={"name": name})
    assert joined.status_code in (200, 201), joined.text
    auth = {"Authorization": f"Bearer {joined.json()['token']}"}
    rng, moves = random.Random(seed), 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = stack.http.get(f"{stack.base}/games/{game_id}/view", headers=auth).json()
        if view["view"]["outcome"] is not None:
            return moves
        legal = view["view"]["legal_actions"]
        if not legal:
            time.sleep(0.01)
            continue
        body = {**rng.choice(legal), "expected_version": view["version"]}
        headers = {**auth, "Idempotency-Key": f"{name}-{view['version']}"}
        response = stack.http.post(
            f"{stack.base}/games/{game_id}/actions", json=body, headers=headers
        )
        assert response.status_code in (200, 201, 409), response.text
        moves += response.status_code != 409
    raise AssertionError("the person's game did not end in time")


def start_serve(tmp: Path, port: int, **extra_env: str) -> subprocess.Popen[bytes]:
    """``cardroom serve`` on its embedded Redis (no REDIS_URL), data under ``tmp/var``, its
    log in ``tmp/serve.log``."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CARDROOM_NAMESPACE")}
    with (tmp / "serve.log").open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port),
             "--data-dir", str(tmp / "var")],
            cwd=ROOT, env={**env, **extra_env}, stdout=out, stderr=out,
        )  # fmt: skip
