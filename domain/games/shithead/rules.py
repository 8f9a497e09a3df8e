"""The rules that decide and legal_actions share: tiers, legality on the pile, burns, seats."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, groupby

from domain.cards import rank
from domain.games.shithead.options import Rules
from domain.games.shithead.ranks import ORDER, RANK, RANK_VALUE, SORT_KEY
from domain.games.shithead.state import Cards, State

__all__ = ["RANK_VALUE"]  # with the functions below: the rules' vocabulary

HAND, FACE_UP, FACE_DOWN, GONE = "hand", "face_up", "face_down", "out"
START_RANKS = "3456789TJQKA2"
_KEY = SORT_KEY.__getitem__
_RANK_OF = RANK.__getitem__


def card_order(card: str) -> tuple[int, int]:
    """Sort key: rank low to high (jokers last), then suit."""
    return ORDER[card]


def sort_cards(cards: Cards | list[str]) -> Cards:
    """Cards in canonical order (rank, then suit)."""
    return tuple(sorted(cards, key=_KEY))


def face_up_cards(state: State, seat: int) -> Cards:
    """Every face-up card of a seat, slot by slot, bottom of a stack first."""
    return tuple(c for stack in state.face_up[seat] for c in stack)


def face_down_slots(state: State, seat: int) -> tuple[int, ...]:
    """The slots that still hold a face-down card."""
    return tuple(i for i, c in enumerate(state.face_down[seat]) if c is not None)


def tier(state: State, seat: int) -> str:
    """The zone the seat must play from now (R6.3), or ``out``."""
    if state.hands[seat]:
        return HAND
    if any(state.face_up[seat]):
        return FACE_UP
    if any(c is not None for c in state.face_down[seat]):
        return FACE_DOWN
    return GONE


def holds_nothing(state: State, seat: int) -> bool:
    """True when the seat has no hand, face-up or face-down card."""
    return tier(state, seat) == GONE


def next_active(state: State, seat: int, direction: int) -> int:
    """The first seat after ``seat`` in ``direction`` that is not out (R0.2)."""
    n = state.info.players
    out = state.out
    candidate = (seat + direction) % n
    if candidate not in out:  # the usual case: the next seat plays
        return candidate
    for step in range(2, n + 1):
        candidate = (seat + direction * step) % n
        if candidate not in out:
            return candidate
    return seat


def transparent(rules: Rules, card: str) -> bool:
    """Cards the next set does not have to beat (§16.2)."""
    return card in rules.clear_cards


def effective_top(rules: Rules, pile: Cards) -> str | None:
    """The topmost pile card that counts for legality (R7.3), None if there is none."""
    clear = rules.clear_cards
    for card in reversed(pile):
        if card not in clear:
            return card
    return None


def play_problem(
    rules: Rules, pile: Cards, lead_count: int, r: str, count: int, exempt: bool = False
) -> str | None:
    """Why a set of ``count`` cards of rank ``r`` may not go on the pile (None: it may).

    The one legality check of a set (R7, §16): count first (match_count), then rank against the
    pile_rank. legal_sets applies its two parts (rank once per rank, count per size).
    """
    if not pile:
        return None
    return count_problem(rules, True, lead_count, count, exempt) or rank_problem(
        rules, pile_rank(rules, pile), r
    )


def pile_rank(rules: Rules, pile: Cards) -> str | None:
    """The rank a set must beat: the effective top's (R7.3), None when nothing counts."""
    if not pile:
        return None
    clear = rules.clear_cards
    top = pile[-1]
    if top not in clear:  # the usual case: the top card counts
        return rules.counts_as[top]
    for card in reversed(pile):
        if card not in clear:
            return rules.counts_as[card]
    return None


def count_problem(
    rules: Rules, pile: bool, lead_count: int, count: int, exempt: bool
) -> str | None:
    """``wrong_count`` when match_count asks for the lead's size on a pile (R16)."""
    if pile and rules.match_count and not exempt and count != lead_count:
        return "wrong_count"
    return None


def rank_problem(rules: Rules, t: str | None, r: str) -> str | None:
    """Why rank ``r`` may not go on a pile whose pile_rank is ``t`` (None: it may)."""
    return None if t is None else rules.rank_problems[t][r]


