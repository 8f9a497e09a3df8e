"""The Sixty-Six sampler: a world consistent with one seat's view and history.

A world is rebuilt from the view (hand, trump card, trick, marriages, scores shown, stock state)
and the current deal's redacted events (the tricks: cards and points; the opponent's voids,
revealed when it did not follow suit once the stock was closed or exhausted). The opponent's
unknown cards and the stock order are dealt at random from the unseen cards, the cards the
opponent is known to hold (shown marriage partners, the exchanged trump card) staying with it.
"""

from __future__ import annotations

from typing import Any

from domain.games.sixty_six.state import Deal, Rules, State
from domain.worlds import Draws, View

SUITS = "CDHS"


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


def sample_world(view: View, rng: Draws, facts: Facts | None = None) -> State:
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
        under = view.get("face_up_card") or (exchange["nine"] if exchange else trump_card)
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
        sum(m[2] for m in marriages if m[0] == s and m[5]) + facts.credited_later[s] for s in (0, 1)
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
