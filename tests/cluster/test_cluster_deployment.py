"""The deployment docs/operations.md describes past one machine, run whole: the store on a
3-master Redis Cluster (RQ on a plain Redis), two web roles (``cardroom serve --only web``)
behind the nginx block of "Route each game's requests" word for word, two worker roles
(``cardroom serve --only workers``). People and bots play all three games (one with a clock
that runs out, one followed by a spectator's stream) while one worker role and one web role
are SIGKILLed with everything they started, as a machine lost; every game finishes, verifies,
and the stream saw every version."""

from __future__ import annotations

import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from replays.format import loads
from replays.verify import verify
from service.store.connect import client_from_url
from tests.e2e.conftest import BOT, ROOT, SHORT, free_port
from tests.support.nginx import Nginx, doc_block
from tests.support.processes import kill_tree, until
from tests.support.redis_cluster import OwnCluster
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace

pytestmark = [pytest.mark.integration, pytest.mark.e2e]

OPEN = {"type": "open"}
RETRIED = (502, 503, 504)


def role(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", *args], cwd=ROOT, env=env,
            stdout=out, stderr=out, start_new_session=True,
        )  # fmt: skip


class Deployment:
    """Two web roles behind nginx, two worker roles, the store on ``cluster``."""

    def __init__(self, tmp: Path, cluster: OwnCluster) -> None:
        self.namespace, self.cluster = unique_namespace("deploy"), cluster
        self.env = {
            **os.environ, "REDIS_URL": cluster.url, "RQ_REDIS_URL": redis_url(),
            "CARDROOM_NAMESPACE": self.namespace, "CARDROOM_RATE_LIMITS": "0",
            "CARDROOM_STALL_SECONDS": "1", "CARDROOM_SWEEP_INTERVAL": "0.5",
            "CARDROOM_ARCHIVE_DIR": str(tmp / "archive"), "PYTHONUNBUFFERED": "1",
        }  # fmt: skip
        ports = [free_port(), free_port()]
        web = ["--only", "web", "--web-workers", "1", "--keep-alive", "75", "--port"]
        self.webs = [role([*web, str(p)], self.env, tmp / f"web-{p}.log") for p in ports]
        self.workers = [role(["--only", "workers"], self.env, tmp / f"worker-{i}.log")
                        for i in range(2)]  # fmt: skip
        self.port = free_port()
        block = doc_block("nginx-routing")
        block = block.replace("    server 127.0.0.1:8001;", f"    server 127.0.0.1:{ports[0]};")
        block = block.replace("    server 127.0.0.1:8002;", f"    server 127.0.0.1:{ports[1]};")
        block = block.replace("listen 8000;", f"listen 127.0.0.1:{self.port};")
        self.nginx = Nginx(block, tmp / "nginx")
        self.base = f"http://127.0.0.1:{self.port}"

    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
        body = {"game": game, "seats": seats, **extra}
        created = call("post", f"{self.base}/games", json=body)
        assert created.status_code == 201, created.text
        return str(created.json()["id"])

    def stop(self) -> None:
        self.nginx.stop()
        for process in [*self.webs, *self.workers]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in [*self.webs, *self.workers]:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                kill_tree(process.pid)
        delete_namespace(redis.Redis.from_url(redis_url()), self.namespace)
        store = client_from_url(self.cluster.url)
        delete_namespace(store, self.namespace)  # type: ignore[arg-type]
        store.close()


