"""Real processes: a bot seat naming a bot that does not exist is refused, and a game whose
user bot's worker is gone says so in its summary and views."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e

LOWBALL = {"type": "bot", "bot": "lowball"}


@pytest.fixture(scope="module")
def quick_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A stack whose workers heartbeat every 0.2 s and count as gone after 1 s of silence."""
    quick = {"CARDROOM_BOT_HEARTBEAT_SECONDS": "0.2", "CARDROOM_BOT_LIVE_SECONDS": "1"}
    saved = {k: os.environ.get(k) for k in quick}
    os.environ.update(quick)
    try:
        running = Stack(Path(tmp_path_factory.mktemp("names")), bot_workers=1)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    yield running
    running.stop()


def _until(check: object, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.1)


def test_a_game_naming_a_bot_that_does_not_exist_is_refused(quick_stack: Stack) -> None:
    stack = quick_stack
    before = stack.http.get(f"{stack.base}/games").json()["games"]
    response = stack.http.post(
        f"{stack.base}/games",
        json={"game": "sixty_six", "seats": [{"type": "open"}, {"type": "bot", "bot": "heuristc"}]},
    )
    assert response.status_code == 422
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "unknown_bot"
    assert "heuristic" in response.json()["known"]
    assert stack.http.get(f"{stack.base}/games").json()["games"] == before


def test_a_user_bot_is_known_once_its_worker_runs_and_reported_once_it_is_gone(
    quick_stack: Stack,
) -> None:
    stack = quick_stack
    body = {"game": "shithead", "seats": [{"type": "open"}, LOWBALL, BOT], "seed": "names"}
    refused = stack.http.post(f"{stack.base}/games", json=body)
    assert refused.status_code == 422 and refused.json()["code"] == "unknown_bot"

    worker = stack.start_worker("--bot", "lowball", "--import", "workers.examples.lowball")
    _until(lambda: stack.http.post(f"{stack.base}/games", json=body).status_code == 201)
    game_id = stack.create("shithead", body["seats"], seed="names-2")["id"]
    assert stack.summary(game_id)["bots_missing"] == []

    worker.send_signal(signal.SIGKILL)
    worker.wait(10)
    _until(lambda: stack.summary(game_id)["bots_missing"] != [])
    missing = stack.summary(game_id)["bots_missing"]
    assert [(m["seat"], m["bot"]) for m in missing] == [(1, "lowball")]
    view = stack.http.get(f"{stack.base}/games/{game_id}/view").json()
    assert view["bots_missing"] == missing
