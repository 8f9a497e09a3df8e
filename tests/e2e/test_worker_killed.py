"""A worker SIGKILLed in the middle of a bots-only game loses nothing: another worker picks the
game up (the sweeper re-enqueues the lost turn) and its history has no gap and no duplicate."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import pytest

from replays.format import read
from replays.verify import verify
from tests.e2e.conftest import BOT, SHORT, Stack

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = Stack(tmp_path_factory.mktemp("bare"), bot_workers=0)
    yield running
    running.stop()


def _wait_version(stack: Stack, game_id: str, at_least: int, timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version = int(stack.summary(game_id)["version"])
        if version >= at_least:
            return version
        time.sleep(0.02)
    raise AssertionError(f"game {game_id} did not reach version {at_least}")


def test_a_killed_worker_loses_nothing(bare: Stack) -> None:
    first = bare.start_worker()
    created = bare.create("shithead", [BOT] * 4, seed="e2e-kill", options=SHORT)
    game_id = created["id"]
    _wait_version(bare, game_id, 40)
    first.send_signal(signal.SIGKILL)
    first.wait(5)
    stalled = bare.summary(game_id)
    time.sleep(0.5)
    assert bare.summary(game_id)["version"] == stalled["version"], "nobody plays: it stalled"
    assert stalled["status"] == "playing"

    bare.start_worker()
    summary = bare.wait_over(game_id)

    versions: list[int] = []
    cursor: int | None = 0
    while cursor is not None:  # the log comes in pages
        page = bare.http.get(f"{bare.base}/games/{game_id}/events", params={"after": cursor})
        versions += [item["version"] for item in page.json()["events"]]
        cursor = page.json()["next_after"]
    assert versions == list(range(1, summary["version"] + 1))
    report = verify(read(bare.wait_replay(game_id)))
    assert report.head_hash == summary["head_hash"]


def test_the_worker_stops_cleanly_on_sigterm(bare: Stack) -> None:
    worker = bare.start_worker()
    bare.wait_log(worker, "serving")
    time.sleep(0.5)  # RQ installs its signal handlers as it starts working
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(10) == 0
