"""State snapshots: a cold read folds only the events after the latest snapshot, and takes a
snapshot only when it was made by this code and still matches the stream's chain."""

from __future__ import annotations

import json
import pickle
import random
import zlib
from pathlib import Path
from typing import Any

import fakeredis
import pytest

from service import snapshots
from service.games import GameService
from service.store import InMemoryEventStore
from service.store.game_keys import SNAPSHOT_PART
from service.store.redis import RedisEventStore


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


def _exploit(directory: Path) -> bytes:
    """A pickle that makes ``directory`` when unpickled, through names the domain's modules
    import (``domain.events`` imports ``typing``, which holds ``sys``; Sixty-Six's fold imports
    ``operator.attrgetter``): os = sys.modules.get("os"); attrgetter("mkdir")(os)(directory)."""

    def name(module: str, attr: str) -> bytes:  # SHORT_BINUNICODE x2, STACK_GLOBAL
        return text(module) + text(attr) + b"\x93"

    def text(value: str) -> bytes:
        raw = value.encode()
        return b"\x8c" + bytes([len(raw)]) + raw

    return (b"\x80\x04"
            + name("domain.games.sixty_six.fold", "attrgetter") + text("mkdir") + b"\x85R"
            + name("domain.events", "typing.sys.modules.get") + text("os") + b"\x85R"
            + b"\x85R" + text(str(directory)) + b"\x85R.")  # fmt: skip


def test_a_planted_snapshot_that_would_run_code_is_ignored_and_the_stream_is_folded(
    tmp_path: Path,
) -> None:
    client = fakeredis.FakeRedis(decode_responses=True)
    store = RedisEventStore(client, "planted")
    game_id = played(GameService(store), 2 * snapshots.EVERY)
    expected = GameService(store).view(game_id, 0)
    snap = snapshots.from_bytes(store.snapshot(game_id))
    assert snap is not None
    marker = tmp_path / "planted-code-ran"
    planted = snapshots.Snapshot(snap.version, snap.head_hash, snapshots.code(),
                                 zlib.compress(_exploit(marker)))  # fmt: skip
    client.set(store.key(game_id, SNAPSHOT_PART), snapshots.to_bytes(planted))
    assert GameService(store).view(game_id, 0) == expected  # a cold read: from the stream
    assert not marker.exists()


def test_the_planted_pickle_does_run_code_when_unpickled(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    pickle.loads(_exploit(marker))  # what a pickle-reading snapshot would have done
    assert marker.is_dir()


def test_a_snapshot_is_data_read_back_into_the_same_state(store: CountingStore) -> None:
    game_id = played(GameService(store), 2 * snapshots.EVERY)
    loaded = GameService(store).load(game_id)
    snap = snapshots.take(loaded.state, loaded.version, loaded.head_hash)
    assert snap is not None
    assert snapshots.state_of(snap) == loaded.state
    json.loads(zlib.decompress(snap.state))  # plain JSON
    assert snapshots.state_of(snapshots.Snapshot(1, "0" * 64, snapshots.code(),
                                                 zlib.compress(b"{}"))) is None  # fmt: skip


@pytest.mark.parametrize("data", [b'{"{}": [[[1], 2]]}', b'{"fs": [[1]]}', b"[" * 5000,
                                  b'{"@": "builtins:print", "=": {}}'])  # fmt: skip
def test_a_snapshot_whose_data_is_no_state_is_ignored(data: bytes) -> None:
    snap = snapshots.Snapshot(1, "0" * 64, snapshots.code(), zlib.compress(data))
    assert snapshots.state_of(snap) is None


def test_a_snapshot_that_inflates_past_any_state_is_ignored() -> None:
    bomb = zlib.compress(b"[" * (snapshots.MAX_STATE_BYTES + 1))
    assert snapshots.state_of(snapshots.Snapshot(1, "0" * 64, snapshots.code(), bomb)) is None
