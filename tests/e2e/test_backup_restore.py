"""Backups as docs/operations.md ("Backups") takes and restores them: docs/deploy's
cardroom-backup.sh (`redis-cli --rdb` of the live store first, then a tar of the archive's
directory); restored into a fresh redis-server of the test's own (the RDB loaded with AOF off,
then AOF turned on) and a fresh directory, every game reads back as it was and verifies, and a
live game plays on."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tarfile
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.api.deps import EXTENSION
from service.archive import FileArchive
from service.games import GameService
from service.retention import Retention
from tests.support.api import Table, make_app
from tests.support.processes import tool, until
from tests.support.redis_server import OwnRedis, unique_namespace

pytestmark = pytest.mark.e2e

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "cardroom-backup.sh"


def club(url: str, namespace: str, archive: Path) -> tuple[FlaskClient, GameService]:
    app = make_app(redis=True, REDIS_URL=url, CARDROOM_NAMESPACE=namespace,
                   CARDROOM_ARCHIVE_DIR=str(archive))  # fmt: skip
    return app.test_client(), app.extensions[EXTENSION]


def play(table: Table, seed: str, moves: int | None = None) -> None:
    """Random legal moves: ``moves`` of them, or until the game is over."""
    rnd = random.Random(seed)
    while table.summary()["status"] != "over" and (moves is None or moves > 0):
        seat, action, version = table.random_move(rnd) or pytest.fail("no legal move")
        assert table.act(seat, action, version).status_code == 200
        moves = None if moves is None else moves - 1


def everything(client: FlaskClient, ids: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"listing": client.get("/games?limit=100").json}
    for game_id in ids:
        summary = client.get(f"/games/{game_id}").json
        out[game_id] = {"summary": summary, "events": client.get(f"/games/{game_id}/events").json}
        if summary["status"] == "over":
            out[game_id]["replay"] = client.get(f"/games/{game_id}/replay").text
    return out


def test_a_backup_restores_into_a_fresh_redis_and_archive(tmp_path: Path) -> None:
    tool("redis-cli", "redis-tools")  # the backup script's
    namespace = unique_namespace("backup")
    (tmp_path / "live").mkdir()
    own = OwnRedis(tmp_path / "live", "--appendonly", "yes", "--appendfsync", "always")
    try:
        client, service = club(own.url, namespace, tmp_path / "archive")
        archived, finished = (Table(client, "sixty_six", options={"game_target": 1}, seed=s)
                              for s in ("backup-a", "backup-b"))  # fmt: skip
        play(archived, "a")
        moved = Retention(service, FileArchive(tmp_path / "archive"), after=0,
                          clock=lambda: time.time() + 1,
                          retention=service.store).archive_game(archived.id)  # fmt: skip
        assert moved.outcome == "archived"
        play(finished, "b")
        live = Table(client, "sixty_six", options={"game_target": 1}, seed="backup-c")
        play(live, "c", moves=3)
        waiting = client.post("/games", json={"game": "sixty_six", "seats": [{"type": "open"}] * 2})
        ids = [archived.id, finished.id, live.id, waiting.json["id"]]
        before = everything(client, ids)

        backup = tmp_path / "backup"
        env = {**os.environ, "REDIS_URL": own.url, "BACKUP_DIR": str(backup),
               "CARDROOM_ARCHIVE_DIR": str(tmp_path / "archive")}
        ran = subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
    finally:
        own.stop()

    (rdb,) = backup.glob("redis-*.rdb")
    (archive,) = backup.glob("archive-*.tar.gz")
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copy(rdb, restored / "dump.rdb")
    fresh = OwnRedis(restored, "--appendonly", "no", "--dbfilename", "dump.rdb")
    try:
        store = redis.Redis.from_url(fresh.url)
        store.config_set("appendonly", "yes")  # AOF from now on, written from the loaded data
        until(lambda: store.info("persistence")["aof_rewrite_in_progress"] == 0,
              "the first AOF written (Redis will not shut down before)", 20)
        with tarfile.open(archive) as tar:
            tar.extractall(restored, filter="data")
        client, service = club(fresh.url, namespace, restored / "archive")
        assert everything(client, ids) == before
        for game_id in (archived.id, finished.id):
            assert client.get(f"/games/{game_id}/replay/verification").json["ok"] is True
        for game_id in (live.id, waiting.json["id"]):
            assert service.store.verify_chain(game_id).ok
        live.client = client
        play(live, "c-again", moves=1)  # the restored game plays on
        assert client.get(f"/games/{live.id}").json["version"] > before[live.id]["summary"][
            "version"]
    finally:
        fresh.stop()
