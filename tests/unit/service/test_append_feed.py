"""The append feed's bookkeeping (``service.store.feed``), fed messages by hand: what a process
keeps of other processes' appends, and when it answers None (the caller reads the stream)."""

from __future__ import annotations

import pytest

from domain.chain import GENESIS
from service.store.feed import AppendFeed, message
from service.store.records import build_entries

OTHER = "other-process"


def entries(first: int, count: int) -> list[dict[str, str]]:
    return build_entries([{"type": "E", "n": first + i} for i in range(count)], {"c": first},
                         GENESIS)  # fmt: skip


def feed(depth: int = 64, games: int = 4) -> AppendFeed:
    return AppendFeed(client=None, namespace="ns", games=games, depth=depth)  # never started


def hear(into: AppendFeed, game_id: str, first: int, count: int, origin: str = OTHER) -> None:
    into.take(message(origin, game_id, first, entries(first, count)).decode())


def test_what_another_process_appended_is_answered_event_by_event() -> None:
    f = feed()
    hear(f, "g", 6, 2)
    hear(f, "g", 8, 1)
    got = f.heard("g", 6, 8)
    assert got is not None and [s.version for s in got] == [7, 8]
    assert [s.raw for s in got] == [e["event"] for e in entries(6, 2)[1:] + entries(8, 1)]
    assert got[0].hash == entries(6, 2)[1]["hash"]


def test_a_range_not_heard_whole_is_none() -> None:
    f = feed()
    hear(f, "g", 6, 2)
    assert f.heard("g", 4, 7) is None  # 5 was not heard
    assert f.heard("g", 6, 9) is None  # 8 and 9 were not
    assert f.heard("h", 0, 1) is None
    assert f.heard("g", 6, 6) is None  # nothing asked


def test_a_message_that_does_not_follow_on_replaces_what_was_kept() -> None:
    f = feed()
    hear(f, "g", 6, 2)
    hear(f, "g", 10, 1)  # 8 and 9 were lost (a reconnect)
    assert f.heard("g", 5, 10) is None
    got = f.heard("g", 9, 10)
    assert got is not None and [s.version for s in got] == [10]


def test_a_process_skips_its_own_appends_and_forgets_what_they_passed() -> None:
    f = feed()
    hear(f, "g", 6, 2)
    hear(f, "g", 8, 1, origin=f.origin)  # its own fold is at 8 now
    assert f.latest("g") == 0
    hear(f, "g", 9, 1)
    got = f.heard("g", 8, 9)
    assert got is not None and [s.version for s in got] == [9]


def test_what_a_fold_caught_up_with_is_dropped() -> None:
    f = feed()
    hear(f, "g", 1, 3)
    hear(f, "g", 4, 2)
    assert f.heard("g", 0, 3) is not None
    assert f.latest("g") == 5
    assert f.heard("g", 0, 3) is None  # dropped
    got = f.heard("g", 3, 5)
    assert got is not None and [s.version for s in got] == [4, 5]
    assert f.latest("g") == 0


def test_what_is_kept_is_bounded_in_games_and_entries() -> None:
    f = feed(depth=4, games=2)
    for first in range(1, 20, 2):
        hear(f, "g", first, 2)
    assert f.latest("g") == 20
    assert f.heard("g", 14, 20) is None  # more than the depth ago
    assert f.heard("g", 16, 20) is not None
    for name in ("a", "b", "c"):
        hear(f, name, 1, 1)
    assert [f.latest(n) for n in ("a", "b", "c")] == [0, 1, 1]  # the least recent went


def test_a_message_not_of_the_feeds_form_is_refused_with_a_value_error() -> None:
    f = feed()
    for bad in ("hello", "a b c\n[]", "o g x 1\n[]"):
        with pytest.raises(ValueError):
            f.take(bad)
    hear(f, "g", 1, 1)
    assert f.latest("g") == 1
