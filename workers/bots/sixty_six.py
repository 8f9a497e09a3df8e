"""A heuristic Sixty-Six bot: counts its own points, marries, exchanges, closes and goes out.

It sees only its seat's view. It declares out only when it knows it has 66 (from ``points`` in
the view, or from the listed tricks when points are hidden), so it never declares falsely.

With any-time declaring both seats are "to act"; the seat whose turn it is not may only declare.
Asked then without 66, the bot answers ``WAIT`` (``{"type": "wait"}``): it wants no action now.
The job runner should skip such a turn instead of playing a random (false) declaration.
"""

from __future__ import annotations

import random

from domain.games.sixty_six.state import CARD_POINTS, RANK_ORDER
from workers.bots.base import Action, View, register_bot

OUT = 66
CLOSE_AT = 50
WAIT: Action = {"type": "wait"}


def own_points(view: View) -> int | None:
    """The seat's points as far as the view tells them, None when it cannot know."""
    if isinstance(view.get("points"), int):
        return int(view["points"])
    tricks = view.get("tricks")
    if tricks is None:
        return None
    me = view["seat"]
    won = [t for t in tricks if t["winner"] == me]
    points = sum(CARD_POINTS[c[0]] for t in won for c in t["cards"])
    if won:
        points += sum(m["value"] for m in view.get("marriages", []) if m["seat"] == me)
    return points


def wants_to_declare(view: View) -> bool:
    """True when declaring out is legal and the seat surely has 66."""
    points = own_points(view)
    legal = any(a["type"] == "declare_out" for a in view["legal_actions"])
    return legal and points is not None and points >= OUT


class HeuristicBot:
    """Rules-aware play: cheap leads while the stock is open, win tricks worth taking."""

    def choose(self, view: View, rng: random.Random) -> Action:
        """The action to send."""
        legal = view["legal_actions"]
        if wants_to_declare(view):
            return {"type": "declare_out"}
        if view.get("turn") != view["seat"]:
            return dict(WAIT)
        by_type: dict[str, list[Action]] = {}
        for action in legal:
            by_type.setdefault(action["type"], []).append(action)
        choice = self._decide(view, by_type)
        return choice if choice is not None else dict(rng.choice(legal))

    def _decide(self, view: View, by_type: dict[str, list[Action]]) -> Action | None:
        if "exchange_trump" in by_type:
            return {"type": "exchange_trump"}
        if "pass" in by_type:
            return {"type": "pass"}
        if "close" in by_type and _should_close(view):
            return {"type": "close"}
        if "draw" in by_type:
            return {"type": "draw"}
        if "marriage" in by_type:
            return _best_marriage(view, by_type["marriage"])
        plays = [a["cards"][0] for a in by_type.get("play", [])]
        if not plays:
            return None
        trick = view.get("current_trick") or []
        if trick:
            return {"type": "play", "cards": [_follow(view, plays, trick[0]["card"])]}
        return {"type": "play", "cards": [_lead(view, plays)]}


def _value(card: str) -> int:
    return CARD_POINTS[card[0]]


def _beats(follow: str, lead: str, trump: str) -> bool:
    if follow[1] == lead[1]:
        return RANK_ORDER[follow[0]] > RANK_ORDER[lead[0]]
    return follow[1] == trump


def _married(card: str, hand: list[str]) -> bool:
    if card[0] not in "KQ":
        return False
    return ("Q" if card[0] == "K" else "K") + card[1] in hand


def _strict(view: View) -> bool:
    return view.get("stock") != "open"


def _lead(view: View, plays: list[str]) -> str:
    trump, hand = view["trump_suit"], view["hand"]
    if _strict(view):
        trumps = sorted((c for c in plays if c[1] == trump), key=lambda c: -RANK_ORDER[c[0]])
        aces = [c for c in plays if c[0] == "A" and c[1] != trump]
        if trumps and trumps[0][0] in "AT":
            return trumps[0]
        if aces:
            return aces[0]
        return min(plays, key=lambda c: (_value(c), c[1] == trump))
    keep = [c for c in plays if c[1] != trump and not _married(c, hand) and c[0] not in "AT"]
    pool = keep or [c for c in plays if c[1] != trump] or plays
    return min(pool, key=lambda c: (_value(c), RANK_ORDER[c[0]]))


def _follow(view: View, plays: list[str], led: str) -> str:
    trump, hand = view["trump_suit"], view["hand"]
    winners = [c for c in plays if _beats(c, led, trump)]
    same_suit = [c for c in winners if c[1] == led[1]]
    if _strict(view) and winners:
        return min(winners, key=lambda c: (c[1] == trump, _value(c)))
    if same_suit and (led[1] != trump or _value(led) >= 10):
        return max(same_suit, key=_value)
    if _value(led) >= 10 and led[1] != trump:
        trumps = [c for c in winners if c[1] == trump and not _married(c, hand)]
        if trumps:
            return min(trumps, key=lambda c: (_value(c), RANK_ORDER[c[0]]))
    losers = [c for c in plays if c[1] != trump and not _married(c, hand)] or plays
    return min(losers, key=lambda c: (_value(c), c[1] == trump, RANK_ORDER[c[0]]))


def _best_marriage(view: View, options: list[Action]) -> Action:
    trump = view["trump_suit"]
    queens = [a for a in options if a["cards"][0][0] == "Q"] or options
    return max(queens, key=lambda a: a["cards"][0][1] == trump)


def _should_close(view: View) -> bool:
    points = own_points(view)
    if points is None or view.get("seats", [{}])[view["seat"]].get("tricks", 0) == 0:
        return False
    trump, hand = view["trump_suit"], view["hand"]
    trumps = [c for c in hand if c[1] == trump]
    strong = sum(1 for c in trumps if c[0] in "AT") + sum(1 for c in hand if c[0] == "A")
    marriage = max((40 if c[1] == trump else 20 for c in hand if c[0] == "K"
                    and _married(c, hand)), default=0)
    return points + marriage >= OUT or (points >= CLOSE_AT and len(trumps) >= 2 and strong >= 2)


register_bot("heuristic", game="sixty_six")(HeuristicBot)
