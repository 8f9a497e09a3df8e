"""The ``Health`` port's contract: a store that can be reached answers a ping, and a ping
changes nothing."""

from __future__ import annotations

from typing import Any

from tests.support.store_contract.base import (
    StoreCase,
)


class HealthContract(StoreCase):
    """Given any adapter, the ``Health`` port keeps its promises."""

    def test_a_reachable_store_answers_a_ping(self, store: Any) -> None:
        assert store.ping() is None

    def test_a_ping_changes_nothing(self, store: Any) -> None:
        meta = self.created(store)
        before = (store.meta(meta.id), store.version(meta.id), store.game_count("waiting"))
        store.ping()
        assert (store.meta(meta.id), store.version(meta.id), store.game_count("waiting")) == before
