"""What the tests (and benchmarks) that run real processes share: waiting for a condition, the
process tree under a pid, killing it as a lost machine, and the system tools they need."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import requests


def until(
    check: Callable[[], object],
    what: str,
    timeout: float = 30,
    also: Callable[[], str] = lambda: "",
) -> None:
    """Wait (polling every 0.1 s) until ``check()`` is true; a failed request counts as not
    yet. AssertionError naming ``what`` (and ``also()``, e.g. a log's tail) after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(requests.RequestException):
            if check():
                return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting until {what} {also()}")


def descendants(pid: int) -> list[int]:
    """The process and every process it started, now (parents before children)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, pending = [], [pid]
    while pending:
        found.append(pending.pop())
        pending += children.get(found[-1], [])
    return found


def kill_tree(pid: int) -> None:
    """SIGKILL a process and everything it started, the supervisor first (nothing is
    restarted): a machine lost."""
    for each in descendants(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(each, signal.SIGKILL)


def tool(name: str, package: str) -> str:
    """The path of a system tool a test needs: a failure in CI (.ci/run installs ``package``),
    a skip that says so elsewhere."""
    found = shutil.which(name) or (f"/usr/sbin/{name}" if os.access(f"/usr/sbin/{name}",
                                                                    os.X_OK) else None)  # fmt: skip
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: .ci/run installs Debian's {package}")
        pytest.skip(f"{name} is not installed (Debian's {package})")
    return found
