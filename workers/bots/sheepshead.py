"""A heuristic Sheepshead bot: it sees only its seat's view and picks among legal actions.

Picking by trump strength; burying fail points and short suits; calling rather than going
alone unless the hand is overwhelming; as picker or partner leading trump; schmearing points
on a trick a known teammate is winning; winning point-rich tricks as cheaply as possible;
in a leaster, ducking.
"""

from __future__ import annotations

import random
from typing import Any

from domain.games.sheepshead.cards import (
    effective_suit,
    is_trump,
    points,
    power,
    total_points,
    trick_winner_index,
)
from workers.bots.base import Action, View, register_bot

_TRUMP_WEIGHT = {"Q": 3, "J": 2}


def trump_strength(cards: list[str]) -> float:
    """Queens 3, jacks 2, diamonds 1, plus half a point per fail ace."""
    score = 0.0
    for card in cards:
        if is_trump(card):
            score += _TRUMP_WEIGHT.get(card[0], 1)
        elif card[0] == "A":
            score += 0.5
    return score


class SheepsheadHeuristic:
    """Rule-of-thumb play; deterministic except for ties broken by the seeded rng."""

    def choose(self, view: View, rng: random.Random) -> Action:
        legal: list[dict[str, Any]] = view["legal_actions"]
        if len(legal) == 1:
            return dict(legal[0])
        kinds = {a["type"] for a in legal}
        if "play" in kinds:
            return self._play(view, legal)
        if "bury" in kinds:
            return self._bury(view, legal)
        if kinds & {"call", "alone", "partner"}:
            return self._call(view, legal)
        if kinds & {"pick", "pass"}:
            return self._pick(view, legal)
        if "crack" in kinds:
            strong = trump_strength(view["hand"]) >= 1.6 * len(view["hand"])
            return {"type": "crack" if strong else "no_crack"}
        if "recrack" in kinds:
            strong = trump_strength(view["hand"]) >= 1.5 * len(view["hand"])
            return {"type": "recrack" if strong else "no_recrack"}
        return dict(rng.choice(legal))

    # --- before play -----------------------------------------------------------------------

    def _pick(self, view: View, legal: list[dict[str, Any]]) -> Action:
        hand = view["hand"]
        strength = trump_strength(hand)
        threshold = 1.2 * len(hand) + (1 if view.get("players", 5) <= 4 else 0)
        wants = strength >= threshold or {"type": "pass"} not in legal
        if not wants:
            return {"type": "pass"}
        blitz = {"type": "pick", "blitz": True}
        return blitz if blitz in legal and strength >= threshold + 2 else {"type": "pick"}

    def _bury(self, view: View, legal: list[dict[str, Any]]) -> Action:
        hand = view["hand"]
        return max(legal, key=lambda a: _bury_value(hand, a["cards"]))

    def _call(self, view: View, legal: list[dict[str, Any]]) -> Action:
        hand = view["hand"]
        calls = [a for a in legal if a["type"] == "call"]
        if {"type": "alone"} in legal and trump_strength(hand) >= 2.3 * len(hand):
            return {"type": "alone"}
        if calls:
            return dict(calls[0])
        if {"type": "partner"} in legal:
            return {"type": "partner"}
        return dict(legal[0])

    # --- play ------------------------------------------------------------------------------

    def _play(self, view: View, legal: list[dict[str, Any]]) -> Action:
        cards = [a["cards"][0] for a in legal]
        trick = [t["card"] for t in view["trick"]]
        seats = [t["seat"] for t in view["trick"]]
        if view.get("leaster"):
            card = _duck(trick, cards)
        elif not trick:
            card = _lead(view, cards)
        else:
            card = _follow(view, trick, seats, cards)
        return {"type": "play", "cards": [card]}


def _bury_value(hand: list[str], buried: list[str]) -> float:
    kept = [c for c in hand if c not in buried]
    value = 0.0
    for card in buried:
        value += -30 if is_trump(card) else points(card) + 2
    for suit in "CSH":
        if any(effective_suit(c) == suit for c in hand) and not any(
            effective_suit(c) == suit for c in kept
        ):
            value += 8
    return value


def _team(view: View) -> tuple[set[int], set[int]]:
    """Seats known to be with me and seats known to be against me."""
    me = view["seat"]
    picker: int = view["picker"] if view.get("picker") is not None else -1
    partner = next((s["seat"] for s in view["seats"] if s["partner"]), None)
    role = view.get("role")
    everyone = {s["seat"] for s in view["seats"] if not s["sitting_out"]}
    if role == "picker":
        team = {me} | ({partner} if partner is not None else set())
        return team, everyone - team if partner is not None or view.get("alone") else set()
    if role == "partner":
        return {me, picker}, everyone - {me, picker}
    opponents = {picker} | ({partner} if partner is not None else set())
    known = partner is not None or view.get("alone") is True
    return (everyone - opponents if known else {me}), opponents


def _lead(view: View, cards: list[str]) -> str:
    trumps = sorted((c for c in cards if is_trump(c)), key=power)
    if view.get("role") in ("picker", "partner") and trumps:
        return trumps[-1] if len(trumps) >= 3 else trumps[0]
    fails = [c for c in cards if not is_trump(c)]
    called = view.get("called")
    if called and not is_trump(called):
        same = [c for c in fails if effective_suit(c) == called[1]]
        if same:
            return min(same, key=power)
    aces = [c for c in fails if c[0] == "A"]
    if aces:
        return aces[0]
    pool = fails or cards
    return min(pool, key=lambda c: (points(c), power(c)))


def _winner_with(trick: list[str], card: str) -> bool:
    return trick_winner_index([*trick, card]) == len(trick)


def _follow(view: View, trick: list[str], seats: list[int], cards: list[str]) -> str:
    team, _ = _team(view)
    leader = seats[trick_winner_index(trick)]
    last = len(trick) == len([s for s in view["seats"] if not s["sitting_out"]]) - 1
    if leader in team and leader != view["seat"]:
        safe = [c for c in cards if not is_trump(c) or power(c) < power("AD")]
        return max(safe or cards, key=lambda c: (points(c), -power(c)))
    winners = [c for c in cards if _winner_with(trick, c)]
    worth = total_points(trick) >= 10 or last
    if winners and worth:
        if last:
            return max(winners, key=lambda c: (points(c), -power(c)))
        return min(winners, key=power)
    return min(cards, key=lambda c: (points(c), power(c)))


def _duck(trick: list[str], cards: list[str]) -> str:
    losers = [c for c in cards if not trick or not _winner_with(trick, c)]
    if losers:
        return max(losers, key=lambda c: (points(c), power(c)))
    return min(cards, key=lambda c: (points(c), power(c)))


register_bot("heuristic", game="sheepshead")(SheepsheadHeuristic)
