"""Each of the service's benchmarks runs at a tiny size and prints its ratio lines (the figures
of so short a run mean nothing; no timing is asserted)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def smoke(name: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "benchmarks.run_all", "--smoke", name]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_fold_benchmark_prints_its_ratios() -> None:
    done = smoke("bench_fold")
    assert done.returncode == 0, done.stderr
    assert "fold path / json.loads: median" in done.stdout
    assert "cold view / warm view at version" in done.stdout


def test_the_engines_benchmark_compares_two_checkouts() -> None:
    command = [sys.executable, "-m", "benchmarks.bench_engines", "--against", str(ROOT),
               "--samples", "1", "--quick"]  # this checkout against itself
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for game in ("Sixty-Six", "Shithead", "Sheepshead"):
        line = rf"^  {game} +x\d\.\d{{3}} \(range "
        assert re.search(line, done.stdout, re.MULTILINE), done.stdout


def test_the_hot_path_benchmark_compares_two_checkouts() -> None:
    command = [sys.executable, "-m", "benchmarks.bench_hotpath", "--against", str(ROOT),
               "--samples", "1", "--actions", "40", "--warm-up", "10"]  # against itself
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "CPU per action, this / against: median" in done.stdout
    assert done.stdout.count("answers {'200': 40}") == 2, done.stdout  # every action played


def test_the_memory_benchmark_prints_its_ratio() -> None:
    done = smoke("bench_memory")
    assert done.returncode == 0, done.stderr
    assert "all of a game's keys / its events stream: median" in done.stdout


def test_the_api_benchmark_prints_its_ratios_or_says_how_to_get_wrk() -> None:
    done = smoke("bench_api")  # workers sharing a socket (the default against no action
    # slots), then routed by game id
    if shutil.which("wrk") is None:
        assert done.returncode != 0 and "apt-get install -y wrk" in done.stderr
        return
    assert_answered(done.stdout)
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        assert done.returncode != 0 and "apt-get install -y nginx" in done.stderr
        assert done.stdout.count("action/bare throughput: median") == 1
        return
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("action/bare throughput: median") == 2
    assert "alternative server CARDROOM_ACTION_SLOTS=0" in done.stdout
    assert done.stdout.count("alternative/bare throughput: median") == 1
    assert done.stdout.count("action/alternative p99 latency: median") == 1
    assert "behind nginx hashing on the game id" in done.stdout


def assert_answered(report: str, servers: int = 3) -> None:
    """Every server's line: no socket error, and no answer but a 2xx or a 409 (a game's line
    overtaken by its next one, which the benchmark's design allows and counts)."""
    lines = [line for line in report.splitlines() if " req/s " in line]
    assert len(lines) >= servers, report  # bare and action, and any alternative
    for line in lines:
        errors = int(re.search(r"errors (\d+)", line).group(1))  # type: ignore[union-attr]
        codes = re.findall(r"(\d{3})=(\d+)", line.split("errors", 1)[1])
        assert sum(int(n) for code, n in codes if code == "409") == errors, line


def test_a_plan_that_runs_out_is_played_again_bigger_not_reported() -> None:
    """A plan sized for a slower machine (here 30 actions a second) runs out: wrk repeats its
    last request, which a 409 or a 429 answers. That sample is played again with a plan sized
    from the rate that run reached, and only the runs that did not run out are reported."""
    command = [sys.executable, "-m", "benchmarks.bench_api", "--samples", "1", "--seconds", "1",
               "--concurrency", "8", "--games", "300", "--max-rps", "30"]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    if shutil.which("wrk") is None:
        assert done.returncode != 0 and "apt-get install -y wrk" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    assert "(a plan ran out at concurrency 8, sample 1: played again with" in done.stdout
    assert "WARNING" not in done.stdout
    assert_answered(done.stdout, servers=2)
