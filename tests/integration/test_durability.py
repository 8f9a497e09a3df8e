"""Durability: the embedded Redis as `cardroom serve` runs it (AOF, appendfsync always) is
SIGKILLed during play; every action the API acknowledged is in the stream after the restart."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import redis

from service.app import create_app
from service.processes import launch_embedded_redis
from service.store.redis import RedisEventStore
from tests.support.redis_server import unique_namespace

pytestmark = pytest.mark.integration


def _wait_up(url: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            redis.Redis.from_url(url).ping()
            return
        except redis.RedisError:
            time.sleep(0.02)
    raise AssertionError("the embedded Redis did not start")


def test_no_acknowledged_action_is_lost_when_redis_is_sigkilled(tmp_path: Path) -> None:
    data = tmp_path / "var"
    server = launch_embedded_redis(data, "always")
    url = f"unix://{data.resolve() / 'redis.sock'}?db=0"
    try:
        _wait_up(url)
        namespace = unique_namespace()
        client = create_app(
            # no rate limits: this measures what Redis keeps, not what the API lets through
            {"REDIS_URL": url, "CARDROOM_NAMESPACE": namespace, "TESTING": True,
             "CARDROOM_RATE_LIMITS": 0}
        ).test_client()
        tables = []
        for _ in range(3):
            body = {
                "game": "shithead",
                "seats": [{"type": "open"}] * 2,
                "options": {"action_limit": 400},
            }
            game_id = client.post("/games", json=body).get_json()["id"]
            tokens = [
                client.post(f"/games/{game_id}/seats/{s}", json={"name": f"p{s}"}).get_json()[
                    "token"
                ]
                for s in (0, 1)
            ]
            tables.append((game_id, tokens))
        acknowledged: dict[str, list[int]] = {g: [] for g, _ in tables}
        stop = threading.Event()

        def play(game_id: str, tokens: list[str]) -> None:
            deadline = time.monotonic() + 20
            while not stop.is_set() and time.monotonic() < deadline:
                summary = client.get(f"/games/{game_id}")
                if summary.status_code != 200 or not summary.get_json()["to_act"]:
                    time.sleep(0.01)
                    continue
                seat = summary.get_json()["to_act"][0]
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                view = client.get(f"/games/{game_id}/view", headers=auth).get_json()
                if "view" not in view:
                    continue
                body = {**view["view"]["legal_actions"][0], "expected_version": view["version"]}
                done = client.post(f"/games/{game_id}/actions", json=body, headers=auth)
                if done.status_code == 200:
                    acknowledged[game_id].append(done.get_json()["version"])

        players = [threading.Thread(target=play, args=t) for t in tables]
        for player in players:
            player.start()
        time.sleep(1.5)
        server.kill()  # SIGKILL mid-play
        server.wait()
        stop.set()
        for player in players:
            player.join(30)
        assert all(acknowledged.values()), "no action was acknowledged before the kill"
        server = launch_embedded_redis(data, "always")
        _wait_up(url)
        store = redis.Redis.from_url(url, decode_responses=True)
        for game_id, versions in acknowledged.items():
            stream = f"{namespace}:game:{{{game_id}}}:events"
            last = store.xrevrange(stream, count=1)
            head = int(last[0][0].split("-")[0]) if last else 0
            assert head >= max(versions), f"{game_id}: acknowledged {max(versions)}, kept {head}"
            assert RedisEventStore(store, namespace).verify_chain(game_id).ok
    finally:
        server.kill()
        server.wait()
