"""The hash chain over a game's events: any edit, insertion or reordering of history shows.

Salted (chain format 2, every game created since commit-reveal dealing)::

    hash(v) = hex HMAC-SHA256(key = utf8(salt), msg = utf8(hash(v-1)) || utf8(canonical JSON of v))

with ``salt = domain.fairness.chain_salt(secret)`` revealed when the game ends, so a head hash
is safe to publish at every version: without the salt nobody can test guesses of hidden cards
against it. Unsalted (format 1, older replays): ``hash(v) = hex SHA-256(utf8(hash(v-1)) ||
utf8(canonical JSON of v))``. Both start from ``hash(0) = GENESIS``.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.events import canonical_json

GENESIS = "0" * 64


def link_hash(prev_hash: str, event: Mapping[str, Any], salt: str = "") -> str:
    """The hash of one encoded event chained to its predecessor's hash (salted when given)."""
    return link_hash_text(prev_hash, canonical_json(event), salt)


def link_hash_text(prev_hash: str, event_json: str, salt: str = "") -> str:
    """link_hash for an event already in its canonical JSON text (as stored)."""
    message = (prev_hash + event_json).encode()
    pads = _pads(salt)
    if pads is None:
        return hashlib.sha256(message).hexdigest()
    inner, outer = pads[0].copy(), pads[1].copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.hexdigest()


@functools.lru_cache(maxsize=64)
def _pads(salt: str) -> tuple[hashlib._Hash, hashlib._Hash] | None:
    """HMAC-SHA256 (RFC 2104) under a salt as two SHA-256 states with the key's inner and
    outer pads already hashed: a link then costs two copies (what ``hmac.HMAC.copy`` does,
    without its per-call setup); None when unsalted (plain SHA-256).
    ``tests/unit/core/test_chain_walk.py`` checks it against ``hmac`` for keys of every length."""
    if not salt:
        return None
    key = salt.encode()
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


_BLOCK = 64  # SHA-256's block size in bytes
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


def chain(
    events: Iterable[Mapping[str, Any]], prev_hash: str = GENESIS, salt: str = ""
) -> list[str]:
    """The hashes of consecutive encoded events starting after ``prev_hash``."""
    out = []
    for event in events:
        prev_hash = link_hash(prev_hash, event, salt)
        out.append(prev_hash)
    return out


Link = tuple[int, str | None, str | None, "str | Mapping[str, Any]"]
"""One stored link: (version, prev_hash, hash, event as canonical JSON text or as data)."""


@dataclass(frozen=True, slots=True)
class Walk:
    """How far a chain holds: the last good version and hash, and the first break if any."""

    version: int
    head_hash: str
    broken_at: int | None = None
    problem: str = ""

    @property
    def ok(self) -> bool:
        """True when every link held."""
        return self.broken_at is None


def walk(
    links: Iterable[Link], head_hash: str = GENESIS, version: int = 0, salt: str = ""
) -> Walk:
    """Walk links that follow ``version``/``head_hash``; stop at the first broken one.

    A link breaks when its version is not the next one, its prev_hash is not the hash before
    it, or its hash is not that of its event chained to the hash before it.
    """
    pads, sha256 = _pads(salt), hashlib.sha256
    for number, prev_hash, digest, event in links:
        expected = version + 1
        if number == expected and prev_hash == head_hash:
            text = event if isinstance(event, str) else canonical_json(event)
            message = (head_hash + text).encode()
            if pads is None:
                hashed = sha256(message)
            else:  # link_hash_text, inline: this loop runs for every event of every fold
                inner, hashed = pads[0].copy(), pads[1].copy()
                inner.update(message)
                hashed.update(inner.digest())
            if digest == hashed.hexdigest():
                head_hash, version = str(digest), expected
                continue
        return _broken(number, prev_hash, head_hash, version)
    return Walk(version, head_hash)


def _broken(number: int, prev_hash: str | None, head_hash: str, version: int) -> Walk:
    """The walk stopped at this link: why, in the words every reader of the chain gives."""
    expected = version + 1
    if number != expected:
        problem = (
            f"expected version {expected} here, found version {number} "
            "(an event is missing, duplicated or out of order)"
        )
    elif prev_hash != head_hash:
        problem = "prev_hash does not link to the previous event's hash"
    else:
        problem = "hash does not match the event (the event or its hash was edited)"
    return Walk(version, head_hash, broken_at=expected, problem=problem)
