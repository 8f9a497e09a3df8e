"""The hash chain over a game's events: any edit, insertion or reordering of history shows.

Salted (chain format 2, every game created since commit-reveal dealing)::

    hash(v) = hex HMAC-SHA256(key = utf8(salt), msg = utf8(hash(v-1)) || utf8(canonical JSON of v))

with ``salt = domain.fairness.chain_salt(secret)`` revealed when the game ends, so a head hash
is safe to publish at every version: without the salt nobody can test guesses of hidden cards
against it. Unsalted (format 1, older replays): ``hash(v) = hex SHA-256(utf8(hash(v-1)) ||
utf8(canonical JSON of v))``. Both start from ``hash(0) = GENESIS``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from typing import Any

from domain.events import canonical_json

GENESIS = "0" * 64


def link_hash(prev_hash: str, event: Mapping[str, Any], salt: str = "") -> str:
    """The hash of one encoded event chained to its predecessor's hash (salted when given)."""
    return link_hash_text(prev_hash, canonical_json(event), salt)


def link_hash_text(prev_hash: str, event_json: str, salt: str = "") -> str:
    """link_hash for an event already in its canonical JSON text (as stored)."""
    message = prev_hash.encode() + event_json.encode()
    if salt:
        return hmac.new(salt.encode(), message, hashlib.sha256).hexdigest()
    return hashlib.sha256(message).hexdigest()


def chain(
    events: Iterable[Mapping[str, Any]], prev_hash: str = GENESIS, salt: str = ""
) -> list[str]:
    """The hashes of consecutive encoded events starting after ``prev_hash``."""
    out = []
    for event in events:
        prev_hash = link_hash(prev_hash, event, salt)
        out.append(prev_hash)
    return out
