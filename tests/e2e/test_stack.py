"""The tests' own Stack: one that does not come up in time stops what it started before it
raises (no fixture gets it to stop: its web and workers would run on, and its keys stay)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.e2e.conftest import Stack
from tests.support.redis_server import redis_url

pytestmark = pytest.mark.e2e


def test_a_stack_that_does_not_come_up_in_time_stops_what_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[subprocess.Popen[bytes]] = []
    namespaces: list[str] = []
    spawn, wait_until_up = Stack.spawn, Stack._wait_until_up

    def recorded(self: Stack, *args: str, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(spawn(self, *args, **kwargs))
        namespaces.append(self.namespace)
        return started[-1]

    def too_late(self: Stack) -> None:
        wait_until_up(self)  # everything runs and has written its keys...
        raise RuntimeError("the web service did not start")  # ...but past the stack's time

    monkeypatch.setattr(Stack, "spawn", recorded)
    monkeypatch.setattr(Stack, "_wait_until_up", too_late)
    try:
        with pytest.raises(RuntimeError, match="did not start"):
            Stack(tmp_path)
        assert started, "the stack started its web service"
        assert all(process.poll() is not None for process in started), "left running"
        keys = redis.Redis.from_url(redis_url()).keys(f"{namespaces[0]}:*")
        assert keys == [], "its keys were left behind"
    finally:
        for process in started:  # never leave strays, even when the test fails
            if process.poll() is None:
                process.kill()
                process.wait(15)
