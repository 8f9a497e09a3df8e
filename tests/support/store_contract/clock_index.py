"""The ``ClockIndex`` port's contract: when each game's clock is next due."""

from __future__ import annotations

from typing import Any

from tests.support.store_contract.base import (
    StoreCase,
    ids,
)


class ClockIndexContract(StoreCase):
    """Given any adapter, the ``ClockIndex`` port keeps its promises."""

    def test_the_clock_index_keeps_the_earliest_hint_and_lists_what_is_due(
        self, store: Any
    ) -> None:
        a, b = f"ca{next(ids)}", f"cb{next(ids)}"
        store.hint_clock(a, 5_000)
        store.hint_clock(a, 9_000)  # a later hint never hides an earlier one
        store.hint_clock(b, 7_000)
        due = [d for d in store.clocks_due(8_000) if d[0] in (a, b)]
        assert due == [(a, 5_000), (b, 7_000)]
        assert [d for d in store.clocks_due(4_999) if d[0] in (a, b)] == []

    def test_a_clock_entry_is_corrected_only_from_the_time_it_was_seen_at(
        self, store: Any
    ) -> None:
        game = f"cc{next(ids)}"
        store.hint_clock(game, 5_000)
        assert store.reset_clock(game, 4_000, 9_000) is False  # someone else moved it
        assert store.reset_clock(game, 5_000, 9_000) is True
        assert [d for d in store.clocks_due(8_000) if d[0] == game] == []
        assert [d for d in store.clocks_due(9_000) if d[0] == game] == [(game, 9_000)]
        assert store.reset_clock(game, None, None) is True  # the game ended: dropped
        assert [d for d in store.clocks_due(10**13) if d[0] == game] == []
        assert store.reset_clock(game, None, None) is False

    def test_at_most_a_hundred_due_clocks_are_listed_at_once_the_earliest_first(
        self, store: Any
    ) -> None:
        games = [f"cd{next(ids)}" for _ in range(101)]
        for due, game in enumerate(games):
            store.hint_clock(game, 1_000 + due)
        assert store.clocks_due(5_000) == [(g, 1_000 + due) for due, g in enumerate(games[:100])]
