"""Each process sets up the host's metrics directory itself (``service.metrics_dir``): the
first one wipes a previous run's files, the others keep the figures of those running, the last
one to exit removes it; live gauges of dead processes are dropped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from service import metrics_dir

PREPARE = "from service import metrics_dir; metrics_dir.prepare(); print('ready', flush=True)"


def run_prepare(directory: Path, then: str = "") -> subprocess.Popen[str]:
    env = {**os.environ, metrics_dir.ENV: str(directory)}
    return subprocess.Popen([sys.executable, "-c", PREPARE + then], env=env,
                            stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True)  # fmt: skip


def test_the_first_process_wipes_a_previous_run_and_the_others_keep_the_files(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "metrics"
    directory.mkdir()
    (directory / "counter_999999.db").write_bytes(b"left by a run that is over")
    holder = run_prepare(directory, "; import sys; sys.stdin.read()")  # runs until stdin ends
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "ready\n"
        assert not (directory / "counter_999999.db").exists()
        (directory / "counter_1.db").write_bytes(b"a running process's figures")
        assert run_prepare(directory).wait(30) == 0  # a second process comes and goes
        assert (directory / "counter_1.db").exists()
    finally:
        holder.communicate("", timeout=30)
    assert not directory.exists(), "the last process to exit removes the directory"


def test_live_gauges_of_dead_processes_are_dropped(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    for pid in (dead, str(os.getpid())):
        (tmp_path / f"gauge_livesum_{pid}.db").write_bytes(b"")
    (tmp_path / f"counter_{dead}.db").write_bytes(b"")
    metrics_dir.forget_dead(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"counter_{dead}.db", f"gauge_livesum_{os.getpid()}.db"
    ]
