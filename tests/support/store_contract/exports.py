"""The ``Exports`` port's contract: a finished game's replay file and reviews, kept with it, and
the replay files of its sealed forks held with it until it ends."""

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

    def test_a_sealed_fork_s_file_is_held_with_its_source_and_read_back(
        self, store: Any
    ) -> None:
        source, other = self.created(store), self.created(store)
        assert store.held_forks(source.id) == {}
        text = '{"format": "fork é", "events": [' + ",".join(["{}"] * 200) + "]}"
        store.hold_fork(source.id, "fork-1", '{"format": "first"}')
        store.hold_fork(source.id, "fork-1", text)  # held again (a retried job): replaced
        store.hold_fork(source.id, "fork-2", '{"format": "two"}')
        assert store.held_forks(source.id) == {"fork-1": text, "fork-2": '{"format": "two"}'}
        assert store.held_forks(other.id) == {}
        assert store.replay(source.id) is None  # not the source's own file

    def test_nothing_is_held_for_a_source_the_store_does_not_hold(self, store: Any) -> None:
        source = self.created(store)
        store.purge(source.id)
        store.hold_fork(source.id, "fork-1", '{"format": "one"}')
        store.hold_fork("never-created", "fork-2", '{"format": "two"}')
        assert store.held_forks(source.id) == {} and store.held_forks("never-created") == {}
