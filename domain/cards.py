"""Card codes and decks: rank then suit (``TH``, ``AS``); jokers are ``RJ`` and ``BJ``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NewType

from domain.errors import InvalidCard

Card = NewType("Card", str)

RANKS = "23456789TJQKA"
SUITS = "CDHS"
JOKERS: tuple[Card, ...] = (Card("RJ"), Card("BJ"))
JOKER_RANK = "*"

_NATURAL = frozenset(r + s for r in RANKS for s in SUITS)
_ALL = _NATURAL | frozenset(JOKERS)


def parse_card(code: object) -> Card:
    """Return the card for a code, or raise InvalidCard naming the bad code.

    >>> parse_card("TH"), parse_card("RJ")
    ('TH', 'RJ')
    >>> parse_card("10H")
    Traceback (most recent call last):
    ...
    domain.errors.InvalidCard: '10H' is not a card code (rank 2-9 T J Q K A + suit C D H S, ...)
    >>> parse_card("th")
    Traceback (most recent call last):
    ...
    domain.errors.InvalidCard: 'th' is not a card code (rank 2-9 T J Q K A + suit C D H S, ...)
    """
    if not isinstance(code, str) or code not in _ALL:
        raise InvalidCard(
            f"{code!r} is not a card code (rank 2-9 T J Q K A + suit C D H S, or RJ/BJ)"
        )
    return Card(code)


def parse_cards(codes: object) -> tuple[Card, ...]:
    """Parse a list of card codes, rejecting a non-list and any bad code.

    >>> parse_cards(["AS", "2C", "BJ"])
    ('AS', '2C', 'BJ')
    >>> parse_cards("AS")
    Traceback (most recent call last):
    ...
    domain.errors.InvalidCard: expected a list of card codes, got 'AS'
    """
    if not isinstance(codes, list | tuple):
        raise InvalidCard(f"expected a list of card codes, got {codes!r}")
    for code in codes:  # the check of parse_card inline (a hot path); it raises the error
        if not isinstance(code, str) or code not in _ALL:
            parse_card(code)
    return tuple(codes)  # every code was checked above


def is_joker(card: str) -> bool:
    """True for RJ and BJ."""
    return card in ("RJ", "BJ")


def rank(card: str) -> str:
    """The rank character of a card, ``*`` for a joker."""
    return JOKER_RANK if card in ("RJ", "BJ") else card[0]


def suit(card: str) -> str:
    """The suit character of a card, ``*`` for a joker."""
    return JOKER_RANK if card in ("RJ", "BJ") else card[1]


def make_deck(ranks: str, suits: str = SUITS, jokers: int = 0) -> tuple[Card, ...]:
    """A deck in canonical order: suit-major in SUITS order, ranks ascending, then RJ, BJ."""
    cards = [Card(r + s) for s in suits for r in ranks]
    return (*cards, *JOKERS[:jokers])


def deck_52() -> tuple[Card, ...]:
    """The standard 52-card deck."""
    return make_deck(RANKS)


def deck_54() -> tuple[Card, ...]:
    """52 cards plus RJ and BJ."""
    return make_deck(RANKS, jokers=2)


def deck_24() -> tuple[Card, ...]:
    """9 to ace in four suits (Sixty-Six)."""
    return make_deck("9TJQKA")


def deck_20() -> tuple[Card, ...]:
    """10 to ace in four suits (Schnapsen-style Sixty-Six)."""
    return make_deck("TJQKA")


def deck_32() -> tuple[Card, ...]:
    """7 to ace in four suits (Sheepshead)."""
    return make_deck("789TJQKA")


def sort_cards(cards: Iterable[str], order: Sequence[str]) -> list[str]:
    """Cards sorted by their position in ``order`` (a deck in the game's own order)."""
    index = {c: i for i, c in enumerate(order)}
    return sorted(cards, key=index.__getitem__)
