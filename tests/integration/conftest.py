"""Fixtures of the integration tests (the real Redis)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.support.redis_server import delete_namespace, redis_url, unique_namespace


@pytest.fixture
def worker_namespace(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A namespace of its own on the real Redis, set in the environment as a worker reads its
    settings (CARDROOM_NAMESPACE, REDIS_URL); its keys are deleted afterwards."""
    name = unique_namespace("worker")
    monkeypatch.setenv("CARDROOM_NAMESPACE", name)
    monkeypatch.setenv("REDIS_URL", redis_url())
    yield name
    delete_namespace(redis.Redis.from_url(redis_url()), name)
