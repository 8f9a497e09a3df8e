"""Sheepshead's cards: the 14 trumps, the three fail suits, card points and trick winners."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.cards import deck_32

DECK: tuple[str, ...] = tuple(deck_32())
TRUMP_ORDER: tuple[str, ...] = (
    "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D",
)  # fmt: skip
FAIL_ORDER = "ATK987"
FAIL_SUITS = "CSH"
TRUMP = "T"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
JACK_CALL_ORDER: tuple[str, ...] = ("JH", "JS", "JC")
FAIL_ACES: tuple[str, ...] = ("AC", "AS", "AH")
FAIL_TENS: tuple[str, ...] = ("TC", "TS", "TH")

_TRUMP_RANK = {c: i for i, c in enumerate(TRUMP_ORDER)}
_SUIT = {c: (TRUMP if c in _TRUMP_RANK else c[1]) for c in DECK}
SUIT_OF: Mapping[str, str] = _SUIT  # effective_suit as a table (hot paths index it)
_POWER = {
    c: (100 - _TRUMP_RANK[c] if c in _TRUMP_RANK else 10 - FAIL_ORDER.index(c[0])) for c in DECK
}
_POINTS_OF = {c: POINTS[c[0]] for c in DECK}
# Per led suit, each card's strength in a trick: trumps above the led suit above the rest
# (which never wins: the led card itself is of the led suit or a trump), then by power.
_STRENGTH = {
    led: {c: 2000 * (_SUIT[c] == TRUMP) + 1000 * (_SUIT[c] == led) + _POWER[c] for c in DECK}
    for led in TRUMP + FAIL_SUITS
}
# Display order: trumps high to low, then clubs, spades, hearts high to low.
SORT_ORDER: tuple[str, ...] = TRUMP_ORDER + tuple(r + s for s in FAIL_SUITS for r in FAIL_ORDER)
_SORT_INDEX = {c: i for i, c in enumerate(SORT_ORDER)}


def is_trump(card: str) -> bool:
    """True for the queens, the jacks and every diamond."""
    return card in _TRUMP_RANK


def effective_suit(card: str) -> str:
    """``T`` for a trump, else the printed fail suit (C, S or H)."""
    return _SUIT[card]


def points(card: str) -> int:
    """The card points of one card."""
    return POINTS[card[0]]


def total_points(cards: Sequence[str]) -> int:
    """The card points of several cards."""
    return sum(map(_POINTS_OF.__getitem__, cards))


def trick_winner_index(cards: Sequence[str]) -> int:
    """The index of the winning card: the highest trump, else the highest of the led suit."""
    strengths = list(map(_STRENGTH[_SUIT[cards[0]]].__getitem__, cards))
    return strengths.index(max(strengths))  # the first of equals, as max() gives it


def sort_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """Cards in display order (trumps high to low, then fail suits)."""
    return tuple(sorted(cards, key=_SORT_INDEX.__getitem__))


def power(card: str) -> int:
    """Trick-taking strength: every trump above every fail card, fail by rank."""
    return _POWER[card]
