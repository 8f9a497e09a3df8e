"""Digests of the service layer (no I/O): a seat token's stored hash, a request's fingerprint
(idempotency keys), the game id a keyed creation gets, the head hash after a batch."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from domain.chain import GENESIS, link_hash
from domain.events import Encoded, canonical_json


def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def request_digest(body: Mapping[str, Any]) -> str:
    """What makes two requests the same request (for idempotency keys)."""
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def fingerprint(seat: int, action: Mapping[str, Any], expected_version: int) -> str:
    """The digest of an action request."""
    return request_digest(
        {"seat": seat, "action": dict(action), "expected_version": expected_version}
    )


def creation_fingerprint(
    game: str,
    seats: Any,
    options: Any,
    seed: str | None,
    dealer: int | None,
    deal: Any,
    forked: Any = None,
) -> str:
    """The digest of a creation request (``forked``: a fork's origin)."""
    body = {
        "game": game, "seats": seats, "options": options, "seed": seed, "dealer": dealer,
        "deal": deal,
    }  # fmt: skip
    return request_digest(body if forked is None else {**body, "forked": forked})


def game_id_for_key(idempotency_key: str) -> str:
    """The game id a creation with this Idempotency-Key gets (the same for every retry)."""
    digest = hashlib.sha256(b"cardroom-create\x00" + idempotency_key.encode()).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode()


def rematch_of(game_id: str) -> str:
    """The id of a finished game's rematch (``Forking.rematch_game``): the game created under
    the Idempotency-Key ``rematch of <id>``, which no client can send (it holds spaces), so
    every seat proposing or accepting it reaches the same game and nobody can take its id."""
    return game_id_for_key(rematch_key(game_id))


def rematch_key(game_id: str) -> str:
    """The creation key of a game's rematch."""
    return f"rematch of {game_id}"


def head(encoded: Sequence[Encoded], prev: str | None = None, salt: str = "") -> str:
    """The head hash after ``encoded``, linked on from ``prev`` (None: the chain's start)."""
    head = prev if prev is not None else GENESIS
    for event in encoded:
        head = link_hash(head, event, salt)
    return head
