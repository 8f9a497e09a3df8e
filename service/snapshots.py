"""Snapshots of folded states, so a cold read folds at most ``EVERY`` events, not the history.

An action whose batch crosses a multiple of ``EVERY`` stores the state it folded to beside the
stream, in the same append (``<ns>:game:{<id>}:snap``, one per game, overwritten): the version,
the head hash at that version, the code it was made by, and the state (pickled, compressed).
A game that is over keeps no snapshot (the store drops it: finished games are read rarely, and
long after, by code whose snapshots would not match anyway). A read with nothing cached takes
the snapshot only when

- it was made by the same code (``CODE``: a digest of the rules' sources and this format), else
  a snapshot of a state whose shape may have changed is ignored (the stream is folded whole);
- the stream's entry at its version still carries its head hash, and every event after it links
  to that hash (``folding.fold_stored`` walks them), else the whole stream is folded;
- it unpickles to classes of the domain only (a restricted unpickler: no other callable).
"""

from __future__ import annotations

import hashlib
import io
import pickle
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

EVERY = 32  # events between snapshots (a cold read folds fewer than this many)
FORMAT = b"1"
_SAFE_BUILTINS = frozenset(
    ("tuple", "list", "dict", "set", "frozenset", "int", "str", "bool", "float", "bytes")
)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A folded state at ``version`` (``head_hash``: the chain's hash there), as stored."""

    version: int
    head_hash: str
    code: str
    state: bytes  # compressed pickle


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


def take(state: Any, version: int, head_hash: str) -> Snapshot:
    """The snapshot of a state folded to ``version``."""
    blob = zlib.compress(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), 6)
    return Snapshot(version, head_hash, code(), blob)


def to_bytes(snapshot: Snapshot) -> bytes:
    """The stored form: ``<version>:<head hash>:<code>:`` then the compressed pickle."""
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


class _DomainOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module.startswith("domain.") or (module == "builtins" and name in _SAFE_BUILTINS):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")


def state_of(snapshot: Snapshot) -> Any | None:
    """The snapshot's state when this code made it and it reads back; None otherwise."""
    if snapshot.code != code():
        return None
    try:
        return _DomainOnly(io.BytesIO(zlib.decompress(snapshot.state))).load()
    except Exception:  # a damaged or foreign snapshot is only a missed shortcut
        return None
