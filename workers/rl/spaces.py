"""A fixed action space per game: every index means one kind of action, whatever the deal.

An action's *key* names what it does: its type and, per game, what matters of its fields.
Shithead's suits have no effect on play (rules R1.2), so its keys name ranks (``X`` for a
joker): ``("play", "7", 2)`` is a pair of sevens, ``("swap", "3", "K")`` puts a king from the
hand face up in place of a three. Sixty-Six and Sheepshead name cards: ``("play", "TS")``,
``("marriage", "QH", False)``, ``("bury", ("7D", "8D"))``. ``ActionSpace.keys`` lists every key
of the game at that table (players and options), in a fixed order; an index is a position in
that list. ``legal(actions)`` maps a seat's legal actions to indices (its mask), keeping the
first legal action of each key: actions of one key differ only in what does not matter (a
suit in Shithead), never in their effect on the game's outcome.

Not covered: Shithead's ``deal_6_choose_3`` (choosing face-up cards is a choice among subsets
of the hand): ``space_for`` refuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

Key = tuple[Hashable, ...]
SUITS = "CDHS"
SHITHEAD_RANKS = "23456789TJQKAX"  # X: a joker (RJ, BJ)
SLOTS = range(5)  # Shithead's cards_per_row is at most 5


class OutsideTheSpace(ValueError):
    """An action (or a table) the game's fixed action space does not cover."""


@dataclass(frozen=True, eq=False)
class ActionSpace:
    """The keys of one game at one table, and how an action's key is made."""

    game: str
    keys: tuple[Key, ...]
    key_of: Callable[[Mapping[str, Any]], Key]
    index: dict[Key, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {key: i for i, key in enumerate(self.keys)})

    @property
    def size(self) -> int:
        return len(self.keys)

    def index_of(self, action: Mapping[str, Any]) -> int:
        """The index of an action (OutsideTheSpace when its key is not in the space)."""
        found = self.index.get(self.key_of(action))
        if found is None:
            raise OutsideTheSpace(f"{self.game}: the action {dict(action)} is not in the space")
        return found

    def legal(self, actions: Sequence[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
        """Index -> the first legal action of that key."""
        out: dict[int, Mapping[str, Any]] = {}
        for action in actions:
            out.setdefault(self.index_of(action), action)
        return out


def _rank(card: str) -> str:
    return "X" if card in ("RJ", "BJ") else card[0]


def _shithead_key(action: Mapping[str, Any]) -> Key:
    kind = action.get("type")
    if kind == "play":
        cards = action.get("cards") or []
        return ("play", _rank(cards[0]) if cards else "", len(cards))
    if kind == "swap":
        return ("swap", _rank(action["face_up_card"]), _rank(action["hand_card"]))
    if kind == "stack":
        return ("stack", _rank(action["card"]), action["slot"])
    if kind == "pickup" and "face_up_card" in action:
        return ("pickup", _rank(action["face_up_card"]))
    if kind == "flip":
        return ("flip", action["slot"])
    return (str(kind),)


def _shithead(players: int, options: Mapping[str, Any], probe: Any) -> ActionSpace:
    if options.get("deal_6_choose_3"):
        raise OutsideTheSpace("shithead: deal_6_choose_3 is not in the fixed action space")
    ranks = SHITHEAD_RANKS
    keys: list[Key] = [("ready",), ("pickup",), ("play_stock",)]
    keys += [("play", r, n) for r in ranks for n in range(1, 5)]
    keys += [("swap", up, hand) for up in ranks for hand in ranks]
    keys += [("stack", r, slot) for r in ranks for slot in SLOTS]
    keys += [("pickup", r) for r in ranks]
    keys += [("flip", slot) for slot in SLOTS]
    return ActionSpace("shithead", tuple(keys), _shithead_key)


def _cards_key(action: Mapping[str, Any]) -> Key:
    kind = str(action.get("type"))
    cards = tuple(sorted(action.get("cards") or ()))
    if kind == "marriage":
        return (kind, cards[0] if cards else "", bool(action.get("declare", False)))
    if kind == "pick":
        return (kind, bool(action.get("blitz", False)))
    if kind in ("play", "call"):
        return (kind, cards[0] if cards else "")
    return (kind, cards) if cards else (kind,)


def _sixty_six(players: int, options: Mapping[str, Any], probe: Any) -> ActionSpace:
    deck = [rank + suit for suit in SUITS for rank in "9TJQKA"]
    keys: list[Key] = [("close",), ("draw",), ("declare_out",), ("exchange_trump",), ("pass",)]
    keys += [("play", c) for c in deck]
    keys += [("marriage", c, declare) for c in deck for declare in (False, True)]
    return ActionSpace("sixty_six", tuple(keys), _cards_key)


def _sheepshead(players: int, options: Mapping[str, Any], probe: Any) -> ActionSpace:
    deck = sorted(rank + suit for suit in SUITS for rank in "789TJQKA")
    buried = len(probe.hand.blind)  # the blind's size at this table (2, or 4 with 4 or 7)
    keys: list[Key] = [
        ("pick", False), ("pick", True), ("pass",), ("alone",), ("partner",),
        ("crack",), ("no_crack",), ("recrack",), ("no_recrack",),
    ]  # fmt: skip
    keys += [("play", c) for c in deck]
    keys += [("call", c) for c in deck]
    keys += [("bury", cards) for cards in combinations(deck, buried)]
    return ActionSpace("sheepshead", tuple(keys), _cards_key)


SPACES: dict[str, Callable[[int, Mapping[str, Any], Any], ActionSpace]] = {
    "shithead": _shithead,
    "sixty_six": _sixty_six,
    "sheepshead": _sheepshead,
}


def space_for(game: str, players: int, options: Mapping[str, Any], probe: Any) -> ActionSpace:
    """The fixed action space of ``game`` at a table (``probe``: a state just dealt there)."""
    if game not in SPACES:
        raise OutsideTheSpace(f"no action space for game {game!r}")
    return SPACES[game](players, options, probe)
