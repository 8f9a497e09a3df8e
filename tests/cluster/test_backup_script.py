"""docs/deploy/cardroom-backup.sh on the other stores it names: a Redis Cluster (one RDB file
per master, each holding that master's keys) and a Redis on a unix socket (the embedded one)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import redis

from tests.support.processes import tool
from tests.support.redis_cluster import OwnCluster
from tests.support.redis_server import OwnRedis

pytestmark = pytest.mark.integration

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "cardroom-backup.sh"


def backup(url: str, into: Path) -> list[Path]:
    tool("redis-cli", "redis-tools")
    env = {**os.environ, "REDIS_URL": url, "BACKUP_DIR": str(into), "CARDROOM_ARCHIVE_DIR": ""}
    ran = subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return sorted(into.glob("redis-*.rdb"))


def test_a_cluster_is_backed_up_one_file_per_master(cluster: OwnCluster, tmp_path: Path) -> None:
    for port in cluster.ports:  # a key on each master
        cluster.node(port).set(cluster.key_on(port, "backup-"), "kept")
    files = backup(cluster.url, tmp_path)
    assert [f.name.rsplit("-", 1)[1] for f in files] == sorted(f"{p}.rdb" for p in cluster.ports)
    assert all(f.stat().st_size > 0 for f in files)


def test_a_redis_on_a_unix_socket_is_backed_up(tmp_path: Path) -> None:
    socket = tmp_path / "redis.sock"
    own = OwnRedis(tmp_path, "--unixsocket", str(socket))
    try:
        redis.Redis(unix_socket_path=str(socket)).set("kept", "yes")
        (rdb,) = backup(f"unix://{socket}?db=0", tmp_path / "backup")
        restored = tmp_path / "restored"
        restored.mkdir()
        shutil.copy(rdb, restored / "dump.rdb")
        fresh = OwnRedis(restored, "--dbfilename", "dump.rdb")
        try:
            assert redis.Redis.from_url(fresh.url).get("kept") == b"yes"
        finally:
            fresh.stop()
    finally:
        own.stop()

