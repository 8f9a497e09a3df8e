"""A compact, perfect-information Sixty-Six deal for the search bot's worlds.

The domain's ``decide``/``evolve`` build events and copy frozen states at every step: right for
the service, far too slow to play thousands of deal ends per move. Here a deal is a few lists of
small ints (card = suit * 6 + rank, rank 0..5 for 9 J Q K T A, so a higher int of the same suit
ranks higher) and the rules the search needs are written out again:

* ``rollout`` plays the deal to its end with the heuristic bot's policy (the opponent's own
  policy; ``workers.bots.sixty_six``), both seats declaring out as soon as they reach 66;
* ``solve`` is an exact alpha-beta minimax once the stock is closed or exhausted: both hands
  are known in a world, at most six tricks are left and the follower's cards are bound by the
  strict rules, so the tree is small.

Outcomes are signed ints from seat 0's point of view: ``+k`` seat 0 wins the deal for ``k``
game points, ``-k`` seat 1 does, ``0`` the deal is undecided. Both seats prefer a bigger win and
a smaller loss, so a minimax over these ints equals the minimax over any match value that is
monotone in them (``match_value``).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.games.sixty_six.state import Deal, Rules
from workers.bots.search import sixty_six_solver as solver

SUITS = "CDHS"
RANKS = "9JQKTA"
POINTS = (0, 2, 3, 4, 10, 11) * 4
OUT = 66
Q, K, T, A = 2, 3, 4, 5


def code(card: str) -> int:
    """The int of a card string (``"TH"`` -> 2 * 6 + 4)."""
    return SUITS.index(card[1]) * 6 + RANKS.index(card[0])


def name(card: int) -> str:
    """The card string of an int."""
    return RANKS[card % 6] + SUITS[card // 6]


@dataclass(frozen=True, slots=True)
class Table:
    """The options the search plays by, read once per move."""

    trump: int
    head: bool
    trump_void: bool
    bonus: int
    strict_marriage: bool
    exchange_needs_trick: bool
    exchange_min: int
    exchange_rank: int
    endgame: solver.Rules

    @classmethod
    def of(cls, rules: Rules, trump: int) -> Table:
        return cls(trump=trump, head=rules.must_head_trick,
                   trump_void=rules.must_trump_when_void, bonus=rules.last_trick_bonus,
                   strict_marriage=rules.marriage_in_strict_phase,
                   exchange_needs_trick=rules.exchange_requires_trick,
                   exchange_min=rules.exchange_min_stock,
                   exchange_rank=1 if rules.deck20 else 0,
                   endgame=solver.Rules(trump, rules.must_head_trick, rules.must_trump_when_void,
                                        rules.last_trick_bonus, rules.marriage_in_strict_phase))


class Sim:
    """One deal in play, mutable (copy before trying an action)."""

    __slots__ = (
        "closed_by",
        "hands",
        "opp_trick_at_close",
        "pending",
        "pts",
        "stock",
        "under",
        "won",
    )

    def __init__(self) -> None:
        self.hands: list[list[int]] = [[], []]
        self.stock: list[int] = []
        self.under: int | None = None
        self.pts = [0, 0]
        self.pending = [0, 0]
        self.won = [0, 0]
        self.closed_by: int | None = None
        self.opp_trick_at_close = True

    @classmethod
    def of(cls, deal: Deal) -> Sim:
        sim = cls()
        sim.hands = [[code(c) for c in deal.hands[0]], [code(c) for c in deal.hands[1]]]
        sim.stock = [code(c) for c in deal.stock]
        sim.under = code(deal.under) if deal.under is not None else None
        sim.pts = [deal.points(0), deal.points(1)]
        sim.pending = list(deal.pending)
        sim.won = list(deal.won)
        sim.closed_by = deal.closed_by
        sim.opp_trick_at_close = bool(deal.opponent_had_trick_at_close)
        return sim

    def copy(self) -> Sim:
        new = Sim.__new__(Sim)
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.stock = self.stock[:]
        new.under = self.under
        new.pts = self.pts[:]
        new.pending = self.pending[:]
        new.won = self.won[:]
        new.closed_by = self.closed_by
        new.opp_trick_at_close = self.opp_trick_at_close
        return new

    @property
    def open(self) -> bool:
        return self.closed_by is None and self.under is not None


def declared(sim: Sim, seat: int) -> int:
    """The signed outcome of ``seat`` declaring out with 66 or more."""
    other = 1 - seat
    if sim.won[other] == 0:
        value = 3
    else:
        value = 2 if sim.pts[other] < 33 else 1
    return value if seat == 0 else -value


def ended(sim: Sim) -> int:
    """The signed outcome when both hands are empty and nobody declared."""
    closer = sim.closed_by
    if closer is None:
        return 0
    if sim.pts[closer] >= OUT:
        return declared(sim, closer)
    value = 2 if sim.opp_trick_at_close else 3
    return value if closer == 1 else -value


def beats(follow: int, lead: int, trump: int) -> bool:
    if follow // 6 == lead // 6:
        return follow > lead
    return follow // 6 == trump


def strict_follows(hand: list[int], led: int, table: Table) -> list[int]:
    """The follower's legal cards once the stock is closed or exhausted (R7)."""
    suit = led // 6
    same = [c for c in hand if c // 6 == suit]
    if same:
        if table.head:
            higher = [c for c in same if c > led]
            if higher:
                return higher
        return same
    if table.trump_void:
        trumps = [c for c in hand if c // 6 == table.trump]
        if trumps:
            return trumps
    return hand


def marriage_value(hand: list[int], card: int, table: Table) -> int:
    """The marriage announced by leading ``card``, 0 when it is none."""
    rank = card % 6
    if (rank == Q and card + 1 in hand) or (rank == K and card - 1 in hand):
        return 40 if card // 6 == table.trump else 20
    return 0


def announce(sim: Sim, seat: int, value: int) -> None:
    if sim.won[seat]:
        sim.pts[seat] += value
    else:
        sim.pending[seat] += value


def trick(sim: Sim, leader: int, lead: int, follow: int, table: Table) -> int:
    """Resolve a trick whose cards have left the hands; the winner."""
    w = 1 - leader if beats(follow, lead, table.trump) else leader
    sim.pts[w] += POINTS[lead] + POINTS[follow] + sim.pending[w]
    sim.pending[w] = 0
    sim.won[w] += 1
    if not sim.hands[0] and not sim.hands[1] and sim.closed_by is None:
        sim.pts[w] += table.bonus
    return w


def draw(sim: Sim, winner: int) -> None:
    sim.hands[winner].append(sim.stock.pop(0) if sim.stock else sim.under)  # type: ignore[arg-type]
    if sim.stock:
        sim.hands[1 - winner].append(sim.stock.pop(0))
    else:
        sim.hands[1 - winner].append(sim.under)  # type: ignore[arg-type]
        sim.under = None


def close(sim: Sim, seat: int) -> None:
    sim.closed_by = seat
    sim.opp_trick_at_close = sim.won[1 - seat] > 0


def can_exchange(sim: Sim, seat: int, table: Table) -> bool:
    if not sim.open or len(sim.stock) + 1 < table.exchange_min:
        return False
    if table.exchange_needs_trick and not sim.won[seat]:
        return False
    return table.trump * 6 + table.exchange_rank in sim.hands[seat]


def exchange(sim: Sim, seat: int, table: Table) -> None:
    nine = table.trump * 6 + table.exchange_rank
    sim.hands[seat].remove(nine)
    sim.hands[seat].append(sim.under)  # type: ignore[arg-type]
    sim.under = nine


# --- the heuristic policy (workers.bots.sixty_six, on ints) ----------------------------------


def _married(card: int, hand: list[int]) -> bool:
    rank = card % 6
    return (rank == Q and card + 1 in hand) or (rank == K and card - 1 in hand)


def should_close(sim: Sim, seat: int, table: Table) -> bool:
    if not sim.won[seat]:
        return False
    hand = sim.hands[seat]
    trumps = [c for c in hand if c // 6 == table.trump]
    strong = sum(1 for c in trumps if c % 6 >= T) + sum(1 for c in hand if c % 6 == A)
    marriage = max((marriage_value(hand, c, table) for c in hand if c % 6 == K), default=0)
    points = sim.pts[seat]
    return points + marriage >= OUT or (points >= 50 and len(trumps) >= 2 and strong >= 2)


def heuristic_lead(sim: Sim, seat: int, table: Table) -> tuple[int, int]:
    """The lead card and the marriage it announces (0: none)."""
    hand, trump = sim.hands[seat], table.trump
    if sim.open or table.strict_marriage:
        queens = [c for c in hand if c % 6 == Q and c + 1 in hand]
        kings = [c for c in hand if c % 6 == K and c - 1 in hand]
        married = queens or kings
        if married:
            card = max(married, key=lambda c: c // 6 == trump)
            return card, marriage_value(hand, card, table)
    if not sim.open:
        trumps = [c for c in hand if c // 6 == trump]
        if trumps and max(trumps) % 6 >= T:
            return max(trumps), 0
        aces = [c for c in hand if c % 6 == A and c // 6 != trump]
        if aces:
            return aces[0], 0
        return min(hand, key=lambda c: (POINTS[c], c // 6 == trump)), 0
    keep = [c for c in hand if c // 6 != trump and not _married(c, hand) and c % 6 < T]
    pool = keep or [c for c in hand if c // 6 != trump] or hand
    return min(pool, key=lambda c: c % 6), 0


def heuristic_follow(hand: list[int], plays: list[int], led: int, strict: bool,
                     trump: int) -> int:
    winners = [c for c in plays if beats(c, led, trump)]
    if strict and winners:
        return min(winners, key=lambda c: (c // 6 == trump, POINTS[c]))
    same = [c for c in winners if c // 6 == led // 6]
    if same and (led // 6 != trump or POINTS[led] >= 10):
        return max(same, key=lambda c: POINTS[c])
    if POINTS[led] >= 10 and led // 6 != trump:
        trumps = [c for c in winners if c // 6 == trump and not _married(c, hand)]
        if trumps:
            return min(trumps, key=lambda c: (POINTS[c], c % 6))
    losers = [c for c in plays if c // 6 != trump and not _married(c, hand)] or plays
    return min(losers, key=lambda c: (POINTS[c], c // 6 == trump, c % 6))


def lead_with(sim: Sim, seat: int, card: int, value: int) -> None:
    """Lead ``card`` (announcing ``value``). A leader who reaches 66 so declares out on its
    next turn, after the trick (bots are asked on their own turn only)."""
    sim.hands[seat].remove(card)
    if value:
        announce(sim, seat, value)


def follow_with(
    sim: Sim, leader: int, lead: int, card: int, table: Table
) -> tuple[int, int | None]:
    """The follower plays ``card``; the trick's winner and the outcome if it goes out."""
    sim.hands[1 - leader].remove(card)
    w = trick(sim, leader, lead, card, table)
    if sim.pts[w] >= OUT:
        return w, declared(sim, w)
    if sim.pts[1 - w] >= OUT:  # a marriage's 66, declared now
        return w, declared(sim, 1 - w)
    if not sim.hands[0] and not sim.hands[1]:
        return w, ended(sim)
    return w, None


def between(sim: Sim, winner: int, table: Table) -> None:
    """The heuristic winner's steps before its next lead: exchange, close or draw."""
    if can_exchange(sim, winner, table):
        exchange(sim, winner, table)
    if sim.open:
        if should_close(sim, winner, table):
            close(sim, winner)
        else:
            draw(sim, winner)


def rollout(sim: Sim, leader: int, table: Table, memo: solver.Memo | None) -> int:
    """From ``leader`` about to lead (any steps before the lead still to take): the heuristic
    plays the deal out; once the stock is gone, ``solve`` takes over (with a ``memo``)."""
    trump = table.trump
    while True:
        if memo is not None and not sim.open:
            return solve(sim, leader, table, memo)
        if can_exchange(sim, leader, table):
            exchange(sim, leader, table)
        if sim.open and should_close(sim, leader, table):
            close(sim, leader)
            if memo is not None:
                return solve(sim, leader, table, memo)
        lead, value = heuristic_lead(sim, leader, table)
        lead_with(sim, leader, lead, value)
        hand = sim.hands[1 - leader]
        strict = not sim.open
        plays = strict_follows(hand, lead, table) if strict else hand
        card = heuristic_follow(hand, plays, lead, strict, trump)
        leader, out = follow_with(sim, leader, lead, card, table)
        if out is not None:
            return out
        if sim.open:
            between(sim, leader, table)


# --- the exact endgame (sixty_six_solver) ---------------------------------------------------


def solve(sim: Sim, leader: int, table: Table, memo: solver.Memo) -> int:
    """The minimax outcome (signed, seat 0's view) with both seats playing perfectly from
    ``leader`` about to lead, the stock closed or exhausted."""
    other = 1 - leader
    closer = _closer(sim, leader)
    value = solver.lead(
        solver.mask_of(sim.hands[leader]), solver.mask_of(sim.hands[other]), sim.pts[leader],
        sim.pts[other], sim.pending[leader], sim.pending[other], sim.won[leader] > 0,
        sim.won[other] > 0, closer, sim.opp_trick_at_close, table.endgame, memo)
    return value if leader == 0 else -value


def solve_answers(sim: Sim, leader: int, led: int, table: Table, memo: solver.Memo) -> int:
    """The minimax outcome (signed, seat 0's view) once ``leader`` has led ``led`` (already out
    of its hand, any marriage counted): the follower picks its best answer."""
    other = 1 - leader
    me, them = solver.mask_of(sim.hands[leader]), solver.mask_of(sim.hands[other])
    closer = _closer(sim, leader)
    worst = min(
        solver.follow(me, them, sim.pts[leader], sim.pts[other], sim.pending[leader],
                      sim.pending[other], sim.won[leader] > 0, sim.won[other] > 0, closer,
                      sim.opp_trick_at_close, led, answer, table.endgame, memo)
        for answer in solver.cards(solver.follows(them, led, table.endgame))
    )
    return worst if leader == 0 else -worst


def _closer(sim: Sim, leader: int) -> int:
    if sim.closed_by is None:
        return solver.NOBODY
    return solver.ME if sim.closed_by == leader else solver.THEM
