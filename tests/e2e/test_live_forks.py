"""A seat forks its game still being played, through the whole stack (web, workers, Redis):
the fork is sealed to anyone else, the seat plays it to its end against the workers' bots,
the source ends, and the fork's published replay verifies against the source's
(docs/analysis.md, "Games still being played: sealed forks")."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from replays.format import loads
from replays.verify import verify
from service.cli import main
from service.store.redis import RedisEventStore
from tests.e2e.conftest import BOT, Stack
from tests.support.redis_server import redis_url

pytestmark = pytest.mark.e2e
OPEN = {"type": "open"}
PLAYERS = {"sixty_six": 2, "sheepshead": 3, "shithead": 3}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def move(stack: Stack, game_id: str, token: str, rnd: random.Random) -> dict[str, Any] | None:
    """One random legal move of the token's seat when it has one (its view after it), else
    the view as it is."""
    view = stack.http.get(f"{stack.base}/games/{game_id}/view", headers=bearer(token)).json()
    legal = view["view"]["legal_actions"]
    if view["view"]["outcome"] is not None or not legal:
        return view
    body = {**rnd.choice(legal), "expected_version": view["version"]}
    response = stack.http.post(f"{stack.base}/games/{game_id}/actions", json=body,
                               headers=bearer(token))  # fmt: skip
    assert response.status_code in (200, 409), response.text
    return None


def sealed(response: Any) -> bool:
    return response.status_code == 403 and response.json()["code"] == "fork_sealed"


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_fork_of_a_game_still_played_is_played_out_sealed_and_verified_once_it_ends(
    stack: Stack, name: str, tmp_path: Path
) -> None:
    http, base = stack.http, stack.base
    bots = [BOT] * (PLAYERS[name] - 1)
    source = stack.create(name, [OPEN, *bots], seed=f"e2e-live-fork-{name}")["id"]
    token = http.post(f"{base}/games/{source}/seats/0", json={"name": "alice"}).json()["token"]
    rnd, made, deadline = random.Random(name), 0, time.monotonic() + 60
    while True:  # play until seat 0 is to move in the play, after two of its own moves there
        assert time.monotonic() < deadline, "seat 0 was never to move in the play"
        view = http.get(f"{base}/games/{source}/view", headers=bearer(token)).json()
        assert view["view"]["outcome"] is None
        if 0 not in view["view"]["to_act"]:  # (a seat may declare out before its turn)
            time.sleep(0.05)
            continue
        playing = view["view"].get("phase", "play") not in ("preplay", "new")
        if playing and made >= 2:
            break
        made += move(stack, source, token, rnd) is None and playing
    at = view["version"]
    body = {"at": at, "as": 0, "seats": [OPEN, *bots]}
    fork = http.post(f"{base}/games/{source}/forks", json=body, headers=bearer(token))
    assert fork.status_code == 201, fork.text
    fork_id = fork.json()["id"]
    assert fork.json()["forked"] == {"source": source, "version": at, "as": 0, "sealed": True}
    assert sealed(http.get(f"{base}/games/{fork_id}"))
    assert sealed(http.get(f"{base}/games/{fork_id}/events"))
    joined = http.post(f"{base}/games/{fork_id}/seats/0", json={"name": "alice"},
                       headers=bearer(token))  # fmt: skip
    assert joined.status_code == 201, joined.text
    mine = joined.json()["token"]
    deadline = time.monotonic() + 90
    while True:  # the fork played out: seat 0 by random moves, the others by the workers' bots
        assert time.monotonic() < deadline, "the fork did not end"
        view = move(stack, fork_id, mine, rnd)
        if view is not None and view["view"]["outcome"] is not None:
            break
        if view is not None:
            time.sleep(0.05)
    assert http.get(f"{base}/games/{fork_id}", headers=bearer(mine)).json()["status"] == "over"
    assert sealed(http.get(f"{base}/games/{fork_id}/replay"))
    store = RedisEventStore.from_url(redis_url(), namespace=stack.namespace)
    deadline = time.monotonic() + 20
    while not store.replay(fork_id):  # the workers export the fork while it is sealed
        assert time.monotonic() < deadline, "the fork's replay was not exported"
        time.sleep(0.05)
    # into Redis (served once the source ends), not the replay directory
    assert not (stack.logs / "replays" / f"{fork_id}.replay.json").exists()
    # the source ends (its seat resigns): the fork is published
    version = http.get(f"{base}/games/{source}/view", headers=bearer(token)).json()["version"]
    resigned = http.post(f"{base}/games/{source}/actions", headers=bearer(token),
                         json={"type": "resign", "expected_version": version})  # fmt: skip
    assert resigned.status_code == 200, resigned.text
    stack.wait_replay(source)
    files = {}
    for label, game_id in (("fork", fork_id), ("source", source)):
        response = http.get(f"{base}/games/{game_id}/replay")
        assert response.status_code == 200, response.text
        files[label] = tmp_path / f"{label}.replay.json"
        files[label].write_bytes(response.content)
    replay = loads(files["fork"].read_text())
    assert replay.header.forked == fork.json()["forked"]
    report = verify(replay, source=loads(files["source"].read_text()))
    assert report.ok, report.summary()
    assert main(["replay", "verify", str(files["fork"]), "--source", str(files["source"])]) == 0
