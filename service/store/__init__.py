"""The event store: one port, an in-memory adapter and a Redis-stream adapter."""

from service.store.memory import InMemoryEventStore
from service.store.port import (
    Appended,
    Batch,
    ChainBroken,
    ChainReport,
    EventStore,
    Fetched,
    GameExists,
    GameMeta,
    IdempotencyKeyReused,
    IdempotencyRecord,
    SeatRecord,
    SeatTaken,
    StoredEvent,
    StoreError,
    UnknownGameId,
    VersionConflict,
)

__all__ = [
    "Appended",
    "Batch",
    "ChainBroken",
    "ChainReport",
    "EventStore",
    "Fetched",
    "GameExists",
    "GameMeta",
    "IdempotencyKeyReused",
    "IdempotencyRecord",
    "InMemoryEventStore",
    "SeatRecord",
    "SeatTaken",
    "StoreError",
    "StoredEvent",
    "UnknownGameId",
    "VersionConflict",
]
