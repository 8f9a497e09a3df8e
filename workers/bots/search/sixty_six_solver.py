"""The exact Sixty-Six endgame: alpha-beta minimax once the stock is closed or exhausted.

In a sampled world both hands are known, at most six tricks are left and the follower is bound
by the strict rules (R7), so the whole tree can be searched. Hands are bit masks of the engine's
card ints (``1 << card``); a node is seen from the seat about to lead ("me"), its value is the
deal's game points for that seat (``+k`` it wins ``k``, ``-k`` it loses ``k``, ``0`` undecided),
and both seats declare out on their first turn with 66 (declaring later never scores more: the
other seat's points and tricks only grow; bots are asked on their own turn only, so a leader
reaching 66 with a marriage declares after the trick). Lead nodes are kept in a transposition
table with their alpha-beta bounds; one table serves a whole move (its key holds everything that
matters).
"""

from __future__ import annotations

from typing import NamedTuple

POINTS = (0, 2, 3, 4, 10, 11) * 4
OUT = 66
HALF = 33
NOBODY, ME, THEM = 0, 1, 2  # who closed the stock, seen from the seat to lead


class Rules(NamedTuple):
    """The options the endgame depends on."""

    trump: int
    head: bool
    trump_void: bool
    bonus: int
    marriages: bool


_CARDS: dict[int, tuple[int, ...]] = {}


def cards(mask: int) -> tuple[int, ...]:
    """The cards of a mask, most points first (good moves first: earlier cut-offs)."""
    found = _CARDS.get(mask)
    if found is None:
        found = tuple(sorted((c for c in range(24) if mask >> c & 1),
                             key=lambda c: (-POINTS[c], -c)))
        _CARDS[mask] = found
    return found


def mask_of(hand: list[int]) -> int:
    out = 0
    for c in hand:
        out |= 1 << c
    return out


def follows(hand: int, led: int, rules: Rules) -> int:
    """The follower's legal cards (a mask) under the strict rules."""
    shift = led // 6 * 6
    same = hand & (63 << shift)
    if same:
        if rules.head:
            higher = same & ~((2 << led) - 1)
            if higher:
                return higher
        return same
    if rules.trump_void:
        trumps = hand & (63 << rules.trump * 6)
        if trumps:
            return trumps
    return hand


def out_value(their_points: int, they_won: bool) -> int:
    """What declaring out with 66 scores (R12.3)."""
    if not they_won:
        return 3
    return 2 if their_points < HALF else 1


def end_value(mine: int, theirs: int, i_won: bool, they_won: bool, closer: int,
              opp_trick: bool) -> int:
    """Both hands played and nobody went out: undecided, or the closer is judged (R13.3)."""
    if closer == NOBODY:
        return 0
    if closer == ME:
        return out_value(theirs, they_won) if mine >= OUT else -(2 if opp_trick else 3)
    return -out_value(mine, i_won) if theirs >= OUT else (2 if opp_trick else 3)


Memo = dict[tuple[int, ...], tuple[int, int]]


