"""What the API shows of a stored game (no I/O): its seats, its head hash as a receipt, what
it reveals once over, a fork's origin, an event with every stored field."""

from __future__ import annotations

from typing import Any

from service.store.port import GameMeta, StoredEvent


def public_seats(meta: GameMeta) -> list[dict[str, Any]]:
    """Every seat as anyone may see it (never a token hash)."""
    return [s.public(i) for i, s in enumerate(meta.seats)]


def receipt(meta: GameMeta, head_hash: str, name: str = "head_hash") -> dict[str, str]:
    """The head hash as a receipt, for salted chains only (safe to publish at every version)."""
    return {name: head_hash} if meta.secret else {}


def revealed(meta: GameMeta, state: Any) -> dict[str, Any]:
    """What a finished game reveals: the seed (and with a lifecycle, the server's secret)."""
    event = getattr(state, "revealed", None)
    if event is None:
        return {"seed": meta.seed}
    return {"seed": event.seed, "secret": event.secret}


def forked(meta: GameMeta) -> dict[str, Any]:
    """A fork's origin as summaries and listings show it (nothing for other games)."""
    return {} if meta.forked is None else {"forked": dict(meta.forked)}


def full_event(stored: StoredEvent) -> dict[str, Any]:
    """A stored event with every stored field (a finished game's log)."""
    out: dict[str, Any] = {
        "version": stored.version,
        "event": stored.event,
        "prev_hash": stored.prev_hash,
        "hash": stored.hash,
    }
    if stored.command is not None:
        out["command"] = stored.command
        out["batch"] = stored.batch
    return out
