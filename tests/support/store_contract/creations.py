"""The ``Creations`` port's contract: a game created in steps, a crash between them
completed later."""

from __future__ import annotations

import time
from typing import Any

import pytest

from service.store import (
    GameExists,
    IdempotencyKeyReused,
    IdempotencyRecord,
)
from tests.support.store_contract.base import (
    START,
    StoreCase,
    events,
    make_meta,
)


class CreationsContract(StoreCase):
    """Given any adapter, the ``Creations`` port keeps its promises."""

    def fail(self, monkeypatch: pytest.MonkeyPatch, store: Any, step: str) -> None:
        """Make one step of ``create`` fail as a crash or a lost connection would."""

        def crash(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError(f"injected failure in {step}")

        monkeypatch.setattr(store, step, crash)

    def test_a_game_id_is_created_once(self, store: Any) -> None:
        meta = self.created(store)
        with pytest.raises(GameExists):
            store.create(meta, events("GameStarted"), START)
        assert store.version(meta.id) == 2

    def test_a_retried_creation_key_returns_the_first_result_and_creates_nothing(
        self, store: Any
    ) -> None:
        meta = make_meta()
        key = IdempotencyRecord("c1", "fp", 2, {"id": meta.id, "version": 2})
        first = store.create(meta, events("GameStarted", "CardsDealt"), START, key)
        again = store.create(meta, events("GameStarted", "Other"), START, key)
        assert first.version == again.version == 2
        assert first.replayed is None and again.replayed == key
        assert [e.event["type"] for e in store.read(meta.id)] == [
            "fake.GameStarted",
            "fake.CardsDealt",
        ]
        assert [g.id for g in store.list_games()].count(meta.id) == 1

    def test_a_creation_key_reused_for_another_request_is_refused(self, store: Any) -> None:
        meta = make_meta()
        store.create(meta, events("GameStarted"), START, IdempotencyRecord("c1", "fp", 1, None))
        with pytest.raises(IdempotencyKeyReused):
            store.create(
                meta, events("GameStarted"), START, IdempotencyRecord("c1", "other", 1, None)
            )
        assert store.version(meta.id) == 1

    def test_a_settled_create_is_listed_and_leaves_no_note(self, store: Any) -> None:
        meta = self.created(store)
        assert [m.id for m in store.list_games()] == [meta.id]
        assert store.unsettled(before=time.time() + 1) == [meta.id]  # until its turns are due
        store.settle_create(meta.id)
        assert store.unsettled(before=time.time() + 1) == []
        assert store.finish_create(meta.id) is None  # nothing left to finish

    def test_a_crash_before_the_game_is_written_leaves_no_game(
        self, store: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        meta = make_meta()
        self.fail(monkeypatch, store, "_record_create")
        with pytest.raises(ConnectionError):
            store.create(meta, events("GameStarted"), START)
        monkeypatch.undo()
        assert store.meta(meta.id) is None and store.list_games() == []
        assert store.unsettled(before=time.time() + 1) == [meta.id]
        assert store.finish_create(meta.id) is None  # the sweeper finds nothing to finish...
        assert store.unsettled(before=time.time() + 1) == []  # ...and drops the note
        assert store.create(meta, events("GameStarted"), START).version == 1  # a retry works
        assert [m.id for m in store.list_games()] == [meta.id]

    def test_a_crash_between_the_game_and_its_listing_is_finished_later(
        self, store: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        meta = make_meta(status="playing")
        self.fail(monkeypatch, store, "_list_game")
        with pytest.raises(ConnectionError):
            store.create(meta, events("GameStarted", "CardsDealt"), START)
        monkeypatch.undo()
        assert store.version(meta.id) == 2 and store.list_games() == []  # half done
        assert store.unsettled(before=time.time() + 1) == [meta.id]
        assert store.unsettled(before=meta.created - 1) == []  # only creations begun before
        finished = store.finish_create(meta.id)
        assert finished is not None and finished.id == meta.id
        assert [m.id for m in store.list_games(status="playing")] == [meta.id]
        store.settle_create(meta.id)
        assert store.unsettled(before=time.time() + 1) == []
        assert store.finish_create(meta.id) is None

    def test_a_retried_creation_key_finds_a_half_done_create_to_finish(
        self, store: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        meta = make_meta()
        key = IdempotencyRecord("c1", "fp", 1, {"id": meta.id})
        self.fail(monkeypatch, store, "_list_game")
        with pytest.raises(ConnectionError):
            store.create(meta, events("GameStarted"), START, key)
        monkeypatch.undo()
        again = store.create(meta, events("GameStarted"), START, key)
        assert again.replayed == key and store.version(meta.id) == 1
        assert store.finish_create(meta.id) is not None
        assert [m.id for m in store.list_games()] == [meta.id]
