"""The keys of a game's deal (``domain.lifecycle.Keys``): the service's side of fair dealing, it
draws the secrets the pure domain only derives from.

``domain.lifecycle`` and ``domain.fairness`` hold the formulas (docs/fairness.md); here the
server's secret and the entropy of bots and of clients that send none are drawn, the keys of a
stored game are read back from its metadata, and a retried join's token is re-derived.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

from domain.fairness import is_hex32
from domain.lifecycle import Keys
from service.errors import InvalidRequest
from service.store.port import GameMeta


def draw_secret() -> str:
    """A fresh 256-bit server secret (64 hex digits)."""
    return secrets.token_hex(32)


def draw_entropy() -> str:
    """Entropy the server draws for a bot or a client that sent none."""
    return secrets.token_hex(32)


def creation_keys(seed: str | None, deal: Mapping[str, Any] | None) -> Keys:
    """The keys of a new game: a fresh secret, and a chosen seed or deal (prearranged)."""
    return Keys(
        secret=draw_secret(), seed=seed, deal=None if deal is None else dict(deal)
    )


def keys_of(meta: GameMeta) -> Keys | None:
    """The keys of a stored game; None for a format 1 game (no lifecycle)."""
    if not meta.secret:
        return None
    seed = meta.seed if meta.prearranged and meta.seed else None
    return Keys(secret=meta.secret, seed=seed, deal=meta.deal)


def check_entropy(entropy: object) -> str | None:
    """A client's entropy: None (the server draws it) or 64 lowercase hex digits."""
    if entropy is None or is_hex32(entropy):
        return entropy  # type: ignore[return-value]
    raise InvalidRequest("entropy must be 64 lowercase hex digits (32 bytes)")


JOIN_KEY_LENGTH = 22  # characters at least of a join's Idempotency-Key (16 random bytes: 22)


def check_join_key(idempotency_key: str, entropy: str | None) -> None:
    """A join's Idempotency-Key gets its token back to whoever repeats the request: the key
    and the client's own entropy are what the client knows. The entropy is public once the
    join is stored (``lifecycle.SeatFilled``), so the key must be a secret too: long enough to
    be drawn at random, not guessed."""
    if entropy is None:
        raise InvalidRequest("a join with an Idempotency-Key sends its own entropy (64 hex "
                             "digits): a retry sends the same, and only it gets the token")
    if len(idempotency_key) < JOIN_KEY_LENGTH:
        raise InvalidRequest(f"a join's Idempotency-Key is a secret: at least "
                             f"{JOIN_KEY_LENGTH} characters drawn at random (e.g. 16 random "
                             f"bytes in base64url)")  # fmt: skip


def join_token(secret: str, seat: int, idempotency_key: str, request: str) -> str:
    """The token of a join made with an Idempotency-Key: the same on every retry of the same
    request (``request``: its digest, the client's entropy in it).

    Derived from the game's secret, so it is never stored; once the game is over (when the
    secret is revealed) a token can no longer act.
    """
    message = f"cardroom/join-token\x00{seat}\x00{idempotency_key}\x00{request}".encode()
    digest = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")
