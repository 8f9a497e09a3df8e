"""A SIGKILLed worker leaves no scheduler behind: RQ forks its scheduler into a process of its
own, which (unpatched) keeps running, renewing the queue's scheduling lock, after its worker
dies; ours stops within a few of its one-second turns."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import redis

from service.metrics_dir import default_dir
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def _wait_for(check: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_the_scheduler_of_a_killed_worker_stops(tmp_path: Path) -> None:
    url, namespace = redis_url(), unique_namespace("scheduler")
    env = {**os.environ, "REDIS_URL": url, "CARDROOM_NAMESPACE": namespace}
    command = [sys.executable, "-m", "service.cli", "worker"]
    log = open(tmp_path / "worker.log", "wb")  # noqa: SIM115
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    schedulers: list[psutil.Process] = []
    try:
        process = psutil.Process(worker.pid)
        found = _wait_for(lambda: schedulers.extend(process.children()) or schedulers, 30)
        assert found, (tmp_path / "worker.log").read_text()
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(10)
        gone = _wait_for(lambda: not any(p.is_running() and p.status() != "zombie"
                                         for p in schedulers), 15)  # fmt: skip
        assert gone, f"the scheduler {[p.pid for p in schedulers]} outlived its worker"
    finally:
        for child in schedulers:
            if child.is_running():
                child.kill()
        if worker.poll() is None:
            worker.kill()
        log.close()
        delete_namespace(redis.Redis.from_url(url), namespace)
        # a killed worker never removes its metrics directory (the last process's exit does)
        shutil.rmtree(default_dir(namespace), ignore_errors=True)
