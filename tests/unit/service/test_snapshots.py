"""State snapshots: a cold read folds only the events after the latest snapshot, and takes a
snapshot only when it was made by this code and still matches the stream's chain."""

from __future__ import annotations

import pickle
import random
import zlib
from typing import Any

import pytest

from service import snapshots
from service.games import GameService
from service.store import InMemoryEventStore


class CountingStore(InMemoryEventStore):
    def __init__(self) -> None:
        super().__init__()
        self.fetched: list[int] = []

    def fetch(self, game_id: str, after: int, idempotency_key: str | None = None) -> Any:
        self.fetched.append(after)
        return super().fetch(game_id, after, idempotency_key)

    def fetch_latest(self, game_id: str, idempotency_key: str | None = None) -> Any:
        fetched = super().fetch_latest(game_id, idempotency_key)
        self.fetched.append(fetched.events[0].version - 1 if fetched.events else 0)
        return fetched


def played(service: GameService, events: int) -> str:
    """A Shithead game of two random seats played to at least ``events`` events."""
    rnd = random.Random(7)
    created = service.create_game("shithead", [{"type": "bot", "bot": "random"}] * 2, seed="s7")
    game_id, version = str(created["id"]), int(created["version"])
    while version < events:
        loaded = service.load(game_id)
        rules, state = loaded.game, loaded.state
        seat = rnd.choice(list(rules.awaited_seats(state)))
        action = rnd.choice(rules.legal_actions(state, seat))
        version = int(service.submit_action(game_id, seat, action, version)["version"])
    return game_id


@pytest.fixture
def store() -> CountingStore:
    return CountingStore()


def cold_view(store: CountingStore, game_id: str) -> dict[str, Any]:
    store.fetched.clear()
    return GameService(store).view(game_id, 0)


def test_a_cold_read_folds_only_the_events_after_the_latest_snapshot(
    store: CountingStore,
) -> None:
    game_id = played(GameService(store), 3 * snapshots.EVERY)
    snap = snapshots.from_bytes(store.snapshot(game_id))
    assert snap is not None and snap.version >= 2 * snapshots.EVERY
    view = cold_view(store, game_id)
    assert store.fetched == [snap.version - 1]
    with store._lock:  # the same view from a fold of the whole stream
        store._games[game_id].snapshot = b""
    assert cold_view(store, game_id) == view and store.fetched == [0]  # one read, every event


def test_a_snapshot_of_other_code_is_ignored(
    store: CountingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = played(GameService(store), 2 * snapshots.EVERY)
    expected = cold_view(store, game_id)
    monkeypatch.setattr(snapshots, "code", lambda: "another-version")
    snap = snapshots.from_bytes(store.snapshot(game_id))
    assert snap is not None  # read with the snapshot, then the whole stream
    assert cold_view(store, game_id) == expected and store.fetched == [snap.version - 1, 0]


def test_a_snapshot_the_stream_does_not_hold_is_ignored(store: CountingStore) -> None:
    game_id = played(GameService(store), 2 * snapshots.EVERY)
    expected = cold_view(store, game_id)
    snap = snapshots.from_bytes(store.snapshot(game_id))
    assert snap is not None
    forged = snapshots.Snapshot(snap.version, "f" * 64, snap.code, snap.state)
    with store._lock:
        store._games[game_id].snapshot = snapshots.to_bytes(forged)
    assert cold_view(store, game_id) == expected and store.fetched == [snap.version - 1, 0]


class NotDomain:
    pass


def test_a_snapshot_holding_anything_but_the_domain_does_not_unpickle() -> None:
    blob = zlib.compress(pickle.dumps(NotDomain()))
    assert snapshots.state_of(snapshots.Snapshot(1, "0" * 64, snapshots.code(), blob)) is None
    evil = zlib.compress(pickle.dumps(print))
    assert snapshots.state_of(snapshots.Snapshot(1, "0" * 64, snapshots.code(), evil)) is None
