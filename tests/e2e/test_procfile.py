"""The Procfile under a Procfile runner (honcho, which stops every process when one exits):
the service survives a SIGKILL of its RQ worker and of gunicorn's master, /metrics reports
every process of the host with nothing set by hand, and each request is in the access log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
import requests

from service import telemetry
from tests.e2e.conftest import BOT, ROOT, free_port
from tests.support.processes import until
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.unit.service.test_ops import value

pytestmark = pytest.mark.e2e


class Honcho:
    """``honcho start`` on the repository's Procfile, its output in ``log``."""

    def __init__(self, tmp: Path) -> None:
        self.namespace = unique_namespace("procfile")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "honcho.log"
        env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
        env.update({
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
            "REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": self.namespace, "HOST": "127.0.0.1",
            "CARDROOM_RATE_LIMITS": "0", "CARDROOM_SWEEP_INTERVAL": "0.5",
            "CARDROOM_REPLAY_DIR": str(tmp / "replays"), "PYTHONUNBUFFERED": "1",
        })  # fmt: skip
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "honcho", "-f", str(ROOT / "Procfile"), "-d", str(ROOT),
                 "start", "-p", str(self.port)],
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.rq = redis.Redis.from_url(redis_url())

    def until(self, check: Callable[[], object], what: str, timeout: float = 30) -> None:
        """``check()`` comes true while honcho keeps running."""

        def running_and() -> object:
            assert self.process.poll() is None, f"honcho stopped: {self.tail()}"
            return check()

        until(running_and, what, timeout, also=self.tail)

    def tail(self) -> str:
        return self.log.read_text()[-3000:]

    def ready(self) -> bool:
        return requests.get(f"{self.base}/readyz", timeout=5).status_code == 200

    def worker_pids(self) -> set[int]:
        """The RQ workers' pids, from their heartbeats (``host:pid``, every 5 s)."""
        seen = self.rq.zrangebyscore(
            telemetry.workers_key(self.namespace), time.time() - 6, "+inf"
        )
        return {int(name.decode().rpartition(":")[2]) for name in seen}

    def bots_game_finishes(self) -> None:
        body = {"game": "sixty_six", "seats": [BOT] * 2}
        game = requests.post(f"{self.base}/games", json=body, timeout=10).json()["id"]
        url = f"{self.base}/games/{game}"
        self.until(lambda: requests.get(url, timeout=5).json()["status"] == "over", "over", 60)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        delete_namespace(self.rq, self.namespace)


@pytest.fixture(scope="module")
def honcho(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Honcho]:
    running = Honcho(tmp_path_factory.mktemp("honcho"))
    try:
        running.until(running.ready, "the service is ready (web up, a worker seen)")
        yield running
    finally:
        running.stop()


def metric(base: str, name: str, **labels: str) -> float:
    return value(requests.get(f"{base}/metrics", timeout=5).text, name, **labels)


def test_the_procfile_metrics_sum_every_process_and_requests_are_logged(
    honcho: Honcho,
) -> None:
    honcho.bots_game_finishes()
    time.sleep(1)  # the last turn's job records its time just after its append
    # the bots' turns are counted in the worker; every web process reports them, the same
    scraped = {metric(honcho.base, "cardroom_bot_turn_seconds_count") for _ in range(6)}
    assert len(scraped) == 1 and scraped.pop() > 0
    summed = [metric(honcho.base, "cardroom_actions_appended_total", game="sixty_six")
              for _ in range(6)]  # fmt: skip
    assert len(set(summed)) == 1 and summed[0] > 0
    assert metric(honcho.base, "cardroom_workers_alive") == 1  # (before the kill test)
    assert metric(honcho.base, "cardroom_games", status="playing") == 0
    honcho.until(lambda: '"GET /metrics HTTP/1.1" 200' in honcho.log.read_text(), "logged", 5)


def test_the_procfile_service_survives_a_killed_worker_and_a_killed_web_master(
    honcho: Honcho,
) -> None:
    honcho.bots_game_finishes()
    (worker,) = honcho.worker_pids()
    os.kill(worker, signal.SIGKILL)
    honcho.until(lambda: honcho.worker_pids() - {worker}, "another worker serves", 30)
    honcho.bots_game_finishes()

    master = int(honcho.log.read_text().split("started web, pid ")[1].split(":")[0])
    os.kill(master, signal.SIGKILL)
    honcho.until(lambda: "restarted web" in honcho.log.read_text(), "gunicorn restarted")
    honcho.until(honcho.ready, "the web answers again")
    honcho.bots_game_finishes()
    assert honcho.process.poll() is None
