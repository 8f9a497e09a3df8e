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
from typing import Any

from domain.games.sixty_six.state import Deal, Rules, State
from workers.bots.base import WAIT, Action, View, register_bot
from workers.bots.search import sixty_six_engine as engine
from workers.bots.search.sixty_six_engine import Sim, Table, code
from workers.bots.search.sixty_six_solver import Memo
from workers.bots.sixty_six import wants_to_declare

SUITS = "CDHS"
DEFAULT_WORLDS = 32


def _deck(rules: Rules) -> list[str]:
    ranks = "9JQKTA" if not rules.deck20 else "JQKTA"
    return [r + s for s in SUITS for r in ranks]


def _current_deal_events(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    start = 0
    for i, event in enumerate(history):
        if event.get("type") == "sixty_six.DealStarted":
            start = i
    return history[start:]


class Facts:
    """What the seat knows about the current deal from its redacted events."""

    def __init__(self, view: View) -> None:
        me = int(view["seat"])
        self.played: set[str] = set()
        self.tricks: list[tuple[int, str, str]] = []
        self.card_points = [0, 0]
        self.bonus = [0, 0]
        self.credited_later = [0, 0]
        self.voids: set[str] = set()
        trump = str(view["trump_suit"])
        rules = Rules.of(dict(view["options"]))
        strict = False
        led: str | None = None
        for event in _current_deal_events(list(view.get("history") or [])):
            kind = str(event.get("type", "")).rpartition(".")[2]
            if kind == "CardPlayed":
                card = str(event["card"])
                self.played.add(card)
                if event.get("role") == "lead":
                    led = card
                elif led and int(event["seat"]) != me and strict and card[1] != led[1]:
                    self.voids.add(led[1])
                    if rules.must_trump_when_void and card[1] != trump:
                        self.voids.add(trump)
            elif kind == "TrickWon":
                winner = int(event["winner"])
                first, second = event["cards"]
                self.tricks.append((winner, str(first), str(second)))
                self.card_points[winner] += int(event["points"])
                self.bonus[winner] += int(event.get("last_trick_bonus") or 0)
                self.credited_later[winner] += int(event.get("marriage_credited") or 0)
                led = None
            elif kind == "StockClosed" or (
                kind == "CardsDrawn" and int(event.get("stock_size", 1)) == 0
            ):
                strict = True


def sample_world(view: View, rng: random.Random, facts: Facts | None = None) -> State:
    """A full state consistent with the seat's view and history (the opponent's hand and the
    stock order sampled); ``facts``: the view's, read once per move."""
    me = int(view["seat"])
    opp = 1 - me
    options = dict(view["options"])
    rules = Rules.of(options)
    facts = facts if facts is not None else Facts(view)
    hand = tuple(view["hand"])
    trick = tuple(t["card"] for t in view["current_trick"])
    opp_size = int(view["seats"][opp]["hand_size"])
    stock_size = int(view["stock_size"])
    exchange = view.get("exchange")
    trump_card = str(view["trump_card"])
    under: str | None = None
    if stock_size > 0:
        under = view.get("face_up_card") or (
            exchange["nine"] if exchange else trump_card
        )
    known_opp = [c for c in view.get("opponent_known_cards") or [] if c not in facts.played]
    seen = set(hand) | facts.played | set(known_opp) | ({under} if under else set())
    unseen = [c for c in _deck(rules) if c not in seen]
    rng.shuffle(unseen)
    allowed = [c for c in unseen if c[1] not in facts.voids]
    others = [c for c in unseen if c[1] in facts.voids]
    need = max(0, opp_size - len(known_opp))
    pool = allowed + others  # the voids' suits only when nothing else is left
    opp_hand = tuple(known_opp + pool[:need])
    stock = tuple(pool[need:])
    stock = stock[: max(0, stock_size - (1 if under else 0))]
    marriages = tuple(
        (int(m["seat"]), str(m["suit"]), int(m["value"]), str(m["card"]), str(m["shown"]),
         bool(m["credited"]))
        for m in view.get("marriages") or []
    )  # fmt: skip
    credited = [
        sum(m[2] for m in marriages if m[0] == s and m[5]) + facts.credited_later[s]
        for s in (0, 1)
    ]
    pending = [sum(m[2] for m in marriages if m[0] == s) - credited[s] for s in (0, 1)]
    shown = tuple(view.get("opponent_known_cards") or ())
    hands = (hand, opp_hand) if me == 0 else (opp_hand, hand)
    deal = Deal(
        number=int(view["deal_number"]),
        dealer=int(view["dealer"]),
        trump_card=trump_card,
        hands=hands,
        stock=stock,
        under=under if view.get("stock") != "exhausted" else None,
        phase=str(view["phase"]),
        turn=int(view["turn"]),
        trick=trick,
        tricks=tuple(facts.tricks),
        won=(int(view["seats"][0]["tricks"]), int(view["seats"][1]["tricks"])),
        card_points=(facts.card_points[0], facts.card_points[1]),
        marriage_points=(credited[0], credited[1]),
        pending=(pending[0], pending[1]),
        bonus=(facts.bonus[0], facts.bonus[1]),
        marriages=marriages,
        known=(shown, ()) if opp == 0 else ((), shown),
        closed_by=view.get("closed_by"),
        closed_before_draw=bool(view.get("closed_before_draw")),
        closed_at_stock_size=view.get("closed_at_stock_size"),
        opponent_had_trick_at_close=view.get("opponent_had_trick_at_close"),
        exchanged=(
            (int(exchange["seat"]), str(exchange["nine"]), str(exchange["taken"]))
            if exchange else None
        ),
        passes=int(view.get("passes") or 0),
    )  # fmt: skip
    return State(
        started=True,
        options=options,
        rules=rules,
        game_points=(int(view["game_points"][0]), int(view["game_points"][1])),
        carry_over=int(view.get("carry_over") or 0),
        deal=deal,
        last_result=view.get("last_deal_result"),
    )


def _root_value(world: State, table: Table, seat: int, action: Action, memo: Memo | None
                ) -> int:
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


def _after_follow(sim: Sim, leader: int, lead: int, card: int, table: Table,
                  memo: Memo | None) -> int:
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

    def __init__(self, worlds: int = DEFAULT_WORLDS, ms: float | None = None,
                 solve_strict: bool = True) -> None:
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
        seat = int(view["seat"])
        totals = [0.0] * len(actions)
        memo: Memo | None = {} if self.solve_strict or view.get("stock") != "open" else None
        worlds = 1 if view.get("stock") == "exhausted" else self.worlds  # nothing is hidden
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        facts = Facts(view)
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
                totals[i] += outcome_value(signed, seat, world.game_points, world.carry_over,
                                           target)
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        return actions[best]


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


def outcome_value(signed: int, seat: int, game_points: tuple[int, int], carry: int,
                  target: int) -> float:
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