def call(method: str, url: str, **kwargs: Any) -> requests.Response:
    """One request through nginx, again while the answer is a lost upstream's (502-504) or
    the connection fails (the same Idempotency-Key keeps a retried write single)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            response = requests.request(method, url, timeout=15, **kwargs)
            if response.status_code not in RETRIED or time.monotonic() > deadline:
                return response
        except requests.ConnectionError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.1)


def play(base: str, game_id: str, seat: int, name: str, moves: list[int]) -> None:
    """A person: join, then random legal actions until the game is over (or never act)."""
    # a keyed join (retried safely through a lost web process) sends its own entropy
    body = {"name": name, "entropy": secrets.token_hex(32)}
    key = {"Idempotency-Key": f"join-{name}-{secrets.token_hex(12)}"}
    joined = call("post", f"{base}/games/{game_id}/seats/{seat}", json=body, headers=key)
    assert joined.status_code in (200, 201), joined.text
    auth = {"Authorization": f"Bearer {joined.json()['token']}"}
    rng, deadline = random.Random(name), time.monotonic() + 120
    while time.monotonic() < deadline:
        view = call("get", f"{base}/games/{game_id}/view", headers=auth).json()
        legal = view["view"]["legal_actions"]
        if view["view"]["outcome"] is not None:
            return
        if not legal or name.startswith("idle"):
            time.sleep(0.05)
            continue
        body = {**rng.choice(legal), "expected_version": view["version"]}
        headers = {**auth, "Idempotency-Key": f"{name}-{view['version']}"}
        sent = call("post", f"{base}/games/{game_id}/actions", json=body, headers=headers)
        assert sent.status_code in (200, 409), sent.text
        moves.append(1)
    raise AssertionError(f"{name}'s game did not end")


def follow(base: str, game_id: str, seen: list[int], ended: list[bool]) -> None:
    """A spectator's stream through nginx, reconnecting with Last-Event-ID until ``over``."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not ended:
        headers = {"Last-Event-ID": str(seen[-1])} if seen else {}
        try:
            with requests.get(f"{base}/games/{game_id}/stream", headers=headers, stream=True,
                              timeout=30) as response:  # fmt: skip
                for line in response.iter_lines(decode_unicode=True):
                    if line.startswith("id: ") and (not seen or int(line[4:]) > seen[-1]):
                        seen.append(int(line[4:]))
                    if line == "event: over":
                        ended.append(True)
                        return
        except requests.RequestException:
            time.sleep(0.1)


@pytest.fixture
def deployment(tmp_path: Path, cluster: OwnCluster) -> Iterator[Deployment]:
    running = Deployment(tmp_path, cluster)
    try:
        running.nginx.wait_listening(running.port)
        ready = f"{running.base}/readyz"
        until(lambda: requests.get(ready, timeout=5).status_code == 200, "ready", 60)
        yield running
    finally:
        running.stop()


def test_games_of_people_and_bots_finish_on_a_cluster_while_a_worker_and_a_web_die(
    deployment: Deployment,
) -> None:
    base = deployment.base
    clock = {"game_target": 1, "turn_seconds": 1, "on_timeout": "forfeit"}
    people = {
        deployment.create("shithead", [OPEN, BOT, BOT], options=SHORT): "ann",
        deployment.create("sixty_six", [OPEN, BOT], options={"game_target": 1}): "bob",
        deployment.create("sheepshead", [OPEN, BOT, BOT]): "cid",
        deployment.create("sixty_six", [BOT, OPEN], options=clock): "idle-dee",  # never acts
    }
    bots = [deployment.create(g, [BOT] * n) for g, n in
            (("shithead", 3), ("sixty_six", 2), ("sheepshead", 3))]  # fmt: skip
    moves: list[int] = []
    seen: list[int] = []
    ended: list[bool] = []
    streamed = next(g for g, name in people.items() if name == "cid")
    threads = [threading.Thread(target=play, args=(base, g, 0 if n != "idle-dee" else 1, n,
                                                   moves), daemon=True)
               for g, n in people.items()]  # fmt: skip
    threads.append(threading.Thread(target=follow, args=(base, streamed, seen, ended),
                                    daemon=True))  # fmt: skip
    for thread in threads:
        thread.start()
    until(lambda: len(moves) >= 6, "the people are playing", 60)
    kill_tree(deployment.workers[0].pid)  # a worker machine lost, mid-game
    kill_tree(deployment.webs[1].pid)  # a web machine lost
    for game_id in [*people, *bots]:
        url = f"{base}/games/{game_id}"
        until(lambda u=url: call("get", u).json()["status"] == "over",
                         f"game {game_id} is over", 120)  # fmt: skip
    for thread in threads:
        thread.join(30)
    for game_id in [*people, *bots]:
        checked = call("get", f"{base}/games/{game_id}/replay/verification").json()
        assert checked["ok"] is True, checked
        assert verify(loads(call("get", f"{base}/games/{game_id}/replay").content)).ok
    clocked = next(g for g, name in people.items() if name == "idle-dee")
    assert call("get", f"{base}/games/{clocked}").json()["outcome"]["reason"] == "timed_out"
    version = call("get", f"{base}/games/{streamed}").json()["version"]
    assert ended and seen == list(range(seen[0], version + 1)) and seen[0] <= 2
    refused = (deployment.nginx.tmp / "error.log").read_text()
    assert "Connection refused" in refused  # games of the lost web process went to the other
