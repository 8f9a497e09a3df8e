"""The stored commands of the lifecycle's batches (public: no secret in them).

The service stores one beside each batch; replays read them back to re-run the batch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.default_move import RULE


def create_command(
    *,
    players: int,
    options: Mapping[str, Any],
    dealer: int | None,
    filled: Sequence[tuple[int, str]],
    bots: Sequence[int] | None = None,
    salted_deck: bool = False,
    abort_lapses: bool = False,
    awaiting: Sequence[tuple[int, str]] = (),
) -> dict[str, Any]:
    """The stored command of a creation batch (no secret in it: commands are public;
    ``awaiting``: the bot seats whose bot sends its own entropy, with their fallbacks)."""
    command = {
        "kind": "create",
        "players": players,
        "options": dict(options),
        "dealer": dealer,
        "filled": [[seat, entropy] for seat, entropy in filled],
    }
    if salted_deck:
        command["salted_deck"] = True
    if abort_lapses:
        command["abort_lapses"] = True
    if awaiting:
        command["awaiting"] = [[seat, fallback] for seat, fallback in awaiting]
    return command if bots is None else {**command, "bots": list(bots)}


def join_command(seat: int, entropy: str, source: str) -> dict[str, Any]:
    """The stored command of a join batch."""
    return {"kind": "join", "seat": seat, "entropy": entropy, "source": source}


def entropy_command(seat: int, entropy: str) -> dict[str, Any]:
    """The stored command of a bot's own entropy for the seat the game awaited it for."""
    return {"kind": "entropy", "seat": seat, "entropy": entropy}


def timeout_command(seat: int, at: int) -> dict[str, Any]:
    """The stored command of a timeout batch (the service's enforcement of a clock), naming the
    default move's rule it follows (a timeout recorded before there was one has no ``rule``:
    its move was the heuristic bot's)."""
    return {"kind": "timeout", "seat": seat, "at": at, "rule": RULE}
