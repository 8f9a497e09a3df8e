"""The fair-dealing formulas (specified with test vectors in docs/fairness.md).

Every input is 32 bytes written as 64 lowercase hex digits:

- ``commitment(secret)  = hex SHA-256("cardroom/commitment/1" || 0x00 || secret)``
- ``chain_salt(secret)  = hex SHA-256("cardroom/chain-salt/1" || 0x00 || secret)``
- ``deal_seed(secret, e_0 .. e_{n-1}) = hex SHA-256("cardroom/deal-seed/1" || 0x00 || secret
  || e_0 || ... || e_{n-1})`` with the seats' entropy in seat order.
- ``salted_deck(secret, c) = hex SHA-256("cardroom/deck-commitment/1" || 0x00 || secret || c)``:
  the deck commitment ``c`` (docs/shuffle.md) a prearranged game publishes, so that nobody can
  test candidate seeds against it before the secret is revealed.

The server draws ``secret`` at creation and publishes only its commitment; each seat adds
``e_seat`` when it is filled; the seed of the game (and so every deal, ``docs/shuffle.md``) is
``deal_seed``. Nobody who lacks one input can foresee the seed, and the secret cannot be changed
after the commitment without the commitment showing it.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence

from domain.errors import InvalidSetup

HEX32 = re.compile(r"^[0-9a-f]{64}$")

COMMITMENT_LABEL = b"cardroom/commitment/1"
SALT_LABEL = b"cardroom/chain-salt/1"
SEED_LABEL = b"cardroom/deal-seed/1"
DECK_LABEL = b"cardroom/deck-commitment/1"


def is_hex32(value: object) -> bool:
    """True for 32 bytes as 64 lowercase hex digits."""
    return isinstance(value, str) and HEX32.match(value) is not None


def check_hex32(value: object, what: str) -> str:
    """The value when it is 64 lowercase hex digits, InvalidSetup naming ``what`` otherwise."""
    if not is_hex32(value):
        raise InvalidSetup(f"{what} must be 64 lowercase hex digits (32 bytes), got {value!r}")
    return str(value)


def _digest(label: bytes, *parts: str) -> str:
    return hashlib.sha256(label + b"\x00" + b"".join(bytes.fromhex(p) for p in parts)).hexdigest()


def commitment(secret: str) -> str:
    """The published commitment to the server's secret."""
    return _digest(COMMITMENT_LABEL, check_hex32(secret, "the secret"))


@functools.lru_cache(maxsize=4096)
def chain_salt(secret: str) -> str:
    """The per-game salt of the hash chain (revealed with the secret); remembered per secret
    (every action and every catch-up of a game names it)."""
    return _digest(SALT_LABEL, check_hex32(secret, "the secret"))


def deal_seed(secret: str, entropy: Sequence[str]) -> str:
    """The game's seed from the server's secret and every seat's entropy, in seat order."""
    parts = [check_hex32(secret, "the secret")]
    parts += [check_hex32(e, f"seat {i}'s entropy") for i, e in enumerate(entropy)]
    return _digest(SEED_LABEL, *parts)


def salted_deck(secret: str, deck_commitment: str) -> str:
    """A prearranged game's published deck commitment: bound to the deck and to the secret."""
    parts = (check_hex32(secret, "the secret"), check_hex32(deck_commitment, "the deck commitment"))
    return _digest(DECK_LABEL, *parts)
