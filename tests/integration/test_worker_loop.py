"""The worker process serves again when RQ's own loop quits on a Redis error it caught itself
(a connection lost while preparing a job: "found an unhandled exception, quitting"), as it does
when the error reaches it: it does not exit as if it had been asked to stop."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from rq import SimpleWorker

from tests.support.redis_server import redis_url
from workers import runner

pytestmark = pytest.mark.integration



def test_a_worker_whose_rq_loop_quits_by_itself_serves_again(
    worker_namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def work(self: SimpleWorker, *args: Any, **kwargs: Any) -> bool:
        calls.append(1)
        if len(calls) == 2:  # then asked to stop, as RQ's SIGTERM handler marks it
            self._shutdown_requested_date = datetime.now(UTC)
        return True

    monkeypatch.setattr(SimpleWorker, "work", work)
    assert runner.run_worker(["bots"], sweep=False, url=redis_url()) == 0
    assert len(calls) == 2  # the first return was not taken for a stop


def test_a_burst_worker_ends_when_its_queues_are_empty(
    worker_namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(SimpleWorker, "work", lambda self, *a, **k: calls.append(1) or True)
    assert runner.run_worker(["bots"], burst=True, sweep=False, url=redis_url()) == 0
    assert calls == [1]
