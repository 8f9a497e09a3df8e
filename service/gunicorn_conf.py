"""gunicorn settings that ``cardroom serve`` adds (``--config python:service.gunicorn_conf``).

Metrics: the master sets up the host's metrics directory (``service.metrics_dir``) before it
forks a worker, so every worker writes there and /metrics reports them all, however gunicorn
was started (``cardroom serve``, the Procfile, systemd, by hand). prometheus-client's
multiprocess mode keeps one file per process: a dead worker's live gauges (open streams) must be
dropped, or /metrics would count its streams for ever.

gunicorn answers requests it cannot parse (an oversized header or request line, a malformed
header, a bad chunk) itself, before the app sees them, with an HTML page. Every worker class
(sync, gthread, gevent, ...) reports those through ``gunicorn.util.write_error``; the
``post_worker_init`` hook below replaces it in each worker with one that writes the same
status as ``application/problem+json``, like every other error of the API.
"""

from __future__ import annotations

import gc
import os
import socket
from typing import Any

from gunicorn import util

from service import metrics_dir

# gunicorn's status -> our problem code (service/api/problems.py)
GUNICORN_CODES = {
    400: "invalid_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    501: "not_implemented",
}


# Seconds a stopping worker may finish its requests. Event streams would hold it for their whole
# lifetime (25 s); their clients reconnect anyway, so a stop (or a restart by ``cardroom serve``)
# does not wait for them.
graceful_timeout = 5


def on_starting(server: Any) -> None:
    """In the master, before any worker is forked: the host's metrics directory."""
    metrics_dir.prepare()


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's ``write_error``, answering problem+json instead of HTML."""
    # imported here, in the worker: importing Flask in the master (before gevent patches the
    # workers' standard library) makes gevent warn that ssl was imported too early
    from service.api.problems import PROBLEM_TYPE, problem
    from service.api.security import HEADERS

    code = GUNICORN_CODES.get(status_int, "internal_error")
    detail = mesg or reason
    if code == "internal_error":
        detail = "an unexpected error occurred"
    body = problem(code, detail, status=status_int).get_data()  # the API's renderer's body
    secure = "".join(f"{name}: {value}\r\n" for name, value in HEADERS)
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n{secure}"
        f"Content-Type: {PROBLEM_TYPE}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


def post_worker_init(worker: Any) -> None:
    """gunicorn server hook: runs in each worker before it serves (the app loaded)."""
    util.write_error = write_problem
    # The app, its schemas and every module (some 75,000 objects) live as long as the worker:
    # out of the collector's generations, a full collection no longer walks them (it took
    # 40-100 ms each time, every request of the worker waiting; they set the p99).
    gc.freeze()
