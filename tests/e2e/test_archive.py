"""Retention with real processes: the workers move a finished game out of Redis into the
archive on their own, `cardroom archive` does it by hand, and the API serves both as before
(summary, replay, verification, listing by status)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.e2e.conftest import BOT, ROOT, Stack
from tests.support.redis_server import redis_url

pytestmark = pytest.mark.e2e


def stored_keys(stack: Stack, game_id: str) -> list[bytes]:
    """Every key of the game in Redis (its own keys share the hash tag {<id>})."""
    client = redis.Redis.from_url(redis_url())
    return list(client.scan_iter(match=f"{stack.namespace}:game:{{{game_id}}}:*", count=1000))


def indexed(stack: Stack, game_id: str) -> list[bytes]:
    """The index sets of the namespace that name the game."""
    client = redis.Redis.from_url(redis_url())
    found = client.scan_iter(match=f"{stack.namespace}:index:*", count=1000)
    return [key for key in found
            if client.type(key) == b"zset" and client.zscore(key, game_id) is not None]  # fmt: skip


def reads(stack: Stack, game_id: str) -> dict[str, Any]:
    get = stack.http.get
    return {
        "summary": get(f"{stack.base}/games/{game_id}").json(),
        "replay": get(f"{stack.base}/games/{game_id}/replay").text,
        "verification": get(f"{stack.base}/games/{game_id}/replay/verification").json(),
        "events": get(f"{stack.base}/games/{game_id}/events").json(),
        "listed": game_id in [g["id"] for g in get(f"{stack.base}/games?status=over").json()[
            "games"]],
    }


def finished_bots_game(stack: Stack, game: str, players: int) -> dict[str, Any]:
    created = stack.create(game, [BOT] * players)
    stack.wait_over(created["id"])
    stack.wait_replay(created["id"])
    return reads(stack, created["id"])


def test_workers_and_the_command_move_finished_games_to_the_archive(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    env = {"CARDROOM_ARCHIVE_DIR": str(archive), "CARDROOM_ARCHIVE_AFTER": "1",
           "CARDROOM_ARCHIVE_INTERVAL": "0.5"}  # fmt: skip
    stack = Stack(tmp_path, bot_workers=1, env=env)
    try:
        before = finished_bots_game(stack, "sheepshead", 3)
        game_id = before["summary"]["id"]
        assert before["verification"]["ok"] is True and before["listed"]
        deadline = time.monotonic() + 30
        while stored_keys(stack, game_id) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert stored_keys(stack, game_id) == [] and indexed(stack, game_id) == []
        assert (archive / "games" / game_id[:2] / f"{game_id}.replay.json").exists()
        assert reads(stack, game_id) == before
    finally:
        stack.stop()


def test_cardroom_archive_moves_finished_games_by_hand(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    env = {"CARDROOM_ARCHIVE_DIR": str(archive)}  # the workers' default: an hour after the end
    stack = Stack(tmp_path, bot_workers=1, env=env)
    try:
        before = finished_bots_game(stack, "sixty_six", 2)
        game_id = before["summary"]["id"]
        ran = subprocess.run(
            [sys.executable, "-m", "service.cli", "archive", "--after", "0"],
            cwd=ROOT, env=stack.env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert ran.returncode == 0, ran.stderr
        assert "archived 1 finished games" in ran.stdout
        assert stored_keys(stack, game_id) == [] and reads(stack, game_id) == before
    finally:
        stack.stop()
