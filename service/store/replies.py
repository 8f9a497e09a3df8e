"""Redis replies as the store's values: text, entries, stored events, an append's outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.store import records
from service.store.port import (
    Appended,
    ChainBroken,
    GameExists,
    IdempotencyRecord,
    QuotaExceeded,
    StoredEvent,
    UnknownGameId,
    VersionConflict,
)


def text(value: object) -> str:
    """A reply item as text (the store's client decodes replies; bytes are decoded here too)."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, str):
        return value
    raise TypeError(f"expected text from Redis, got {type(value).__name__}")


def strings(fields: Mapping[Any, Any] | Sequence[Any] | None) -> dict[str, str]:
    """A hash or stream entry reply as a str -> str dict (also from the flat list of fields
    and values redis-py leaves unparsed inside a Redis Cluster MULTI)."""
    if isinstance(fields, Sequence):
        return {text(k): text(v) for k, v in zip(fields[::2], fields[1::2], strict=True)}
    return {text(k): text(v) for k, v in (fields or {}).items()}


def parse(raw: list[Any]) -> list[StoredEvent]:
    return [records.parse_entry(records.version_of(text(i)), strings(f)) for i, f in raw]


def parse_script_entries(raw: list[Any]) -> list[StoredEvent]:
    """Stream entries as a script returns them (``[id, [field, value, ...]]``)."""
    return [
        records.parse_entry(records.version_of(text(i)), dict(zip(f[::2], f[1::2], strict=True)))
        for i, f in raw
    ]


def appended(
    game_id: str,
    expected: int,
    outcome: str,
    value: str,
    request: IdempotencyRecord | None,
    newer: list[Any],
) -> Appended:
    if outcome == "ok":
        return Appended(version=int(value))
    if outcome == "replayed" and request is not None:
        earlier = records.idempotency_from_json(request.key, value)
        assert earlier is not None
        return records.replayed(earlier, request)
    if outcome == "conflict":
        return_newer = parse_script_entries(newer[0]) if newer else None
        raise VersionConflict(game_id, expected, int(value), return_newer)
    if outcome == "limited":
        raise quota_exceeded(value)
    if outcome == "exists":
        raise GameExists(game_id)
    if outcome == "unknown":
        raise UnknownGameId(game_id)
    raise ChainBroken(f"game {game_id}: the stored head hash {value} differs from prev_hash")


def quota_exceeded(value: str) -> QuotaExceeded:
    window, _, left = value.partition(":")
    return QuotaExceeded(int(window), max(0, int(left)))
