"""The ``Exports`` port's contract: a finished game's replay file and reviews, kept with it."""

from __future__ import annotations

from typing import Any

from tests.support.store_contract.base import (
    StoreCase,
)


class ExportsContract(StoreCase):
    """Given any adapter, the ``Exports`` port keeps its promises."""

    def test_a_replay_is_kept_and_read_back_per_game(self, store: Any) -> None:
        first, second = self.created(store), self.created(store)
        assert store.replay(first.id) is None
        store.put_replay(first.id, '{"format": "one"}')
        store.put_replay(first.id, '{"format": "two"}')
        assert store.replay(first.id) == '{"format": "two"}'
        assert store.replay(second.id) is None

    def test_a_review_is_kept_per_game_and_seat(self, store: Any) -> None:
        first, second = self.created(store), self.created(store)
        assert store.review(first.id, 0) is None
        store.put_review(first.id, 0, '{"seat": 0}')
        store.put_review(first.id, 1, '{"seat": 1}')
        store.put_review(first.id, 0, '{"seat": 0, "again": true}')
        assert store.review(first.id, 0) == '{"seat": 0, "again": true}'
        assert store.review(first.id, 1) == '{"seat": 1}'
        assert store.review(second.id, 0) is None
