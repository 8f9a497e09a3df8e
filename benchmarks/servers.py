"""Processes the HTTP benchmarks run: gunicorn with gevent workers, as ``cardroom serve``; or
(``routed``) single-worker gunicorns behind nginx hashing on the game id."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def gunicorn(
    app: str,
    workers: int,
    env: dict[str, str],
    keep_alive: int | None = None,
    checkout: str | None = None,
) -> Iterator[tuple[str, int]]:
    """Serve ``app`` like ``cardroom serve`` (gevent workers, the service's gunicorn config)
    without an access log; yield its base URL and the master's pid. ``keep_alive``: seconds an
    idle connection is kept (gunicorn's default: 2). ``checkout``: serve the code of that
    directory (another commit's checkout) instead of this one's."""
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "gevent",
        "--worker-connections", "1000", "--bind", f"127.0.0.1:{port}", "--backlog", "2048",
        "--log-level", "warning", "--config", "python:service.gunicorn_conf", app,
        *(["--keep-alive", str(keep_alive)] if keep_alive else []),
        *(["--chdir", checkout] if checkout else []),
    ]  # fmt: skip
    process = subprocess.Popen(command, env={**os.environ, **env}, cwd=checkout)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up("127.0.0.1", port)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=20)


def wait_until_up(host: str, port: int) -> None:
    if not answers(f"http://{host}:{port}/healthz"):
        raise RuntimeError(f"{host}:{port} did not start")


def answers(url: str, seconds: float = 30, alive: Callable[[], bool] = lambda: True) -> bool:
    """Whether ``url`` answers 200 within ``seconds``, asked every 0.1 s while ``alive()`` (the
    process that is to serve it still runs)."""
    parts = urlsplit(url)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and alive():
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
        try:
            connection.request("GET", parts.path or "/")
            if connection.getresponse().status == 200:
                return True
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.1)
    return False


UPSTREAM_KEEP_ALIVE = 75  # gunicorn's --keep-alive behind nginx: over its keepalive_timeout

NGINX_MAIN = """
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{http}
}}
"""


def nginx_conf(tmp: str | Path, http: str) -> str:
    """An nginx configuration of its own (run with ``-p tmp``: pid, logs and temp files in
    ``tmp``, in the foreground) whose ``http`` block holds ``http``."""
    return NGINX_MAIN.format(tmp=tmp, http=http)


ROUTED_HTTP = """
    map $uri $game {{ ~^/games/(?<id>[^/]+) $id; default $uri; }}
    upstream web {{
        hash $game consistent;
{servers}
        keepalive 256;
        keepalive_timeout 60s;
    }}
    server {{
        listen 127.0.0.1:{port} backlog=2048;
        location / {{
            proxy_pass http://web;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
            proxy_read_timeout 60s;
        }}
    }}
"""


@contextmanager
def routed(
    app: str, workers: int, env: dict[str, str], checkout: str | None = None
) -> Iterator[tuple[str, list[int]]]:
    """``workers`` single-worker gunicorns behind nginx (one worker process) hashing on the
    game id of ``/games/<id>/...``, so every request of a game reaches the same process; yield
    the base URL and the gunicorn masters' pids (``checkout``: as ``gunicorn``'s)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        sys.exit("--route-by-game needs nginx: apt-get install -y nginx")
    with ExitStack() as stack:
        # gunicorn keeps idle connections longer than nginx does (UPSTREAM_KEEP_ALIVE): else
        # nginx may reuse one gunicorn is closing, and answers that request 502
        started = [stack.enter_context(gunicorn(app, 1, env, UPSTREAM_KEEP_ALIVE, checkout))
                   for _ in range(workers)]  # fmt: skip
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        port = free_port()
        servers = "\n".join(f"        server {base.split('://')[1]};" for base, _ in started)
        conf = Path(tmp) / "nginx.conf"
        conf.write_text(nginx_conf(tmp, ROUTED_HTTP.format(servers=servers, port=port)))
        process = subprocess.Popen([nginx, "-c", str(conf), "-p", tmp])
        try:
            wait_until_up("127.0.0.1", port)
            yield f"http://127.0.0.1:{port}", [pid for _, pid in started]
        finally:
            process.terminate()
            process.wait(timeout=20)
