"""Rank facts of Shithead's cards, and the tables ``Rules`` builds from them once per game.

The rank rule of a set on the pile (``rank_problem_of``, R7 and §16) is written once, here.
``Rules`` tabulates it, and which cards are transparent and what rank each card counts as, for
its options when it is built (``tables``): the hot paths (legal_actions, decide) then look a
pair up instead of re-running the logic. Card codes index the tables (a lookup, not a parse).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.cards import deck_54, rank

if TYPE_CHECKING:
    from domain.games.shithead.options import Rules

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
RANK: dict[str, str] = {card: rank(card) for card in deck_54()}  # rank() without the call


def rank_problem_of(rules: Rules, r: str, t: str) -> str | None:
    """Why rank ``r`` may not go on a pile whose pile rank is ``t`` (None: it may)."""
    if r == "*":
        return None
    if r == "T" and rules.ten_burns:
        return "too_high" if rules.eights_low and t == "8" else None
    if (
        (r == "2" and rules.two_is_reset)
        or (r == "8" and rules.eights_reverse_transparent)
        or (r == "7" and rules.sevens_glass)
        or (r == "5" and rules.fives_low)
    ):
        return None
    for low, active in (("7", rules.sevens_low), ("5", rules.fives_low), ("8", rules.eights_low)):
        if t == low and active:
            return None if RANK_VALUE[r] <= RANK_VALUE[low] else "too_high"
    return None if RANK_VALUE[r] >= RANK_VALUE[t] else "too_low"


def is_transparent(rules: Rules, card: str) -> bool:
    """Cards the next set does not have to beat (§16.2)."""
    r = RANK[card]
    if r == "*":
        return rules.joker_transparent
    return (r == "8" and rules.eights_reverse_transparent) or (r == "7" and rules.sevens_glass)


def counting_rank(rules: Rules, card: str) -> str:
    """The rank a card counts as on top of the pile: a joker as a 7 or a 2 (R7.3)."""
    r = RANK[card]
    if r == "*":
        return "7" if rules.joker_mode == "skip_seven" else "2"
    return r


def tables(rules: Rules) -> Tables:
    """Every (pile rank, rank) problem, the transparent cards, each card's counting rank, and
    for each pile rank the cards whose rank has no problem on it (``rank_problem_of``)."""
    return _tables(rules, _rank_flags(rules))


def _rank_flags(rules: Rules) -> tuple[object, ...]:
    """Every option the three tables depend on: rules that agree on these share the tables."""
    return (rules.ten_burns, rules.eights_low, rules.two_is_reset,
            rules.eights_reverse_transparent, rules.sevens_glass, rules.fives_low,
            rules.sevens_low, rules.joker_transparent, rules.joker_mode)


_BUILT: dict[tuple[object, ...], Tables] = {}


def _tables(rules: Rules, flags: tuple[object, ...]) -> Tables:
    # Built once per combination of flags (a few hundred at most), not once per fold.
    built = _BUILT.get(flags)
    if built is None:
        problems = {t: {r: rank_problem_of(rules, r, t) for r in RANK_VALUE} for t in RANKS}
        clear = frozenset(card for card in RANK if is_transparent(rules, card))
        playable = {
            t: frozenset(card for card, r in RANK.items() if problems[t][r] is None)
            for t in RANKS
        }
        built = problems, clear, {card: counting_rank(rules, card) for card in RANK}, playable
        _BUILT[flags] = built
    return built
