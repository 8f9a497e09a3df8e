"""What gunicorn refuses before the app sees it (an oversized header or request line, a
malformed header) is answered as problem+json, not gunicorn's HTML page, with every worker
class we run: sync, gthread and the class ``cardroom serve`` uses."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.servers import answers
from service.processes import web_command
from tests.e2e.conftest import free_port
from tests.support.redis_server import redis_url, unique_namespace

ROOT = Path(__file__).resolve().parents[2]


def served_worker_class() -> str:
    """The worker class of ``cardroom serve``'s web command (gunicorn's default: sync)."""
    command = web_command("127.0.0.1", 0, 1)
    for flag in ("--worker-class", "-k"):
        if flag in command:
            return command[command.index(flag) + 1]
    return "sync"


WORKER_CLASSES = sorted({"sync", "gthread", served_worker_class()})


@pytest.fixture(scope="module", params=WORKER_CLASSES)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[int]:  # fmt: skip
    """One server of each worker class for every request below (each on its own connection)."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    port = free_port()
    command = web_command("127.0.0.1", port, 1)
    for flag in ("--worker-class", "-k"):
        if flag in command:  # drop the served class: this run sets its own
            at = command.index(flag)
            del command[at : at + 2]
    command[3:3] = ["--worker-class", request.param]
    env = {**os.environ, "REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": unique_namespace("gu")}
    log = (tmp_path / "gunicorn.log").open("wb")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        # served, not only listening: the master accepts connections at once, while its worker
        # still loads the app (2-5 s idle, over 10 s at load 8 on 2 cores), and a request sent
        # meanwhile waits all that time for its answer
        up = answers(f"http://127.0.0.1:{port}/catalogue", 60, alive=lambda: process.poll() is None)
        assert up, f"gunicorn served nothing in 60 s: {(tmp_path / 'gunicorn.log').read_text()}"
        yield port
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def raw_request(port: int, head: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        if head.endswith(CUT_SHORT):
            sock.shutdown(socket.SHUT_WR)  # the body ends here
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    raw = b"".join(chunks)
    header_text, _, body = raw.partition(b"\r\n\r\n")
    status_line, *lines = header_text.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines)}
    return int(status_line.split()[1]), headers, body


CUT_SHORT = b'{"type"'  # a chunk's first bytes, then the client closes its side
BAD_REQUESTS = {
    "header too large": (
        b"GET /catalogue HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n",
        (400, 431),
    ),
    "too many headers": (
        b"GET /catalogue HTTP/1.1\r\nHost: x\r\n"
        + b"".join(b"X-%d: 1\r\n" % i for i in range(200))
        + b"\r\n",
        (431,),
    ),
    "request line too long": (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", (414,)),
    "malformed header": (b"GET /catalogue HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", (400,)),
    "malformed chunked body": (
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        (400,),
    ),
    "chunked body cut short": (
        b"POST /games/g/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n10\r\n" + CUT_SHORT,
        (400,),
    ),
    "chunked body with a bad terminator": (
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n",
        (400,),
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_REQUESTS))
def test_a_request_gunicorn_refuses_is_problem_json(server: int, name: str) -> None:
    head, statuses = BAD_REQUESTS[name]
    status, headers, body = raw_request(server, head)
    assert status in statuses
    assert headers["content-type"] == "application/problem+json"
    assert headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] and problem["detail"]
    assert problem["type"] == f"/problems/{problem['code']}"
