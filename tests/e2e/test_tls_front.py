"""The front of docs/operations.md ("The front: nginx with TLS"), its nginx site run word for
word (names, ports and certificate replaced: a self-signed one made here with openssl) before
a running service (``CARDROOM_TRUSTED_PROXIES=1``): plain HTTP redirects to HTTPS, HTTP/2 is
offered, /metrics is not served outside, a game is played over HTTPS, a spectator's stream
delivers each event while its connection is still open, and the create limit counts each
client (its own loopback address) apart."""

from __future__ import annotations

import json
import random
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.e2e.conftest import BOT, Stack, free_port
from tests.support.nginx import Nginx, doc_block
from tests.support.processes import tool

pytestmark = pytest.mark.e2e

NAME = "cards.example.org"
CREATES = 3  # games a client may create a minute (the test's limit)


class FromAddress(requests.adapters.HTTPAdapter):
    """Connections from one loopback address (127.0.0.x): a client of its own to nginx."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


class Front:
    """The documented site before ``stack``: HTTPS on ``https``, plain HTTP on ``http``."""

    def __init__(self, stack: Stack, tmp: Path) -> None:
        self.cert, self.key = tmp / "cert.pem", tmp / "key.pem"
        openssl = tool("openssl", "openssl")
        subprocess.run(
            [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
             "-keyout", str(self.key), "-out", str(self.cert), "-subj", f"/CN={NAME}",
             "-addext", f"subjectAltName=DNS:{NAME},IP:127.0.0.1"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        self.http, self.https = free_port(), free_port()
        site = doc_block("nginx-site")
        for old, new in (
            ("    listen [::]:80;\n", ""),
            ("    listen [::]:443 ssl http2;\n", ""),
            ("listen 80;", f"listen 127.0.0.1:{self.http};"),
            ("listen 443 ssl http2;", f"listen 127.0.0.1:{self.https} ssl http2;"),
            ("server 127.0.0.1:8000;", f"server 127.0.0.1:{stack.port};"),
            (f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(self.cert)),
            (f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(self.key)),
        ):
            assert old in site, old
            site = site.replace(old, new)
        self.nginx = Nginx(site, tmp / "nginx")
        self.nginx.wait_listening(self.https)
        self.base = f"https://127.0.0.1:{self.https}"
        self.session = requests.Session()
        self.session.trust_env = False  # REQUESTS_CA_BUNDLE would replace the certificate
        self.session.verify = str(self.cert)


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    tmp_path = tmp_path_factory.mktemp("front")
    stack = Stack(tmp_path, bot_workers=1, web_workers=2, env={
        "CARDROOM_TRUSTED_PROXIES": "1", "CARDROOM_RATE_LIMITS": "1",
        "CARDROOM_LIMIT_CREATE": f"{CREATES} per minute",
        "CARDROOM_LIMIT_ACTIONS": "1000 per second",
    })  # fmt: skip
    try:
        running = Front(stack, tmp_path)
        try:
            yield running
        finally:
            running.nginx.stop()
    finally:
        stack.stop()


def test_plain_http_is_sent_to_https_and_http2_is_offered(front: Front) -> None:
    moved = requests.get(f"http://127.0.0.1:{front.http}/games", allow_redirects=False)
    assert moved.status_code == 301
    assert moved.headers["Location"] == "https://127.0.0.1/games"
    context = ssl.create_default_context(cafile=str(front.cert))
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", front.https)) as raw, \
            context.wrap_socket(raw, server_hostname=NAME) as tls:  # fmt: skip
        assert tls.selected_alpn_protocol() == "h2"
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
    assert "max-age" in front.session.get(f"{front.base}/healthz").headers[
        "Strict-Transport-Security"]
    assert front.session.get(f"{front.base}/metrics").status_code == 404  # not from outside


def test_a_game_is_played_over_https_while_a_stream_delivers_each_event_at_once(
    front: Front,
) -> None:
    http, base = front.session, front.base
    body = {"game": "sixty_six", "seats": [{"type": "open"}, BOT], "options": {"game_target": 1}}
    game = http.post(f"{base}/games", json=body).json()["id"]
    token = http.post(f"{base}/games/{game}/seats/0", json={"name": "ann"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    arrived: dict[int, float] = {}
    follower = threading.Thread(target=_follow, args=(front, game, arrived), daemon=True)
    follower.start()
    rng, sent = random.Random(7), {}
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        view = http.get(f"{base}/games/{game}/view", headers=auth).json()
        if view["view"]["outcome"] is not None:
            break
        if not view["view"]["legal_actions"]:
            time.sleep(0.02)
            continue
        body = {**rng.choice(view["view"]["legal_actions"]), "expected_version": view["version"]}
        answer = http.post(f"{base}/games/{game}/actions", json=body, headers={**auth,
                           "Idempotency-Key": f"ann-{view['version']}"})  # fmt: skip
        assert answer.status_code in (200, 409), answer.text
        if answer.status_code == 200:
            sent[answer.json()["version"]] = time.monotonic()
    follower.join(30)
    summary = http.get(f"{base}/games/{game}").json()
    assert summary["status"] == "over" and sent
    assert sorted(arrived) == list(range(min(arrived), summary["version"] + 1))
    late = [arrived[v] - at for v, at in sent.items() if v in arrived]
    assert max(late) < 5, "an event waited in a buffer"  # not the stream's 25-s lifetime
    verified = http.get(f"{base}/games/{game}/replay/verification").json()
    assert verified["ok"] is True


def _follow(front: Front, game: str, arrived: dict[int, float]) -> None:
    """The spectators' stream over HTTPS (one connection: it lives 25 s), noting when each
    event arrives, until ``over``."""
    url = f"{front.base}/games/{game}/stream"
    with front.session.get(url, stream=True, timeout=60) as response:
        for line in response.iter_lines(decode_unicode=True):
            if line.startswith("data: ") and "version" in line:
                version = json.loads(line[6:]).get("version")
                arrived.setdefault(int(version), time.monotonic())
            if line == "event: over":
                return


def test_the_create_limit_counts_each_client_behind_the_front(front: Front) -> None:
    def client(address: str) -> requests.Session:
        session = requests.Session()
        session.trust_env, session.verify = False, str(front.cert)
        session.mount("https://", FromAddress(address))
        return session

    body = {"game": "sixty_six", "seats": [{"type": "open"}, BOT]}
    first, second = client("127.0.0.2"), client("127.0.0.3")
    answers = [first.post(f"{front.base}/games", json=body).status_code
               for _ in range(CREATES + 1)]  # fmt: skip
    assert answers == [201] * CREATES + [429]  # the first client's own budget, used up
    assert second.post(f"{front.base}/games", json=body).status_code == 201  # not the first's
