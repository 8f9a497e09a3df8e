"""An idle worker keeps listening: redis-py's clients give up a read after 5 s by default, RQ's
wait for a job (BLPOP) lasts 405 s on a connection whose timeout RQ raises for it. A connection
one of the worker's threads made first kept the 5 s: the idle worker's wait failed after 5 s,
RQ took it for an outage and backed off (1, 2, 4 ... up to 60 s between two looks at its
queues), and a bot's turn queued in a quiet minute waited that long."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from rq import Queue
from rq.job import JobStatus

from tests.support.redis_server import (
    delete_namespace,
    delete_rq_keys,
    redis_url,
    unique_namespace,
)

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
IDLE = 7.0  # seconds: past redis-py's default socket timeout (5 s)


def test_a_worker_idle_past_the_socket_timeout_still_takes_a_job_at_once(tmp_path: Path) -> None:
    url, namespace = redis_url(), unique_namespace("idle")
    env = {**os.environ, "REDIS_URL": url, "CARDROOM_NAMESPACE": namespace}
    command = [sys.executable, "-m", "service.cli", "worker"]
    path = tmp_path / "worker.log"
    log = open(path, "wb")  # noqa: SIM115
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    client = redis.Redis.from_url(url)
    try:
        deadline = time.monotonic() + 30
        while "serving" not in path.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "serving" in path.read_text(), path.read_text()
        time.sleep(IDLE)  # nothing queued: the worker waits on its queues
        job = Queue(f"{namespace}:replays", connection=client).enqueue("os.getpid")
        deadline = time.monotonic() + 3
        while job.get_status() != JobStatus.FINISHED and time.monotonic() < deadline:
            time.sleep(0.05)
        said = path.read_text()
        assert "could not connect to Redis" not in said, said
        assert job.get_status() == JobStatus.FINISHED, said
        assert job.return_value() == worker.pid  # a SimpleWorker: the job ran in the worker
    finally:
        worker.terminate()
        try:
            worker.wait(10)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()
        delete_namespace(client, namespace)
        delete_rq_keys(client, namespace)
        client.close()
