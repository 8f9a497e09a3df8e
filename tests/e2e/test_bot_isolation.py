"""Real processes (issue 28 §5): a hostile HTTP bot that answers at once (looping, or taking its
games on) and never waits out a refusal, in games beside built-in bots, does not keep ten
bots-only games of built-in bots from finishing, and the service holds its requests to the
bot accounts' limit (``CARDROOM_LIMIT_BOT_REQUESTS``, its default)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from limits import parse

from service.config import DEFAULTS
from tests.e2e.conftest import Stack
from tests.support.hostile import HEURISTIC, Hostile

pytestmark = pytest.mark.e2e

# the service's own limits, but creations: the test and the hostile bot make many games
LIMITS = {"CARDROOM_RATE_LIMITS": "1", "CARDROOM_LIMIT_CREATE": "100000 per minute"}


@pytest.mark.parametrize("mode", ["loop", "instant"])
def test_bots_only_games_finish_beside_a_hostile_http_bot(tmp_path: Path, mode: str) -> None:
    stack = Stack(tmp_path, bot_workers=1, web_workers=1, env=LIMITS)
    stop = threading.Event()
    try:
        began = time.monotonic()
        hostile = Hostile(stack.base, mode, 12, stop, threads=3)
        # its games under way before the bots-only ones start (their turns fill the worker's
        # queues): on a quiet machine the ten games can finish within seconds of their creation,
        # before a bot at its request limit has played much
        playing = time.monotonic() + 60
        while hostile.actions <= 10 and time.monotonic() < playing:
            time.sleep(0.2)
        assert hostile.actions > 10, "the hostile bot never got going"  # it is really playing
        games = [stack.http.post(f"{stack.base}/games",
                                 json={"game": "sixty_six", "seats": [HEURISTIC] * 2}).json()["id"]
                 for _ in range(10)]  # fmt: skip
        deadline = time.monotonic() + 120
        live = set(games)
        while live and time.monotonic() < deadline:
            time.sleep(1)
            live = {g for g in live if _status(stack, g) != "over"}
        assert not live, f"{len(live)} of 10 bots-only games unfinished after 120 s"
    finally:
        stop.set()
        if "hostile" in locals():
            hostile.join()
        stack.stop()
    seconds = time.monotonic() - began
    limit = parse(str(DEFAULTS["CARDROOM_LIMIT_BOT_REQUESTS"]))
    windows = seconds / limit.get_expiry() + 1  # fixed windows, from its first request
    assert hostile.served <= limit.amount * windows, (hostile.served, seconds)
    assert hostile.refused > 0
    # each refusal held for the pause: its 3 players and its stream ask a few times a second
    pause = float(DEFAULTS["CARDROOM_BOT_REFUSAL_PAUSE"])
    assert hostile.refused <= 4 * seconds / pause * 1.2, (hostile.refused, seconds)
    assert all(1 <= int(wait) <= limit.get_expiry() for wait in hostile.retry_after)


def _status(stack: Stack, game_id: str) -> str:
    return str(stack.http.get(f"{stack.base}/games/{game_id}").json()["status"])
