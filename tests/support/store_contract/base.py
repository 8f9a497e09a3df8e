"""What every port's contract suite shares: the fixtures' contract, made-up games, helpers.

A suite (one per port of ``service.store.port``) is a class; a test module runs it over an
adapter by subclassing it with two fixtures: ``store`` (a fresh, isolated store) and ``tamper``
(a function ``(store, game_id, version, fields)`` that edits one stored entry behind the
store's back, as an attacker with access to Redis would).
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from domain.chain import GENESIS
from service.store import (
    GameMeta,
    SeatRecord,
)

ids = itertools.count()


def make_meta(
    game: str = "fake", seats: tuple[SeatRecord, ...] | None = None, status: str = "waiting"
) -> GameMeta:
    seats = seats or (SeatRecord("open"), SeatRecord("bot", bot="random"))
    return GameMeta(
        id=f"g{next(ids)}-{time.monotonic_ns()}",
        game=game,
        players=len(seats),
        options={"hand_size": 3},
        seats=seats,
        created=time.time(),
        commitment="c" * 64,
        seed="secret-seed",
        status=status,
    )


def events(*names: str) -> list[dict[str, Any]]:
    return [{"type": f"fake.{n}", "schema": 1, "n": i} for i, n in enumerate(names)]


START = {
    "kind": "start",
    "setup": {"players": 2, "seed": "s", "options": {}, "dealer": None, "deal": None},
}


def action(card: str = "9H") -> dict[str, Any]:
    return {"kind": "action", "seat": 0, "action": {"type": "play", "card": card}}


# idempotency keys as the service records them (records.seat_key): a person's, a bot's (ending
# in the version it expects), one ending in a later number than the version
KEY_NAMES = ("seat:0:k1", "seat:0:bot:0:2", "seat:1:retry:99")


class StoreCase:
    """Helpers of the suites: a created game, its head hash."""

    def created(self, store: Any, meta: GameMeta | None = None) -> GameMeta:
        meta = meta or make_meta()
        store.create(meta, events("GameStarted", "CardsDealt"), START)
        return meta

    def head(self, store: Any, game_id: str) -> str:
        stored = store.read(game_id)
        return stored[-1].hash if stored else GENESIS

def rewrite_redis_entry(store: Any, game_id: str, version: int, fields: dict[str, str]) -> None:
    """Edit one entry of a Redis stream the only way Redis allows: rewrite the stream."""
    key = store.key(game_id, "events")
    entries = store.client.xrange(key)
    store.client.delete(key)
    for entry_id, stored in entries:
        if int(entry_id.split("-")[0]) == version:
            stored = {**stored, **fields}
        store.client.xadd(key, stored, id=entry_id)

