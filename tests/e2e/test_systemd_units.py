"""The systemd units of docs/deploy: ``systemd-analyze verify`` finds nothing to say, and their
ExecStart command lines, run with their environment as systemd would (paths moved under the
test's folder), serve games together: web and workers sharing one metrics directory, and each
stopping cleanly on SIGTERM within its TimeoutStopSec."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from tests.e2e.conftest import BOT, ROOT, free_port
from tests.support.processes import tool, until
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.unit.service.test_ops import value

pytestmark = pytest.mark.e2e

DEPLOY = ROOT / "docs" / "deploy"
UNITS = ("cardroom-web.service", "cardroom-worker.service", "cardroom.target",
         "cardroom-backup.service", "cardroom-backup.timer")  # fmt: skip
INSTALLED = "/opt/cardroom/.venv/bin/cardroom"  # where the units expect the console script
BACKUP = "/usr/local/sbin/cardroom-backup"  # and the backup script
Unit = dict[str, list[tuple[str, str]]]


def parse_unit(text: str) -> Unit:
    """A unit file's sections as lists of (key, value) (keys may repeat: Environment=)."""
    sections: Unit = {}
    current: list[tuple[str, str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
        else:
            key, _, val = line.partition("=")
            current.append((key.strip(), val.strip()))
    return sections


def one(unit: Unit, section: str, key: str) -> str:
    (found,) = [v for k, v in unit[section] if k == key]
    return found


def cardroom_script() -> str:
    return str(Path(sys.executable).with_name("cardroom"))


def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    analyze = tool("systemd-analyze", "systemd")
    for name in UNITS:  # the console script where the units expect it: here, this venv's
        text = (DEPLOY / name).read_text().replace(INSTALLED, cardroom_script())
        text = text.replace(BACKUP, str(DEPLOY / "cardroom-backup.sh"))
        (tmp_path / name).write_text(text)
    checked = subprocess.run(
        [analyze, "verify", *(str(tmp_path / n) for n in UNITS)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    said = [line for line in checked.stderr.splitlines() if str(tmp_path) in line]
    assert checked.returncode == 0 and said == [], checked.stderr


def unit_process(name: str, tmp: Path, overrides: dict[str, str]) -> subprocess.Popen[bytes]:
    """Run a unit's ExecStart as systemd would: its EnvironmentFile, its Environment lines,
    its WorkingDirectory; /run/cardroom and /var/lib/cardroom moved under ``tmp``."""
    unit = parse_unit((DEPLOY / name).read_text())
    moved = {"/run/cardroom": str(tmp / "run"), "/var/lib/cardroom": str(tmp / "lib")}
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp), "PYTHONUNBUFFERED": "1"}
    env_file = one(unit, "Service", "EnvironmentFile")
    assert env_file == "/etc/cardroom/cardroom.env"
    for line in (DEPLOY / "cardroom.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, val = line.partition("=")
            env[key] = val
    env.update(v.split("=", 1) for k, v in unit["Service"] if k == "Environment")  # type: ignore[arg-type]
    env = {k: _moved(v, moved) for k, v in env.items()} | overrides
    command = shlex.split(one(unit, "Service", "ExecStart"))
    assert command[0] == INSTALLED
    command[0] = cardroom_script()
    if "--port" in command:
        command[command.index("--port") + 1] = overrides["PORT"]
    workdir = Path(_moved(one(unit, "Service", "WorkingDirectory"), moved))
    workdir.mkdir(parents=True, exist_ok=True)
    with (tmp / f"{name}.log").open("wb") as out:
        return subprocess.Popen(command, cwd=workdir, env=env, stdout=out, stderr=out)


def _moved(text: str, moved: dict[str, str]) -> str:
    for old, new in moved.items():
        text = text.replace(old, new)
    return text


@pytest.fixture
def units(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    namespace, port = unique_namespace("systemd"), free_port()
    overrides = {
        "REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": namespace, "PORT": str(port),
        "CARDROOM_RATE_LIMITS": "0", "CARDROOM_REPLAY_DIR": str(tmp_path / "replays"),
    }  # fmt: skip
    started = [unit_process(n, tmp_path, overrides) for n in UNITS[:2]]
    try:
        yield f"http://127.0.0.1:{port}", started
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()
        delete_namespace(redis.Redis.from_url(redis_url()), namespace)


def test_the_units_command_lines_serve_games_and_stop_on_sigterm(
    units: tuple[str, list[subprocess.Popen[bytes]]],
) -> None:
    base, processes = units
    until(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200, "ready", 40)
    body = {"game": "shithead", "seats": [BOT] * 3}
    game = requests.post(f"{base}/games", json=body, timeout=10).json()["id"]
    until(
        lambda: requests.get(f"{base}/games/{game}", timeout=5).json()["status"] == "over",
        "the bots finish",
        40,
    )
    metrics = requests.get(f"{base}/metrics", timeout=5).text
    assert value(metrics, "cardroom_bot_turn_seconds_count") > 0  # the worker unit's figures
    for name, process in zip(UNITS, processes, strict=False):
        stop = float(one(parse_unit((DEPLOY / name).read_text()), "Service", "TimeoutStopSec"))
        process.send_signal(signal.SIGTERM)
        assert process.wait(stop) == 0
