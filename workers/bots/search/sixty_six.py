"""The Sixty-Six search bot's world sampler and rollout (see ``workers.bots.search``).

A world is rebuilt from the view (hand, trump card, trick, marriages, scores shown, stock state)
and the current deal's redacted events (the tricks: cards and points; the opponent's voids,
revealed when it did not follow suit once the stock was closed or exhausted). The opponent's
unknown cards and the stock order are dealt at random from the unseen cards, the cards the
opponent is known to hold (shown marriage partners, the exchanged trump card) staying with it.
A rollout plays the deal to its end with random legal moves (declaring out as soon as a seat
has 66) and scores the game points won minus those lost, a won or lost match counting most.
"""

from __future__ import annotations

import random
from typing import Any

from domain.games.sixty_six.fold import evolve
from domain.games.sixty_six.game import SixtySix
from domain.games.sixty_six.rules import legal_actions
from domain.games.sixty_six.state import TARGET, Deal, Rules, State
from workers.bots.base import WAIT, Action, View, register_bot
from workers.bots.search import SearchBot
from workers.bots.sixty_six import _follow as heuristic_follow
from workers.bots.sixty_six import _lead as heuristic_lead
from workers.bots.sixty_six import wants_to_declare

SUITS = "CDHS"
MATCH_VALUE = 10.0
POINTS_WEIGHT = 0.01  # the deal's card points refine the coarse game points
EXPLORE = 0.1  # the share of rollout plays chosen at random
_GAME = SixtySix()


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


def sample_world(view: View, rng: random.Random) -> State:
    """A full state consistent with the seat's view and history (the opponent's hand and the
    stock order sampled)."""
    me = int(view["seat"])
    opp = 1 - me
    options = dict(view["options"])
    rules = Rules.of(options)
    facts = Facts(view)
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


def _rollout_action(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """The heuristic bot's play on the bare state (no view): cheap leads, worthwhile tricks."""
    deal = state.deal
    assert deal is not None
    legal = legal_actions(state, seat)
    kinds = {a["type"] for a in legal}
    if deal.points(seat) >= TARGET and "declare_out" in kinds:
        return {"type": "declare_out"}
    for kind in ("exchange_trump", "pass", "draw"):
        if kind in kinds:
            return {"type": kind}
    marriages = [a for a in legal if a["type"] == "marriage"]
    if marriages:
        return max(marriages, key=lambda a: _marriage_rank(a, deal.trump))
    plays = [a["cards"][0] for a in legal if a["type"] == "play"]
    if not plays:
        return rng.choice(legal)
    if rng.random() < EXPLORE:
        return {"type": "play", "cards": [rng.choice(plays)]}
    facts = {
        "trump_suit": deal.trump,
        "hand": list(deal.hands[seat]),
        "stock": "open" if deal.stock_open else "closed",
    }
    if deal.trick:
        return {"type": "play", "cards": [heuristic_follow(facts, plays, deal.trick[0])]}
    return {"type": "play", "cards": [heuristic_lead(facts, plays)]}


def rollout(world: State, seat: int, action: Action, rng: random.Random) -> float:
    """Play the action, then the deal to its end; the seat's game points won minus lost (plus
    a little for the deal's points won minus lost)."""
    before = world.game_points
    deals = world.deals_scored
    state = world
    mover = seat
    move: dict[str, Any] = dict(action)
    for _ in range(200):
        for event in _GAME.decide(state, mover, move):
            state = evolve(state, event)  # type: ignore[arg-type]  # a Sixty-Six event
        if state.ended is not None or state.deals_scored != deals:
            break
        deal = state.deal
        assert deal is not None
        mover = deal.turn
        move = _rollout_action(state, mover, rng)
    if state.ended is not None and state.winner is not None:
        return MATCH_VALUE if state.winner == seat else -MATCH_VALUE
    gained = state.game_points[seat] - before[seat]
    lost = state.game_points[1 - seat] - before[1 - seat]
    points = (state.last_result or {}).get("points") or (0, 0)
    return float(gained - lost) + POINTS_WEIGHT * (points[seat] - points[1 - seat])


class SixtySixAdapter:
    """Sixty-Six for ``SearchBot``: sure declarations and waiting are not searched."""

    def forced(self, view: View) -> Action | None:
        if wants_to_declare(view):
            return {"type": "declare_out"}
        if view.get("turn") != view["seat"]:
            return dict(WAIT)
        legal = [a for a in view["legal_actions"] if a["type"] != "declare_out"]
        if len(legal) == 1:
            return dict(legal[0])
        return None

    def candidates(self, view: View) -> list[Action]:
        return [dict(a) for a in view["legal_actions"] if a["type"] != "declare_out"]

    def sample(self, view: View, rng: random.Random) -> State:
        return sample_world(view, rng)

    def rollout(self, world: State, seat: int, action: Action, rng: random.Random) -> float:
        return rollout(world, seat, action, rng)


def make_bot() -> SearchBot:
    """The registered ``search`` bot for Sixty-Six."""
    return SearchBot(SixtySixAdapter())


register_bot("search", game="sixty_six")(make_bot)


def _marriage_rank(action: dict[str, Any], trump: str) -> tuple[bool, bool]:
    """Show the queen, and the trump marriage, first."""
    card = str(action["cards"][0])
    return card[0] == "Q", card[1] == trump
