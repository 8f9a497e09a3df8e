"""The Sixty-Six search bot: sampled worlds, each candidate valued on the compact engine.

A world is rebuilt from the view (hand, trump card, trick, marriages, scores shown, stock state)
and the current deal's redacted events (the tricks: cards and points; the opponent's voids,
revealed when it did not follow suit once the stock was closed or exhausted). The opponent's
unknown cards and the stock order are dealt at random from the unseen cards, the cards the
opponent is known to hold (shown marriage partners, the exchanged trump card) staying with it.

In each world every candidate is played on ``sixty_six_engine``: the heuristic policy while
the stock is open, the exact endgame (``sixty_six_solver``) once it is closed or exhausted. The
deal's outcome is scored by the chance to win the match it leaves (``match_value``), and the
candidate with the best mean over the worlds is played. The budget is a count of worlds.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache

from domain.games.sixty_six.state import State
from domain.worlds.sixty_six import Facts, sample_world
from workers.bots.base import WAIT, Action, View, register_bot
from workers.bots.search import sixty_six_engine as engine
from workers.bots.search.sixty_six_engine import Sim, Table, code
from workers.bots.search.sixty_six_solver import Memo
from workers.bots.sixty_six import wants_to_declare

SUITS = "CDHS"
DEFAULT_WORLDS = 32


def _root_value(world: State, table: Table, seat: int, action: Action, memo: Memo | None) -> int:
    """The signed deal outcome of the seat taking ``action`` in ``world`` (see the engine)."""
    deal = world.deal
    assert deal is not None
    sim = Sim.of(deal)
    kind = action["type"]
    if kind == "close":
        engine.close(sim, seat)
        return engine.solve(sim, seat, table, memo if memo is not None else {})
    if kind == "draw":
        engine.draw(sim, seat)
        return engine.rollout(sim, seat, table, memo)
    if kind == "exchange_trump":
        engine.exchange(sim, seat, table)
        return engine.rollout(sim, seat, table, memo)
    card = code(action["cards"][0])
    if deal.phase == "follow":
        return _after_follow(sim, 1 - seat, code(deal.trick[0]), card, table, memo)
    value = engine.marriage_value(sim.hands[seat], card, table) if kind == "marriage" else 0
    engine.lead_with(sim, seat, card, value)
    theirs = sim.hands[1 - seat]
    if not sim.open:  # the opponent's best answer, then both play perfectly
        return engine.solve_answers(sim, seat, card, table, memo if memo is not None else {})
    reply = engine.heuristic_follow(theirs, theirs, card, False, table.trump)
    return _after_follow(sim, seat, card, reply, table, memo)


def _after_follow(
    sim: Sim, leader: int, lead: int, card: int, table: Table, memo: Memo | None
) -> int:
    strict = not sim.open
    winner, out = engine.follow_with(sim, leader, lead, card, table)
    if out is not None:
        return out
    if strict:
        return engine.solve(sim, winner, table, memo if memo is not None else {})
    engine.between(sim, winner, table)
    return engine.rollout(sim, winner, table, memo)


class SixtySixSearch:
    """Determinized search for Sixty-Six: ``worlds`` sampled worlds per move (a count, so the
    play does not depend on the machine's load; ``ms`` optionally cuts it short)."""

    wants_history = True

    def __init__(
        self, worlds: int = DEFAULT_WORLDS, ms: float | None = None, solve_strict: bool = True
    ) -> None:
        self.worlds = worlds
        self.ms = ms
        self.solve_strict = solve_strict

    def choose(self, view: View, rng: random.Random) -> Action:
        if wants_to_declare(view):
            return {"type": "declare_out"}
        if view.get("turn") != view["seat"]:
            return dict(WAIT)
        legal = [dict(a) for a in view["legal_actions"] if a["type"] != "declare_out"]
        kinds = {a["type"] for a in legal}
        if "exchange_trump" in kinds:
            return {"type": "exchange_trump"}  # a higher trump for the nine: always worth it
        if len(legal) == 1:
            return legal[0]
        order = {"marriage": 0, "draw": 0, "play": 1, "close": 2}  # ties go to the first
        actions = sorted(legal, key=lambda a: order.get(a["type"], 3))
        totals, _ = self.totals(view, actions, rng)
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        return actions[best]

    def totals(self, view: View, actions: list[Action], rng: random.Random
               ) -> tuple[list[float], int]:  # fmt: skip
        """Each action's summed chance to win the match over the sampled worlds, and how many
        worlds were sampled (the seat's turn; actions of the types ``_root_value`` plays)."""
        seat = int(view["seat"])
        totals = [0.0] * len(actions)
        memo: Memo | None = {} if self.solve_strict or view.get("stock") != "open" else None
        worlds = 1 if view.get("stock") == "exhausted" else self.worlds  # nothing is hidden
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        facts = Facts(view)
        sampled = 0
        for n in range(worlds):
            if deadline is not None and n >= 2 and time.perf_counter() > deadline:
                break
            world = sample_world(view, rng, facts)
            deal = world.deal
            assert deal is not None
            table = Table.of(world.rules, code(deal.trump_card) // 6)
            target = world.rules.game_target
            for i, action in enumerate(actions):
                signed = _root_value(world, table, seat, action, memo)
                totals[i] += outcome_value(
                    signed, seat, world.game_points, world.carry_over, target
                )
            sampled += 1
        return totals, sampled


# How often a decided deal is worth 1, 2 or 3 game points, and how often a deal is undecided:
# the model behind the match value of a deal's outcome. These are rough assumed shares (the
# arena figures in docs/bots.md were measured with them); heuristic self-play scores about
# 63 % / 33 % / 3 % and 0.3 % undecided.
DEAL_VALUES = ((1, 0.45), (2, 0.35), (3, 0.20))
UNDECIDED = 0.03
MAX_CARRY = 4


@lru_cache(maxsize=4096)
def match_value(mine: int, theirs: int, carry: int, target: int) -> float:
    """The chance to win the match from these game points, each deal a coin toss."""
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    carry = min(carry, MAX_CARRY)
    decided = (1 - UNDECIDED) / 2
    value = 0.0
    for points, share in DEAL_VALUES:
        value += decided * share * match_value(mine + points + carry, theirs, 0, target)
        value += decided * share * match_value(mine, theirs + points + carry, 0, target)
    if carry < MAX_CARRY:
        return value + UNDECIDED * match_value(mine, theirs, carry + 1, target)
    return value / (1 - UNDECIDED)


def outcome_value(
    signed: int, seat: int, game_points: tuple[int, int], carry: int, target: int
) -> float:
    """The seat's match value after a deal outcome (signed from seat 0's view)."""
    mine, theirs = game_points[seat], game_points[1 - seat]
    won = signed if seat == 0 else -signed
    if won > 0:
        return match_value(mine + won + carry, theirs, 0, target)
    if won < 0:
        return match_value(mine, theirs - won + carry, 0, target)
    return match_value(mine, theirs, carry + 1, target)


def make_bot() -> SixtySixSearch:
    """The registered ``search`` bot for Sixty-Six."""
    return SixtySixSearch()


register_bot("search", game="sixty_six")(make_bot)