SUIT = tuple(c // 6 for c in range(24))
SUIT_MASK = tuple(63 << (c // 6 * 6) for c in range(24))
ABOVE = tuple(SUIT_MASK[c] & ~((2 << c) - 1) for c in range(24))  # higher cards of its suit
QUEEN_PARTNER = tuple(1 << (c + 1) if c % 6 == 2 else 1 << (c - 1) if c % 6 == 3 else 0
                      for c in range(24))


def lead(me: int, them: int, mine: int, theirs: int, my_pending: int, their_pending: int,
         i_won: bool, they_won: bool, closer: int, opp_trick: bool, rules: Rules,
         memo: Memo, alpha: int = -3, beta: int = 3) -> int:
    """The value for the seat about to lead (hands ``me`` and ``them``, masks)."""
    key = (me, them, mine, theirs, my_pending, their_pending, i_won, they_won, closer)
    bounds = memo.get(key)
    if bounds is not None:
        low, high = bounds
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
    start_alpha, start_beta = alpha, beta
    best = -4
    trump = rules.trump
    trumps = 63 << trump * 6
    head, trump_void, marriages = rules.head, rules.trump_void, rules.marriages
    bonus = rules.bonus if closer == NOBODY else 0
    swapped = closer if closer == NOBODY else 3 - closer
    known = _CARDS
    for card in known.get(me) or cards(me):
        rest = me & ~(1 << card)
        points, pending = mine, my_pending
        partner = QUEEN_PARTNER[card]
        if marriages and partner and me & partner:
            value = 40 if SUIT[card] == trump else 20
            if i_won:
                points += value
            else:
                pending += value
        # the follower's legal answers (R7), then the lowest value for the leader (who,
        # reaching 66 with a marriage, declares on its next turn: after this trick)
        suit = SUIT[card]
        legal = them & SUIT_MASK[card]
        if legal:
            if head and them & ABOVE[card]:
                legal = them & ABOVE[card]
        elif trump_void and them & trumps:
            legal = them & trumps
        else:
            legal = them
        result = 4
        worth = POINTS[card]
        for answer in known.get(legal) or cards(legal):
            left = them & ~(1 << answer)
            gained = worth + POINTS[answer]
            answer_suit = SUIT[answer]
            if (answer_suit == suit and answer > card) or answer_suit == trump != suit:
                total = theirs + gained + their_pending + (0 if rest else bonus)
                if total >= OUT:
                    value = -out_value(points, i_won)
                elif points >= OUT:
                    value = out_value(total, True)
                elif not rest:
                    value = -end_value(total, points, True, i_won, swapped, opp_trick)
                else:
                    value = -lead(left, rest, total, points, 0, pending, True, i_won,
                                  swapped, opp_trick, rules, memo, -min(beta, result), -alpha)
            else:
                total = points + gained + pending + (0 if rest else bonus)
                if total >= OUT:
                    value = out_value(theirs, they_won)
                elif not rest:
                    value = end_value(total, theirs, True, they_won, closer, opp_trick)
                else:
                    value = lead(rest, left, total, theirs, 0, their_pending, True,
                                 they_won, closer, opp_trick, rules, memo, alpha,
                                 min(beta, result))
            if value < result:
                result = value
                if result <= alpha or result <= best:
                    break
        if result > best:
            best = result
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    if best <= start_alpha:
        memo[key] = (-3, best)
    elif best >= start_beta:
        memo[key] = (best, 3)
    else:
        memo[key] = (best, best)
    return best


def follow(me: int, them: int, mine: int, theirs: int, my_pending: int, their_pending: int,
           i_won: bool, they_won: bool, closer: int, opp_trick: bool, led: int, card: int,
           rules: Rules, memo: Memo) -> int:
    """The value for the *leader* (``me``, who led ``led`` already out of ``me``) after the
    follower answers ``card``, both playing perfectly from there."""
    them &= ~(1 << card)
    gained = POINTS[led] + POINTS[card]
    bonus = 0 if me or closer != NOBODY else rules.bonus
    if (card // 6 == led // 6 and card > led) or card // 6 == rules.trump != led // 6:
        total = theirs + gained + their_pending + bonus
        swapped = closer if closer == NOBODY else 3 - closer
        if total >= OUT:
            return -out_value(mine, i_won)
        if mine >= OUT:
            return out_value(total, True)
        if not me:
            return -end_value(total, mine, True, i_won, swapped, opp_trick)
        return -lead(them, me, total, mine, 0, my_pending, True, i_won, swapped, opp_trick,
                     rules, memo)
    total = mine + gained + my_pending + bonus
    if total >= OUT:
        return out_value(theirs, they_won)
    if not me:
        return end_value(total, theirs, True, they_won, closer, opp_trick)
    return lead(me, them, total, theirs, 0, their_pending, True, they_won, closer, opp_trick,
                rules, memo)
