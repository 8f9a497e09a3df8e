"""The ``Seats`` port's contract: a game's record and who holds its seats (joins, leaves, the
holder an append checks)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from domain.chain import GENESIS
from service.store import (
    Holder,
    IdempotencyRecord,
    SeatNotHeld,
    SeatRecord,
    SeatTaken,
    UnknownGameId,
)
from tests.support.store_contract.base import (
    StoreCase,
    action,
    events,
    make_meta,
)


class SeatsContract(StoreCase):
    """Given any adapter, the ``Seats`` port keeps its promises."""

    def test_an_open_seat_is_joined_once(self, store: Any) -> None:
        meta = self.created(store)
        joined = store.join(meta.id, 0, "alice", "h" * 64)
        assert joined.seats[0] == SeatRecord("human", name="alice", token_hash="h" * 64)
        assert joined.seat_of_token_hash("h" * 64) == 0
        with pytest.raises(SeatTaken):
            store.join(meta.id, 0, "bob", "b" * 64)
        with pytest.raises(SeatTaken):
            store.join(meta.id, 1, "bob", "b" * 64)
        again = store.join(meta.id, 0, "alice", "h" * 64)  # a retried join: no conflict
        assert again.seats[0] == joined.seats[0]
        with pytest.raises(UnknownGameId):
            store.join("nope", 0, "bob", "b" * 64)

    def test_a_join_refused_names_the_seat_and_the_game(self, store: Any) -> None:
        meta = self.created(store)  # seat 0 open, seat 1 a bot's
        for seat in (1, 2, -1):  # a bot's, one past the last, none
            with pytest.raises(SeatTaken) as taken:
                store.join(meta.id, seat, "bob", "b" * 64)
            assert str(taken.value) == f"seat {seat} of game {meta.id} is not open"
        with pytest.raises(UnknownGameId) as unknown:
            store.join("nope", 0, "bob", "b" * 64)
        assert str(unknown.value) == "nope"

    def test_a_vacated_seat_opens_again_and_keeps_the_leavers_token_apart(
        self, store: Any
    ) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        store.vacate(meta.id, 0)
        store.vacate(meta.id, 0)  # idempotent
        after = store.meta(meta.id)
        assert after.seats[0].type == "open" and after.left == ("h" * 64,)
        assert after.seat_of_token_hash("h" * 64) is None
        rejoined = store.join(meta.id, 0, "bob", "b" * 64)
        assert rejoined.seat_of_token_hash("b" * 64) == 0 and rejoined.left == ("h" * 64,)

    def test_an_append_by_the_seat_s_holder_is_stored(self, store: Any) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        appended = store.append(meta.id, 2, events("CardPlayed"), action(),
                                prev_hash=self.head(store, meta.id), holder=Holder(0, "h" * 64))
        assert appended.version == 3

    def test_an_append_by_a_token_that_does_not_hold_the_seat_stores_nothing(
        self, store: Any
    ) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        record = IdempotencyRecord("seat:0:k", "fp", 3)
        head = self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head,
                     idempotency=record)  # fmt: skip
        for holder in (Holder(0, "b" * 64), Holder(1, "h" * 64)):
            with pytest.raises(SeatNotHeld) as refused:  # before the key's replay and version
                store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=GENESIS,
                             idempotency=record, holder=holder)  # fmt: skip
            assert not refused.value.left
        assert store.version(meta.id) == 3

    def test_a_batch_that_leaves_a_seat_vacates_it_in_the_same_step(self, store: Any) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        leave = [{"type": "lifecycle.SeatLeft", "schema": 1, "seat": 0, "bot": None}]
        store.append(meta.id, 2, leave, action(), prev_hash=self.head(store, meta.id),
                     holder=Holder(0, "h" * 64))  # fmt: skip
        after = store.meta(meta.id)
        assert after.seats[0].type == "open" and after.left == ("h" * 64,)
        with pytest.raises(SeatNotHeld) as refused:
            store.append(meta.id, 3, events("CardPlayed"), action(),
                         prev_hash=self.head(store, meta.id), holder=Holder(0, "h" * 64))
        assert refused.value.left and store.version(meta.id) == 3
        store.join(meta.id, 0, "carol", "c" * 64)
        appended = store.append(meta.id, 3, events("CardPlayed"), action(),
                                prev_hash=self.head(store, meta.id), holder=Holder(0, "c" * 64))
        assert appended.version == 4

    def test_concurrent_joins_of_one_seat_have_one_winner(self, store: Any) -> None:
        meta = self.created(store)
        wins: list[int] = []

        def join(i: int) -> None:
            try:
                store.join(meta.id, 0, f"p{i}", f"{i:064d}")
                wins.append(i)
            except SeatTaken:
                pass

        threads = [threading.Thread(target=join, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1
        assert store.meta(meta.id).seats[0].name == f"p{wins[0]}"

    def test_joining_the_one_open_seat_beside_a_bot_starts_play(self, store: Any) -> None:
        meta = self.created(store, make_meta())  # seat 0 open, seat 1 a bot's
        assert store.join(meta.id, 0, "a", "a" * 64).status == "playing"

    def test_play_starts_only_once_every_open_seat_of_three_is_joined(self, store: Any) -> None:
        meta = self.created(store, make_meta(seats=(SeatRecord("open"),) * 3))
        assert [store.join(meta.id, seat, f"p{seat}", f"{seat}" * 64).status
                for seat in range(3)] == ["waiting", "waiting", "playing"]  # fmt: skip

    def test_joining_the_last_open_seat_starts_play(self, store: Any) -> None:
        meta = self.created(store, make_meta(seats=(SeatRecord("open"), SeatRecord("open"))))
        assert store.join(meta.id, 0, "a", "a" * 64).status == "waiting"
        assert store.join(meta.id, 1, "b", "b" * 64).status == "playing"
        assert [m.id for m in store.list_games(status="playing")] == [meta.id]
        assert store.list_games(status="waiting") == []
