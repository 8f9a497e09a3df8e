"""Command-line edges: `make run` honours PORT/HOST and installs only what running needs, a
busy port says which and how to choose another, `--import` finds modules in the current
folder, and a closed pipe ends `cardroom` quietly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from service.cli import _parser
from tests.support.api import make_app
from tests.support.live_app import serving
from tests.support.redis_server import redis_url, unique_namespace

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "sheepshead-5p-heuristic.replay.json"
CARDROOM = str(Path(sys.executable).with_name("cardroom"))


def test_make_run_honours_port_and_host_and_installs_no_dev_tools(tmp_path: Path) -> None:
    env = {**os.environ, "PORT": "9123", "HOST": "0.0.0.0"}
    dry = subprocess.run(
        ["make", "-n", "run", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "cardroom serve --host 0.0.0.0 --port 9123" in dry.stdout
    assert "pip install --quiet -e ." in dry.stdout
    assert "[dev]" not in dry.stdout


def test_serve_reads_port_and_host_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8111")
    monkeypatch.setenv("HOST", "0.0.0.0")
    args = _parser().parse_args(["serve"])
    assert (args.host, args.port) == ("0.0.0.0", 8111)


def test_a_busy_port_says_which_and_how_to_choose_another() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {**os.environ, "REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": unique_namespace()}
        done = subprocess.run(
            [CARDROOM, "serve", "--port", str(port)],
            env=env, capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    assert done.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr
    assert f"PORT={port + 1} make run" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # a process of its own
def test_worker_import_finds_a_module_in_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "mybots_here.py").write_text(
        "from pathlib import Path\nPath('imported.txt').write_text('yes')\n"
    )
    env = {**os.environ, "REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": unique_namespace()}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [CARDROOM, "worker", "--import", "mybots_here", "--burst", "--no-sweep"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "imported.txt").read_text() == "yes"


@pytest.mark.slow  # a process of its own
def test_a_closed_pipe_ends_the_cli_without_a_traceback() -> None:
    process = subprocess.Popen(
        [CARDROOM, "replay", "show", str(GOLDEN), "--step", "50", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the first write (like `| head` done)
    stderr = process.stderr.read().decode()
    process.wait(30)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert process.returncode == 1


HERE_BOT = """
import random

from workers.bots.base import register_bot


@register_bot("from_here")
class FromHere:
    def choose(self, view: dict, rng: random.Random) -> dict:
        return dict(view["legal_actions"][0])
"""


@pytest.mark.slow  # a process of its own
def test_bot_run_imports_the_bot_from_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "mybot_here.py").write_text(HERE_BOT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    client = (app := make_app()).test_client()
    token = client.post("/bots", json={"name": "from_here"}).json["token"]
    me = {"type": "bot", "bot": "from_here"}
    created = client.post("/games", json={"game": "sixty_six", "seats": [me, me]}).json
    with serving(app) as base:
        done = subprocess.run(
            [CARDROOM, "bot", "run", "mybot_here:FromHere", "--url", base, "--token", token,
             "--max-games", "1"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"game {created['id']} is over" in done.stderr


@pytest.mark.slow  # a process of its own
def test_arena_imports_the_bots_from_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "mybots_here.py").write_text(HERE_BOT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [CARDROOM, "arena", "--game", "sixty_six", "--bots", "from_here,random", "--games", "2",
         "--import", "mybots_here", "--quiet"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "from_here" in done.stdout


def test_ctrl_c_stops_bot_run_quietly() -> None:
    bot = subprocess.Popen(
        [CARDROOM, "bot", "run", "workers.examples.lowball:LowballBot",
         "--url", "http://127.0.0.1:9", "--token", "t"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert bot.stdout is not None
        assert "serving workers.examples.lowball:LowballBot" in bot.stdout.readline()
        bot.send_signal(signal.SIGINT)
        output, _ = bot.communicate(timeout=30)
    finally:
        if bot.poll() is None:  # it hung: leave no process behind
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, output
    assert "Traceback" not in output and "stopped" in output
