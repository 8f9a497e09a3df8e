"""`cardroom serve` with no REDIS_URL: an embedded Redis under the data dir, web and worker
up, a bots-only game played, and Ctrl-C (SIGINT) stops every process it started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import requests

from benchmarks.servers import answers
from service.receipts import signature_holds
from tests.e2e.conftest import BOT, ROOT, free_port, start_serve

pytestmark = pytest.mark.e2e


def test_serve_runs_everything_on_an_embedded_redis_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    serve = start_serve(tmp_path, port)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_up(base, serve)
        created = requests.post(
            f"{base}/games", json={"game": "shithead", "seats": [BOT] * 4}, timeout=10
        ).json()
        deadline = time.monotonic() + 60
        while (
            requests.get(f"{base}/games/{created['id']}", timeout=10).json()["status"] != "over"
        ):
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.1)
        # the receipt key is made in the data folder, and every web worker signs with it
        key = requests.get(f"{base}/fairness/key", timeout=10).json()["public_key"]
        assert key and (tmp_path / "var" / "signing-key.pem").exists()
        signed = [requests.get(f"{base}/games/{created['id']}", timeout=10).json()
                  for _ in range(8)]  # fmt: skip
        assert all(signature_holds(key, created["id"], s["version"], s["head_hash"],
                                   s["receipt_signature"]) for s in signed)  # fmt: skip
    finally:
        serve.send_signal(signal.SIGINT)
        assert serve.wait(30) == 0
    text = log.read_text()
    assert "REDIS_URL is not set: started the embedded Redis" in text
    assert "stopped embedded Redis" in text
    assert not (tmp_path / "var" / "redis.sock").exists()


def _wait_up(base: str, serve: subprocess.Popen[bytes]) -> None:
    if not answers(f"{base}/games", 30, alive=lambda: serve.poll() is None):
        raise AssertionError("cardroom serve did not come up")


def test_a_killed_serve_leaves_no_server_or_worker_behind(tmp_path: Path) -> None:
    port = free_port()
    serve = start_serve(tmp_path, port)
    _wait_up(f"http://127.0.0.1:{port}", serve)
    children = _children_of(serve.pid)
    assert len(children) >= 3, "the embedded Redis, gunicorn and a worker run"
    serve.kill()  # SIGKILL: serve cannot clean up; its children must still go
    serve.wait(10)
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in children if _alive(pid)]
    for pid in left:  # never leave strays behind, even when the test fails
        os.killpg(pid, signal.SIGKILL)
    assert not left


def _children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_second_serve_on_the_same_data_folder_refuses_naming_the_first(tmp_path: Path) -> None:
    first_port, second_port = free_port(), free_port()
    first = start_serve(tmp_path, first_port)
    try:
        _wait_up(f"http://127.0.0.1:{first_port}", first)
        second = _serve_beside(tmp_path, second_port)
        try:
            code: int | None = second.wait(20)
        except subprocess.TimeoutExpired:
            code = None  # it runs beside the first (then stopped, but the test fails)
            second.send_signal(signal.SIGINT)
            second.wait(30)
        assert code == 1, "a second serve ran on the data folder in use"
        said = (tmp_path / "second.log").read_text()
        assert f"is in use by `cardroom serve` pid {first.pid}" in said
        assert f"127.0.0.1:{first_port}" in said and "embedded Redis" not in said
        assert _redis_servers_on(tmp_path / "var") == 1
        requests.get(f"http://127.0.0.1:{first_port}/games", timeout=10).raise_for_status()
    finally:
        first.kill()  # SIGKILL: the lock goes with it (and with its embedded Redis)
        first.wait(10)
    _gone(lambda: _redis_servers_on(tmp_path / "var") == 0)
    again = _serve_beside(tmp_path, second_port)
    try:
        _wait_up(f"http://127.0.0.1:{second_port}", again)
    finally:
        again.send_signal(signal.SIGINT)
        assert again.wait(30) == 0


def _serve_beside(tmp: Path, port: int) -> subprocess.Popen[bytes]:
    """Another `cardroom serve` on ``tmp/var``, its log in ``tmp/second.log``."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CARDROOM_NAMESPACE")}
    with (tmp / "second.log").open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port),
             "--data-dir", str(tmp / "var")],
            cwd=ROOT, env=env, stdout=out, stderr=out,
        )  # fmt: skip


def _redis_servers_on(data_dir: Path) -> int:
    """redis-server processes working in this data folder (``--dir``: their cwd)."""
    count = 0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(proc / "exe").endswith("redis-server") and \
                    Path(os.readlink(proc / "cwd")) == data_dir.resolve():  # fmt: skip
                count += 1
        except OSError:
            continue
    return count


def _gone(done: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "still running"
        time.sleep(0.1)
