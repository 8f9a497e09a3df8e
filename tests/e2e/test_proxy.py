"""Real processes behind a real nginx, configured with the site docs/operations.md gives ("Behind
a reverse proxy"): with ``CARDROOM_TRUSTED_PROXIES=1`` the rate limits count each client, not the
proxy. 32 clients, each from its own loopback address (127.0.0.x), create games through nginx;
each has its own budget, and what a client writes into X-Forwarded-For itself is not believed."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest

from benchmarks.servers import nginx_conf
from tests.e2e.conftest import ROOT, Stack, free_port

pytestmark = pytest.mark.e2e

CLIENTS = 32
LIMIT = 2  # creates per client per minute
def documented_site() -> str:
    """The nginx block of docs/operations.md that sets up the trusted proxy."""
    text = (ROOT / "docs" / "operations.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    found = [b for b in blocks if "CARDROOM_TRUSTED_PROXIES=1" in b]
    assert len(found) == 1, "docs/operations.md gives one nginx site for a trusted proxy"
    return found[0]


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                      else None)  # fmt: skip
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is not installed (apt-get install -y nginx)")
        pytest.skip("nginx is not installed: this test runs the documented nginx site")
    return found


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """``cardroom serve`` (limits on, one trusted proxy) behind the documented nginx site."""
    binary = nginx_binary()
    tmp = tmp_path_factory.mktemp("proxy")
    stack = Stack(tmp, bot_workers=1, web_workers=2, env={
        "CARDROOM_TRUSTED_PROXIES": "1", "CARDROOM_RATE_LIMITS": "1",
        "CARDROOM_LIMIT_CREATE": f"{LIMIT} per minute"})  # fmt: skip
    port = free_port()
    site = documented_site().replace("listen 80;", f"listen 127.0.0.1:{port};")
    site = site.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{stack.port}")
    conf = tmp / "nginx.conf"
    conf.write_text(nginx_conf(tmp, site))
    nginx = subprocess.Popen([binary, "-c", str(conf), "-p", str(tmp)],
                             stderr=(tmp / "nginx.log").open("wb"))  # fmt: skip
    try:
        _wait_for(port, nginx)
        yield port
    finally:
        nginx.terminate()
        nginx.wait(10)
        stack.stop()


def _wait_for(port: int, nginx: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert nginx.poll() is None, "nginx did not start"
        try:
            status, _ = request(port, "127.0.0.1", "GET", "/games")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("nginx did not come up")


def request(port: int, source: str, method: str, path: str, body: object = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:  # fmt: skip
    """One request to nginx from the loopback address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                            source_address=(source, 0))  # fmt: skip
    try:
        sent = {"Content-Type": "application/json", **(headers or {})}
        connection.request(method, path, None if body is None else json.dumps(body), sent)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


GAME = {"game": "sixty_six", "seats": [{"type": "open"}, {"type": "open"}]}


def test_each_client_behind_the_proxy_has_its_own_create_budget(front: int) -> None:
    statuses = {
        f"127.0.0.{10 + i}": [request(front, f"127.0.0.{10 + i}", "POST", "/games", GAME)[0]
                              for _ in range(LIMIT + 1)]
        for i in range(CLIENTS)
    }  # fmt: skip
    wrong = {client: s for client, s in statuses.items() if s != [201] * LIMIT + [429]}
    assert not wrong, f"{len(wrong)} of {CLIENTS} clients: {list(wrong.items())[:3]}"


def test_a_forwarded_address_a_client_writes_itself_is_not_believed(front: int) -> None:
    source = "127.0.0.250"
    for _ in range(LIMIT):
        assert request(front, source, "POST", "/games", GAME)[0] == 201
    spoofed = request(front, source, "POST", "/games", GAME, {"X-Forwarded-For": "10.1.2.3"})
    assert spoofed[0] == 429


def test_an_event_stream_passes_through_the_proxy(front: int) -> None:
    status, body = request(front, "127.0.0.251", "POST", "/games", GAME)
    assert status == 201
    game_id = json.loads(body)["id"]
    connection = http.client.HTTPConnection("127.0.0.1", front, timeout=10)
    try:
        connection.request("GET", f"/games/{game_id}/stream")
        response = connection.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        assert response.read1(64).startswith(b"retry:")  # at once, not buffered
    finally:
        connection.close()
