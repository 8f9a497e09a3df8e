"""Rank facts of Shithead's cards: ranks in order, each card's rank and sort key (card codes
index the tables: a lookup, not a parse). The rank rule of a set on the pile, which depends on
the options, is ``domain.games.shithead.options.rank_problem_of``."""

from __future__ import annotations

from domain.cards import deck_54, rank

RANKS = "23456789TJQKA"
RANK_VALUE = {r: i for i, r in enumerate(RANKS, start=2)} | {"*": 99}
_SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}
ProblemTable = dict[str, dict[str, "str | None"]]
PlayableTable = dict[str, frozenset[str]]
Tables = tuple[ProblemTable, frozenset[str], dict[str, str], PlayableTable]


def _order(card: str) -> tuple[int, int]:
    if card in ("RJ", "BJ"):
        return (99, 0 if card == "RJ" else 1)
    return (RANK_VALUE[card[0]], _SUIT_ORDER[card[1]])


ORDER: dict[str, tuple[int, int]] = {card: _order(card) for card in deck_54()}
SORT_KEY: dict[str, int] = {card: r * 4 + s for card, (r, s) in ORDER.items()}  # ORDER as one int
RANK: dict[str, str] = {card: rank(card) for card in deck_54()}  # each card's rank, looked up
