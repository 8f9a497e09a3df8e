"""Whole games with the store on a Redis Cluster and RQ on a plain Redis (``RQ_REDIS_URL``).

Real processes: ``cardroom serve`` (gunicorn with gevent workers) and ``cardroom worker``,
``REDIS_URL=redis+cluster://...`` (three masters of the tests' own) and ``RQ_REDIS_URL`` the
shared plain test Redis. Bots finish a game by themselves, a person plays a bot to the end
while a spectator's stream follows every event, each replay verifies; a bot turn whose job
was lost is played after the sweeper queues it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from replays.format import loads, read
from replays.verify import verify
from service.store.connect import client_from_url
from tests.e2e.conftest import BOT, SHORT, Stack, play_person
from tests.support.redis_cluster import OwnCluster
from tests.support.redis_server import delete_namespace, redis_url
from workers import config as worker_config

pytestmark = [pytest.mark.integration, pytest.mark.e2e]


class ClusterStack(Stack):
    """A Stack whose store is the cluster; RQ (queues, heartbeats) on the plain test Redis."""

    def __init__(self, tmp: Path, cluster: OwnCluster) -> None:
        self.cluster = cluster
        env = {
            "REDIS_URL": cluster.url,
            "RQ_REDIS_URL": redis_url(),
            "CARDROOM_STALL_SECONDS": "1",
        }
        super().__init__(tmp, bot_workers=0, web_workers=2, env=env)

    def ensure_worker(self) -> None:
        if not any(w.poll() is None for w in self.workers):
            self.start_worker()

    def stop(self) -> None:
        super().stop()  # deletes the namespace on RQ's Redis
        store = client_from_url(self.cluster.url)
        delete_namespace(store, self.namespace)  # type: ignore[arg-type]
        store.close()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, cluster: OwnCluster) -> Iterator[ClusterStack]:
    running = ClusterStack(tmp_path_factory.mktemp("cluster-stack"), cluster)
    yield running
    running.stop()


def test_a_lost_bot_turn_is_queued_again_by_the_sweeper_on_the_cluster(
    stack: ClusterStack,
) -> None:
    rq = redis.Redis.from_url(redis_url())
    queue = f"rq:queue:{worker_config.bot_queue('heuristic', stack.namespace)}"
    created = stack.create("sixty_six", [BOT, BOT], seed="cluster-lost")
    deadline = time.monotonic() + 10
    while not rq.llen(queue) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert rq.llen(queue) == 1, "the first bot turn was not queued on RQ's Redis"
    rq.delete(queue)  # the job is lost (as if popped by a worker killed before it started)
    stack.ensure_worker()  # its sweeper finds the game stalled and queues the turn again
    summary = stack.wait_over(created["id"])
    assert summary["outcome"] is not None
    assert verify(read(stack.wait_replay(created["id"]))).ok
    worker_log = "".join(p.read_text() for p in stack.logs.glob("worker-*.log"))
    assert "re-queued heuristic's turn" in worker_log


def test_a_bots_only_game_finishes_is_listed_and_its_replay_verifies(stack: ClusterStack) -> None:
    stack.ensure_worker()
    created = stack.create("shithead", [BOT] * 3, seed="cluster-bots", options=SHORT)
    summary = stack.wait_over(created["id"])
    report = verify(read(stack.wait_replay(created["id"])))
    assert report.ok and report.events == summary["version"]
    assert report.head_hash == summary["head_hash"]
    listed = stack.http.get(f"{stack.base}/games", params={"status": "over"}).json()
    assert created["id"] in [g["id"] for g in _items(listed)]


def test_a_person_plays_a_bot_to_the_end_while_a_spectator_stream_follows(
    stack: ClusterStack,
) -> None:
    stack.ensure_worker()
    created = stack.create("sixty_six", [{"type": "open"}, BOT], seed="cluster-person")
    seen: list[str] = []
    follower = threading.Thread(target=_follow, args=(stack, created["id"], seen), daemon=True)
    follower.start()
    moves = play_person(stack, created["id"], 0, "alice")
    summary = stack.wait_over(created["id"])
    follower.join(30)
    assert moves > 0 and summary["outcome"] is not None
    ids = [int(line[4:]) for line in seen if line.startswith("id: ")]
    assert "event: over" in seen, seen[-5:]
    events = sorted(set(ids))
    assert events == list(range(events[0], summary["version"] + 1))  # no version missed
    replay = stack.http.get(f"{stack.base}/games/{created['id']}/replay")
    assert replay.status_code == 200
    assert verify(loads(replay.content)).ok


def test_ready_with_the_worker_heartbeat_on_rqs_redis_and_no_rq_key_on_the_cluster(
    stack: ClusterStack, cluster: OwnCluster
) -> None:
    stack.ensure_worker()
    deadline = time.monotonic() + 15
    while True:
        ready = stack.http.get(f"{stack.base}/readyz")
        if ready.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert ready.json() == {"ready": True, "checks": {"store": "ok", "workers": "ok"}}
    store = client_from_url(cluster.url, decode_responses=True)
    on_cluster = list(store.scan_iter(match="rq:*", count=1000))  # type: ignore[union-attr]
    assert on_cluster == []
    assert any(store.scan_iter(match=f"{stack.namespace}:game:*", count=1000))  # type: ignore[union-attr]
    store.close()


def _items(listed: Any) -> list[dict[str, Any]]:
    return list(listed["games"])


def _follow(stack: ClusterStack, game_id: str, seen: list[str]) -> None:
    """A spectator's stream, read until the game's ``over`` event (reconnecting as told)."""
    last = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        headers = {"Last-Event-ID": str(last)} if last else {}
        with requests.get(
            f"{stack.base}/games/{game_id}/stream", headers=headers, stream=True, timeout=30
        ) as response:
            for line in response.iter_lines(decode_unicode=True):
                seen.append(line)
                if line.startswith("id: "):
                    last = int(line[4:])
                if line == "event: over":
                    return
