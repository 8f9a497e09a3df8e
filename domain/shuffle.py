"""The portable, auditable shuffle and the deck commitment (specified in docs/shuffle.md).

A byte stream: block k = SHA-256(utf8(seed) || 0x00 || utf8(label) || 0x00 || uint64_be(k)).
Each draw takes the first 8 bytes of the next block as a big-endian integer x and accepts it
when x < 2**64 - (2**64 mod n), returning x mod n (rejection sampling: no modulo bias).
Fisher-Yates runs i = len-1 down to 1 and swaps position i with draw(i + 1).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

_SPACE = 1 << 64
_WORD = struct.Struct(">Q")
_COUNTERS = [k.to_bytes(8, "big") for k in range(64)]  # enough for a 52-card shuffle, mostly


class SeededStream:
    """Uniform integers drawn from SHA-256 of (seed, label, counter)."""

    __slots__ = ("_counter", "_prefix")

    def __init__(self, seed: str, label: str) -> None:
        # the hash of seed || 0 || label || 0, copied and fed each counter: one prefix hashed once
        self._prefix = hashlib.sha256(seed.encode() + b"\x00" + label.encode() + b"\x00")
        self._counter = 0

    def _next64(self) -> int:
        block = self._prefix.copy()
        block.update(self._counter.to_bytes(8, "big"))
        self._counter += 1
        return int(_WORD.unpack_from(block.digest())[0])

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n < 1:
            raise ValueError("n must be positive")
        limit = _SPACE - (_SPACE % n)
        while True:
            x = self._next64()
            if x < limit:
                return x % n


def shuffled(items: Sequence[T], seed: str, label: str) -> list[T]:
    """Fisher-Yates over ``items`` driven by the (seed, label) stream; index 0 is the top.

    >>> shuffled(["2C", "3C", "4C", "5C", "6C"], "cardroom", "deal/0")
    ['4C', '6C', '3C', '5C', '2C']
    """
    out = list(items)
    # SeededStream.below inlined: every deal shuffles, and the calls were half its time
    prefix = hashlib.sha256(seed.encode() + b"\x00" + label.encode() + b"\x00")
    word = _WORD.unpack_from
    counters = _COUNTERS
    counter = 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _SPACE - (_SPACE % n)
        while True:
            block = prefix.copy()
            block.update(counters[counter] if counter < 64 else counter.to_bytes(8, "big"))
            counter += 1
            x = word(block.digest())[0]
            if x < limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def seeded_choice(seed: str, label: str, n: int) -> int:
    """One uniform draw in [0, n) from its own labelled stream (e.g. the first dealer)."""
    return SeededStream(seed, label).below(n)


def deal_label(deal_number: int) -> str:
    """The stream label of a game's deal number (0 for the first deal of a match)."""
    return f"deal/{deal_number}"


def deck_commitment(seed: str, deck: Sequence[str]) -> str:
    """Hex SHA-256 of utf8(seed) || 0x00 || utf8(the deck's codes joined by ',').

    >>> deck_commitment("cardroom", ["2C", "3C"])
    '714fe55abad4b5a2679c8e5ad3915ded0bcabdfaa9ff40500c2f4d64cfc77fc1'
    """
    return hashlib.sha256(seed.encode() + b"\x00" + ",".join(deck).encode()).hexdigest()


def iter_draws(seed: str, label: str, n: int, count: int) -> Iterator[int]:
    """``count`` draws below ``n`` from one stream (used by the test vectors)."""
    stream = SeededStream(seed, label)
    for _ in range(count):
        yield stream.below(n)
