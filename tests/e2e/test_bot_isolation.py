"""Real processes (issue 28 §5): a hostile HTTP bot that answers at once and loops, in games
beside built-in bots, does not keep ten bots-only games of built-in bots from finishing."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import Stack
from tests.support.hostile import HEURISTIC, Hostile

pytestmark = pytest.mark.e2e


def test_bots_only_games_finish_beside_a_looping_http_bot(tmp_path: Path) -> None:
    stack = Stack(tmp_path, bot_workers=1, web_workers=1)
    stop = threading.Event()
    try:
        hostile = Hostile(stack.base, "loop", 12, stop, threads=3)
        time.sleep(3)  # its games are under way: their turns fill the worker's queues
        games = [stack.http.post(f"{stack.base}/games",
                                 json={"game": "sixty_six", "seats": [HEURISTIC] * 2}).json()["id"]
                 for _ in range(10)]  # fmt: skip
        deadline = time.monotonic() + 120
        live = set(games)
        while live and time.monotonic() < deadline:
            time.sleep(1)
            live = {g for g in live if _status(stack, g) != "over"}
        assert not live, f"{len(live)} of 10 bots-only games unfinished after 120 s"
        assert hostile.actions > 100  # it was really playing all along
    finally:
        stop.set()
        if "hostile" in locals():
            hostile.join()
        stack.stop()


def _status(stack: Stack, game_id: str) -> str:
    return str(stack.http.get(f"{stack.base}/games/{game_id}").json()["status"])
