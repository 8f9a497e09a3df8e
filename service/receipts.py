"""Signed receipts (docs/fairness.md, "Signed receipts"): the server signs, with a long-lived
Ed25519 key, every receipt it gives a seat — the game, the version and the head hash there — so
a seat can show anyone what the server acknowledged, and ``cardroom replay verify --receipts R
--public-key K`` checks each signature.

The signed message: ``"cardroom/receipt/1" || 0x00 || utf8(game id) || 0x00 || ascii(version)
|| 0x00 || ascii(head hash)``. The key is a PKCS#8 PEM file (``CARDROOM_SIGNING_KEY``; ``cardroom
serve`` puts it in its data folder), made on first use, readable by its owner only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from domain.fairness import is_hex32
from service.store.port import GameMeta

LABEL = b"cardroom/receipt/1"
LOG_LABEL = b"cardroom/log-head/1"
ALGORITHM = "Ed25519"


def message(game_id: str, version: int, head_hash: str) -> bytes:
    """The bytes a receipt's signature is made over."""
    return b"\x00".join((LABEL, game_id.encode(), str(int(version)).encode(), head_hash.encode()))


def log_head_message(index: int, head_hash: str) -> bytes:
    """The bytes the commitment log's signed head is made over."""
    return b"\x00".join((LOG_LABEL, str(int(index)).encode(), head_hash.encode()))


class Signer:
    """The server's receipt key."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                            serialization.PublicFormat.Raw)  # fmt: skip
        self.public_key = raw.hex()

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Signer:
        """The key in ``path``, made there first if there is none (one process wins a race:
        the file is created exclusively, then every process reads the same key)."""
        where = Path(path)
        if not where.exists():
            where.parent.mkdir(parents=True, exist_ok=True)
            pem = Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            try:
                fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                pass  # another process made it first: read theirs
            else:
                with os.fdopen(fd, "wb") as out:
                    out.write(pem)
                    out.flush()
                    os.fsync(out.fileno())
        key = serialization.load_pem_private_key(where.read_bytes(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{where} does not hold an Ed25519 private key")
        return cls(key)

    def sign(self, game_id: str, version: int, head_hash: str) -> str:
        """The receipt's signature, 128 hex digits."""
        return self._key.sign(message(game_id, version, head_hash)).hex()

    def sign_log_head(self, index: int, head_hash: str) -> str:
        """The commitment log's head's signature, 128 hex digits."""
        return self._key.sign(log_head_message(index, head_hash)).hex()


def signed(signer: Signer | None, meta: GameMeta, version: int, head_hash: str) -> dict[str, str]:
    """``receipt_signature`` of the receipt (salted chains, when the server has a key)."""
    if signer is None or not meta.secret:
        return {}
    return {"receipt_signature": signer.sign(meta.id, version, head_hash)}


def signature_holds(
    public_key: str, game_id: str, version: int, head_hash: str, signature: str
) -> bool:
    """True when ``signature`` is the key's over that receipt."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature), message(game_id, version, head_hash))
    except (ValueError, InvalidSignature):
        return False
    return True


def signatures(text: str) -> list[tuple[int, str, str | None]]:
    """``(version, head_hash, receipt_signature or None)`` of each receipt in a receipts file
    (as ``replays.fair.parse_receipts`` reads them; objects may carry a signature)."""
    data = json.loads(text)
    out: list[tuple[int, str, str | None]] = []
    for item in data if isinstance(data, list) else []:
        if isinstance(item, Mapping):
            signed = item.get("receipt_signature")
            out.append((item.get("version"), item.get("head_hash"),
                        signed if isinstance(signed, str) else None))  # type: ignore[arg-type]
        elif isinstance(item, list) and len(item) == 2:
            out.append((item[0], item[1], None))
    return out


def check_signatures(text: str, game_id: str, public_key: str) -> str:
    """"" when every receipt of the file is signed by the key for this game, else what is wrong."""
    if not is_hex32(public_key):
        return "the public key is 64 hex digits (GET /fairness/key)"
    for index, (version, head, signed) in enumerate(signatures(text)):
        if signed is None:
            return f"receipt {index} (version {version}) carries no receipt_signature"
        if not signature_holds(public_key, game_id, version, head, signed):
            return f"receipt {index} (version {version}): the signature is not that key's"
    return ""


def described(signer: Signer | None) -> dict[str, Any]:
    """What ``GET /fairness/key`` answers."""
    return {
        "algorithm": ALGORITHM,
        "public_key": signer.public_key if signer else None,
        "message": "'cardroom/receipt/1' 0x00 game-id 0x00 version 0x00 head-hash",
    }
