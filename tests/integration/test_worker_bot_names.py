"""A worker serving ``--bot NAME`` holds the name for the operator when it starts, and refuses
to start for a name an HTTP bot account holds (issue 28 §4: whoever made the account first
would otherwise hold every seat naming the operator's bot)."""

from __future__ import annotations

import pytest

from service.bots import RedisBotRegistry
from service.store.connect import client_from_url
from tests.support.redis_server import redis_url
from workers import runner

pytestmark = pytest.mark.integration



def _registry(namespace: str) -> RedisBotRegistry:
    return RedisBotRegistry(client_from_url(redis_url()), namespace)


def test_a_worker_refuses_a_name_an_account_holds_and_holds_its_own(worker_namespace: str) -> None:
    registry = _registry(worker_namespace)
    assert registry.create_account("lowball", "a" * 64)  # a stranger was first
    assert runner.run_worker(burst=True, sweep=False, bots=["lowball"]) == 2
    assert registry.is_account("lowball") and registry.operators() == set()
    assert runner.run_worker(burst=True, sweep=False, bots=["mine"]) == 0
    assert registry.operators() == {"mine"}
    assert not registry.create_account("mine", "b" * 64)  # nobody can take it now