def burn_cause(rules: Rules, played_rank: str, pile: Cards) -> str | None:
    """``ten`` or ``four_of_a_kind`` when the pile (after the play) burns (R8.3, R8.4)."""
    if played_rank == "T" and rules.ten_burns:
        return "ten"
    if rules.four_of_a_kind_burns and len(pile) >= 4:
        top = RANK[pile[-1]]
        if top != "*" and RANK[pile[-2]] == RANK[pile[-3]] == RANK[pile[-4]] == top:
            return "four_of_a_kind"
    return None


def reverses(rules: Rules, played_rank: str) -> bool:
    """Jokers (mode reverse) and 8s (eights_reverse_transparent) turn the direction (R8.2)."""
    if played_rank == "*":
        return rules.joker_mode == "reverse"
    return played_rank == "8" and rules.eights_reverse_transparent


def rank_groups(cards: Cards) -> dict[str, list[str]]:
    """The cards by rank, each group in canonical order."""
    groups: dict[str, list[str]] = {}
    for card in sorted(cards, key=_KEY):
        group = groups.get(RANK[card])
        if group is None:
            groups[RANK[card]] = [card]
        else:
            group.append(card)
    return groups


def rank_subsets(cards: Cards) -> list[Cards]:
    """Every non-empty same-rank subset of the cards, each in canonical order."""
    out: list[Cards] = []
    for group in rank_groups(cards).values():
        for size in range(1, len(group) + 1):
            out.extend(combinations(group, size))
    return out


def _stack_sets(slots: tuple[Cards, ...]) -> list[Cards]:
    """Under stack_face_up: every non-empty set of whole equal-rank stacks, slot order."""
    groups: dict[str, list[Cards]] = {}
    for stack in slots:
        if stack:
            groups.setdefault(RANK[stack[0]], []).append(stack)
    out: list[Cards] = []
    for group in groups.values():
        for size in range(1, len(group) + 1):
            for chosen in combinations(group, size):
                out.append(tuple(c for stack in chosen for c in stack))
    return out


def legal_sets(state: State, seat: int, zone: str, only_rank: str | None = None) -> list[Cards]:
    """The sets the seat may form from its zone that may go on the pile now."""
    rules, pile = state.info.rules, state.pile
    if zone == FACE_UP and rules.stack_face_up:
        lead = state.lead_count
        return [
            cards
            for cards in _stack_sets(state.face_up[seat])
            if (only_rank is None or RANK[cards[0]] == only_rank)
            and play_problem(rules, pile, lead, RANK[cards[0]], len(cards)) is None
        ]
    cards: Iterable[str] = state.hands[seat] if zone == HAND else face_up_cards(state, seat)
    t = pile_rank(rules, pile)
    if t is not None:  # the cards whose rank has no problem on the pile rank (rank_problem)
        cards = filter(rules.playable[t].__contains__, cards)
    if only_rank is not None:
        cards = filter(_RANKED[only_rank].__contains__, cards)
    groups = groupby(sorted(cards, key=_KEY), _RANK_OF)  # rank_groups, inline
    if pile and rules.match_count:  # sets of some sizes only (count_problem)
        return _sized_sets(groups, rules, state.lead_count)
    out: list[Cards] = []
    for _, same_rank in groups:
        group = (*same_rank,)
        if len(group) == 1:  # most groups: no sizes to loop over
            out.append(group)
        else:  # every subset, by size (the group's own cards: no copies of equal strings)
            for size in range(1, len(group) + 1):
                out += combinations(group, size)
    return out


_RANKED = {r: frozenset(c for c in RANK if RANK[c] == r) for r in set(RANK.values())}


def _sized_sets(
    groups: Iterable[tuple[str, Iterable[str]]], rules: Rules, lead: int
) -> list[Cards]:
    """Under match_count on a pile: the sets of each rank group whose size fits."""
    out: list[Cards] = []
    for _, same_rank in groups:
        group = (*same_rank,)
        for size in range(1, len(group) + 1):
            if count_problem(rules, True, lead, size, False) is None:
                out.extend(combinations(group, size))
    return out


def starter(state: State) -> tuple[int, str, str]:
    """The starting seat and the rank and tier that made it the starter (R5)."""
    order = [(state.dealer + i) % state.players for i in range(1, state.players + 1)]
    for r in START_RANKS:
        for zone in (FACE_UP, HAND):
            for seat in order:
                cards = face_up_cards(state, seat) if zone == FACE_UP else state.hands[seat]
                if any(rank(c) == r for c in cards):
                    return seat, r, zone
    return order[0], "*", HAND
