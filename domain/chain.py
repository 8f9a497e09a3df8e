"""The hash chain over a game's events: any edit, insertion or reordering of history shows.

hash(v) = hex SHA-256 of utf8(hash(v-1)) || utf8(canonical JSON of event v), with hash(0) = GENESIS.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from domain.events import canonical_json

GENESIS = "0" * 64


def link_hash(prev_hash: str, event: Mapping[str, Any]) -> str:
    """The hash of one encoded event chained to its predecessor's hash."""
    return link_hash_text(prev_hash, canonical_json(event))


def link_hash_text(prev_hash: str, event_json: str) -> str:
    """link_hash for an event already in its canonical JSON text (as stored)."""
    return hashlib.sha256(prev_hash.encode() + event_json.encode()).hexdigest()


def chain(events: Iterable[Mapping[str, Any]], prev_hash: str = GENESIS) -> list[str]:
    """The hashes of consecutive encoded events starting after ``prev_hash``."""
    out = []
    for event in events:
        prev_hash = link_hash(prev_hash, event)
        out.append(prev_hash)
    return out
