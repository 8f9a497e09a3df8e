"""The ``Listing`` port's contract: the index of games by status, newest first."""

from __future__ import annotations

import time
from typing import Any

import pytest

from service.store import UnknownGameId
from tests.support.store_contract.base import (
    StoreCase,
    make_meta,
)


class ListingContract(StoreCase):
    """Given any adapter, the ``Listing`` port keeps its promises."""

    def test_games_are_listed_newest_first_and_filtered(self, store: Any) -> None:
        a = self.created(store, make_meta(game="fake"))
        b = self.created(store, make_meta(game="other", status="playing"))
        c = self.created(store, make_meta(game="fake", status="playing"))
        assert [m.id for m in store.list_games()] == [c.id, b.id, a.id]
        assert [m.id for m in store.list_games(game="fake")] == [c.id, a.id]
        assert [m.id for m in store.list_games(status="playing")] == [c.id, b.id]
        assert [m.id for m in store.list_games(game="fake", status="waiting")] == [a.id]
        assert [m.id for m in store.list_games(limit=1, offset=1)] == [b.id]

    def test_the_listing_says_which_status_it_has_a_game_under(self, store: Any) -> None:
        meta = self.created(store, make_meta(status="waiting"))
        assert store.listed_status(meta.id) == "waiting"
        store.set_status(meta.id, "playing")
        assert store.listed_status(meta.id) == "playing"
        assert store.listed_status("no-such-game") is None

    def test_games_listed_or_moved_since_a_time_are_found_by_id(self, store: Any) -> None:
        before = time.time() - 0.001
        a = self.created(store, make_meta(status="waiting"))
        b = self.created(store, make_meta(status="waiting"))
        assert store.relisted_since(before) == [a.id, b.id]
        assert store.relisted_since(before, limit=1) == [a.id]
        time.sleep(0.002)
        moved = time.time()
        assert store.relisted_since(moved) == []
        store.set_status(a.id, "playing")  # a status change lists it again
        assert store.relisted_since(moved) == [a.id]

    def test_games_are_counted_by_status(self, store: Any) -> None:
        before = {s: store.game_count(s) for s in ("waiting", "playing", "over")}
        self.created(store, make_meta(game="fake"))
        self.created(store, make_meta(game="other", status="playing"))
        over = self.created(store, make_meta(game="fake", status="playing"))
        store.set_status(over.id, "over")
        after = {s: store.game_count(s) - before[s] for s in before}
        assert after == {"waiting": 1, "playing": 1, "over": 1}

    def test_the_status_of_an_unknown_game_is_refused_naming_it(self, store: Any) -> None:
        with pytest.raises(UnknownGameId) as refused:
            store.set_status("nosuchgame", "over")
        assert refused.value.args == ("nosuchgame",)
        assert store.meta("nosuchgame") is None

    def test_set_status_moves_the_game_in_the_index(self, store: Any) -> None:
        meta = self.created(store)
        store.set_status(meta.id, "over")
        assert store.meta(meta.id).status == "over"
        assert [m.id for m in store.list_games(game="fake", status="over")] == [meta.id]
