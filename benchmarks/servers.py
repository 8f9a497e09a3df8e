"""Processes the HTTP benchmarks run: gunicorn with gevent workers, as ``cardroom serve``."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def gunicorn(app: str, workers: int, env: dict[str, str]) -> Iterator[tuple[str, int]]:
    """Serve ``app`` like ``cardroom serve`` (gevent workers, the service's gunicorn config)
    without an access log; yield its base URL and the master's pid."""
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "gevent",
        "--worker-connections", "1000", "--bind", f"127.0.0.1:{port}", "--backlog", "2048",
        "--log-level", "warning", "--config", "python:service.gunicorn_conf", app,
    ]  # fmt: skip
    process = subprocess.Popen(command, env={**os.environ, **env})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up("127.0.0.1", port)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=20)


def wait_until_up(host: str, port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection(host, port, timeout=5)
        try:
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
        finally:
            connection.close()
    raise RuntimeError(f"{host}:{port} did not start")
