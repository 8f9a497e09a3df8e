"""Snapshots of folded states, so a cold read folds at most ``EVERY`` events, not the history.

An action whose batch crosses a multiple of ``EVERY`` stores the state it folded to beside the
stream, in the same append (``<ns>:game:{<id>}:snap``, one per game, overwritten): the version,
the head hash at that version, the code it was made by, and the state as plain data
(``domain.state_codec``: JSON, compressed).
A game that is over keeps no snapshot (the store drops it: finished games are read rarely, and
long after, by code whose snapshots would not match anyway). A read with nothing cached takes
the snapshot only when

- it was made by the same code (``CODE``: a digest of the rules' sources and this format), else
  a snapshot of a state whose shape may have changed is ignored (the stream is folded whole);
- the stream's entry at its version still carries its head hash, and every event after it links
  to that hash (``folding.fold_stored`` walks them), else the whole stream is folded;
- it reads back as data of a state (``domain.state_codec.from_data``): the data names no code
  and none runs; the only objects made are plain values and the domain's own dataclasses.

Whoever can write Redis can still plant a well-formed state for one game; they could equally
rewrite its metadata there, so a snapshot widens nothing Redis access grants (docs/decisions.md).
"""

from __future__ import annotations

import hashlib
import logging
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from domain.state_codec import from_data, to_data

log = logging.getLogger(__name__)

EVERY = 32  # events between snapshots (a cold read folds fewer than this many)
FORMAT = b"2"  # 1: pickles (no longer read: other code, so ignored); 2: domain.state_codec JSON
# zlib's fastest level: a snapshot is taken on an action's path (level 6 took 2.8x the time for
# output 12 % smaller: 0.16 ms against 0.06 ms for a 9 KB Shithead state); any level reads back
LEVEL = 1
MAX_STATE_BYTES = 8 << 20  # a snapshot's state decompresses to at most this many bytes


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A folded state at ``version`` (``head_hash``: the chain's hash there), as stored."""

    version: int
    head_hash: str
    code: str
    state: bytes  # the state's data: compressed JSON


@cache
def code() -> str:
    """The digest of the code a snapshot's state depends on (the domain's sources)."""
    digest = hashlib.sha256(FORMAT)
    root = Path(__file__).resolve().parents[1] / "domain"
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def due(before: int, after: int) -> bool:
    """Whether a batch from version ``before`` to ``after`` crosses a snapshot point."""
    return after // EVERY > before // EVERY


def take(state: Any, version: int, head_hash: str) -> Snapshot | None:
    """The snapshot of a state folded to ``version`` (None, logged, for a state the codec
    cannot write: the action goes on without one)."""
    try:
        data = orjson.dumps(to_data(state))
    except TypeError:
        log.exception("no snapshot of a state at version %s", version)
        return None
    return Snapshot(version, head_hash, code(), zlib.compress(data, LEVEL))


def to_bytes(snapshot: Snapshot | None) -> bytes:
    """The stored form: ``<version>:<head hash>:<code>:`` then the compressed JSON (b"": none)."""
    if snapshot is None:
        return b""
    head = f"{snapshot.version}:{snapshot.head_hash}:{snapshot.code}:".encode()
    return head + snapshot.state


def from_bytes(raw: bytes | None) -> Snapshot | None:
    """A snapshot from its stored form (None for none, or for anything unreadable)."""
    if not raw:
        return None
    try:
        version, head, made_by, blob = raw.split(b":", 3)
        return Snapshot(int(version), head.decode(), made_by.decode(), blob)
    except ValueError:
        return None


def state_of(snapshot: Snapshot) -> Any | None:
    """The snapshot's state when this code made it and it reads back as a state's data; None
    otherwise (a damaged or foreign snapshot is only a missed shortcut)."""
    if snapshot.code != code():
        return None
    try:
        inflate = zlib.decompressobj()
        text = inflate.decompress(snapshot.state, MAX_STATE_BYTES)
        if inflate.unconsumed_tail or not inflate.eof:
            return None  # larger than any state, or cut short
        return from_data(orjson.loads(text))
    except Exception:  # the data of no state this code makes: the stream is folded instead
        log.warning("ignored the snapshot at version %s", snapshot.version, exc_info=True)
        return None
