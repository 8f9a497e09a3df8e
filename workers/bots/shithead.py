"""A heuristic Shithead bot: it sees only its seat's view and picks among its legal actions.

Pre-play: the best cards (2s, 10s, jokers, then the highest ranks) go face up, stacks are
built from equal ranks. Play: lead and follow with the lowest ordinary rank, all its cards at
once; complete a four of a kind for a free turn; keep 2s, 10s and jokers for when nothing
ordinary fits, burning with a 10 when the pile is big; pick up a small pile rather than waste
a special; blind flips are random; a forced face-up pickup takes the most useful card.
"""

from __future__ import annotations

import random
from typing import Any

from workers.bots.base import Action, View, register_bot

_VALUE = {r: i for i, r in enumerate("23456789TJQKA", start=2)}
BIG_PILE = 6
CHEAP_PILE = 2


def _rank(card: str) -> str:
    return "*" if card in ("RJ", "BJ") else card[0]


def specials(options: dict[str, Any]) -> frozenset[str]:
    """Ranks that go on (nearly) anything under these options: worth keeping."""
    ranks = {"*"}
    for rank, option in (
        ("2", "two_is_reset"),
        ("T", "ten_burns"),
        ("8", "eights_reverse_transparent"),
        ("7", "sevens_glass"),
        ("5", "fives_low"),
    ):
        if options.get(option, rank in "2T"):
            ranks.add(rank)
    return frozenset(ranks)


def card_worth(card: str, special: frozenset[str]) -> int:
    """How much a card is worth keeping for later (specials highest)."""
    rank = _rank(card)
    if rank in special:
        return {"T": 30, "2": 29, "*": 28}.get(rank, 20)
    return _VALUE[rank]


class ShitheadHeuristic:
    """Rule-of-thumb play; ties broken by the seeded rng."""

    def choose(self, view: View, rng: random.Random) -> Action:
        legal: list[dict[str, Any]] = view["legal_actions"]
        if len(legal) == 1:
            return dict(legal[0])
        kinds = {a["type"] for a in legal}
        special = specials(view.get("options", {}))
        if "choose_face_up" in kinds:
            return _choose_face_up(legal, special)
        if kinds & {"swap", "stack", "ready"}:
            return _preplay(view, legal, special)
        if "flip" in kinds:
            return dict(rng.choice(legal))
        return _play(view, legal, special)


def _choose_face_up(legal: list[dict[str, Any]], special: frozenset[str]) -> Action:
    def score(action: dict[str, Any]) -> tuple[int, int]:
        cards = action.get("cards") or [c for slot in action["slots"] for c in slot]
        return sum(card_worth(c, special) for c in cards), len(cards)

    best: dict[str, Any] = max(legal, key=score)
    return dict(best)


def _preplay(view: View, legal: list[dict[str, Any]], special: frozenset[str]) -> Action:
    stacks = [a for a in legal if a["type"] == "stack"]
    worth_stacking = [a for a in stacks if card_worth(a["card"], special) >= _VALUE["9"]]
    if worth_stacking:
        return dict(worth_stacking[0])
    swaps = [a for a in legal if a["type"] == "swap"]
    best_gain, best = 0, None
    for swap in swaps:
        gain = card_worth(swap["hand_card"], special) - card_worth(swap["face_up_card"], special)
        if gain > best_gain:
            best_gain, best = gain, swap
    if best is not None:
        return dict(best)
    return {"type": "ready"} if {"type": "ready"} in legal else dict(legal[0])


def _play(view: View, legal: list[dict[str, Any]], special: frozenset[str]) -> Action:
    plays = [a for a in legal if a["type"] == "play"]
    pickups = [a for a in legal if a["type"] == "pickup"]
    pile: list[str] = view["pile"]
    if plays and not pickups and view["seat"] not in view["to_act"][:1]:
        return dict(plays[0])  # a ten out of turn: a free burn
    burning = [a for a in plays if _completes_four(pile, a["cards"])]
    if burning:
        return dict(max(burning, key=lambda a: len(a["cards"])))
    ordinary = [a for a in plays if _rank(a["cards"][0]) not in special]
    tens = [a for a in plays if _rank(a["cards"][0]) == "T" and "T" in special]
    if tens and len(pile) >= BIG_PILE and (not ordinary or _low_rank(ordinary) >= _VALUE["J"]):
        return dict(min(tens, key=lambda a: len(a["cards"])))
    if ordinary:
        return _lowest_set(ordinary)
    extra = [a for a in plays if a not in ordinary]
    if extra and (not pickups or len(pile) > CHEAP_PILE or _endgame(view)):
        chosen: dict[str, Any] = min(extra, key=lambda a: (_keep_order(a), len(a["cards"])))
        return dict(chosen)
    if {"type": "play_stock"} in legal and len(pile) > CHEAP_PILE:
        return {"type": "play_stock"}
    if pickups:
        best: dict[str, Any] = max(
            pickups, key=lambda a: card_worth(a.get("face_up_card", "2C"), special)
        )
        return dict(best)
    return dict(legal[0])


def _lowest_set(plays: list[dict[str, Any]]) -> Action:
    low = min(_VALUE[_rank(a["cards"][0])] for a in plays)
    same = [a for a in plays if _VALUE[_rank(a["cards"][0])] == low]
    return dict(max(same, key=lambda a: len(a["cards"])))


def _low_rank(plays: list[dict[str, Any]]) -> int:
    return min(_VALUE[_rank(a["cards"][0])] for a in plays)


def _keep_order(action: dict[str, Any]) -> int:
    """Spend the least valuable special first (a 2 before a joker before a 10)."""
    return {"2": 0, "*": 1, "T": 2}.get(_rank(action["cards"][0]), -1)


def _completes_four(pile: list[str], cards: list[str]) -> bool:
    rank = _rank(cards[0])
    if rank == "*":
        return False
    run = 0
    for card in reversed(pile):
        if _rank(card) != rank:
            break
        run += 1
    return run + len(cards) >= 4 and run > 0


def _endgame(view: View) -> bool:
    me = view["seats"][view["seat"]]
    table = sum(len(slot) for slot in me["face_up"])
    return bool(view["stock_count"] == 0 and me["hand_count"] + table <= 3)


register_bot("heuristic", game="shithead")(ShitheadHeuristic)
