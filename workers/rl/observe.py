"""Observations: a seat's view (exactly what the API shows that seat) as a fixed-size vector.

Built only from the view, never from the game's state: a card is in an observation only if
the seat's view shows it (the no-leak tests check observations as they check the API). A
vector is card planes, each a 0/1 entry per card of the game's deck (the seat's hand, the
pile, each seat's face-up cards counted from the observing seat, ...), then scalars scaled to
about 0..1 (phase, counts, scores). ``Encoder.planes`` and ``Encoder.scalars`` name them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

View = Mapping[str, Any]
Plane = Callable[[View], Iterable[str]]
Scalar = Callable[[View], float]
SUITS = "CDHS"


@dataclass(frozen=True)
class Encoder:
    """A game's observation: named card planes over ``deck``, then named scalars."""

    deck: tuple[str, ...]
    planes: tuple[tuple[str, Plane], ...]
    scalars: tuple[tuple[str, Scalar], ...]
    position: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", {card: i for i, card in enumerate(self.deck)})

    @property
    def size(self) -> int:
        return len(self.planes) * len(self.deck) + len(self.scalars)

    def encode(self, view: View) -> np.ndarray:
        """The view as a float32 vector (the view as the API sends it, or the domain's own
        with tuples for lists: the same vector)."""
        width, where = len(self.deck), self.position
        ones = [p * width + where[card]
                for p, (_, plane) in enumerate(self.planes)
                for card in plane(view) if card in where]  # fmt: skip
        out = np.zeros(self.size, dtype=np.float32)
        out[ones] = 1.0
        out[len(self.planes) * width :] = [scalar(view) for _, scalar in self.scalars]
        return out

    def scalar(self, vector: np.ndarray, name: str) -> float:
        """The value of the scalar named ``name`` in an observation."""
        names = [n for n, _ in self.scalars]
        return float(vector[len(self.planes) * len(self.deck) + names.index(name)])

    def cards_of(self, vector: np.ndarray) -> set[str]:
        """Every card some plane of an observation shows."""
        planes = vector[: len(self.planes) * len(self.deck)].reshape(len(self.planes), -1)
        return {self.deck[i] for i in np.flatnonzero(planes.max(axis=0))}


def cards_in(value: Any) -> list[str]:
    """Every card code in a JSON value (lists and objects walked)."""
    if isinstance(value, str):
        return [value] if len(value) == 2 else []
    if isinstance(value, Mapping):
        return [c for v in value.values() for c in cards_in(v)]
    if isinstance(value, list | tuple):
        return [c for v in value for c in cards_in(v)]
    return []


def relative(view: View, offset: int) -> Mapping[str, Any]:
    """The view's entry in ``seats`` for the seat ``offset`` places after the observer."""
    seats: Sequence[Mapping[str, Any]] = view.get("seats") or []
    if offset >= len(seats):
        return {}
    return seats[(int(view.get("seat") or 0) + offset) % len(seats)]


def flag(value: Any) -> float:
    return 1.0 if value else 0.0


def seat_number(offset: int, key: str, scale: float) -> Scalar:
    """A number of the seat ``offset`` places after the observer, divided by ``scale``."""
    return lambda v: float(relative(v, offset).get(key) or 0) / scale


def seat_cards(offset: int, key: str) -> Plane:
    """The cards under ``key`` of the seat ``offset`` places after the observer."""
    return lambda v: cards_in(relative(v, offset).get(key))


def seat_flag(offset: int, key: str) -> Scalar:
    """A yes/no fact of the seat ``offset`` places after the observer."""
    return lambda v: flag(relative(v, offset).get(key))


def seat_to_act(offset: int) -> Scalar:
    """1 when the seat ``offset`` places after the observer is to act."""
    return lambda v: flag(relative(v, offset).get("seat") in (v.get("to_act") or []))


def one_hot(name: str, key: str, choices: Sequence[Any]) -> list[tuple[str, Scalar]]:
    """A scalar per choice: 1 when ``view[key]`` is it."""
    return [(f"{name}={c}", equals(key, c)) for c in choices]


def equals(key: str, value: Any) -> Scalar:
    """1 when ``view[key]`` is ``value``."""
    return lambda v: flag(v.get(key) == value)


def _shithead() -> Encoder:
    deck = (*(r + s for s in SUITS for r in "23456789TJQKA"), "RJ", "BJ")
    planes: list[tuple[str, Plane]] = [
        ("hand", lambda v: v.get("hand") or []),
        ("pile", lambda v: v.get("pile") or []),
        ("pile_top", lambda v: (v.get("pile") or [])[-1:]),
        ("last_revealed", lambda v: [v["last_revealed"]] if v.get("last_revealed") else []),
    ]
    planes += [(f"face_up+{k}", seat_cards(k, "face_up")) for k in range(6)]
    scalars = one_hot("phase", "phase", ("preplay", "play"))
    scalars += [
        ("stock", lambda v: float(v.get("stock_count") or 0) / 54),
        ("burned", lambda v: float(v.get("burned_count") or 0) / 54),
        ("pile_size", lambda v: len(v.get("pile") or []) / 54),
        ("direction", lambda v: flag(v.get("direction") == -1)),
        ("players", lambda v: len(v.get("seats") or []) / 6),
    ]
    for k in range(6):
        scalars += [
            (f"hand_count+{k}", seat_number(k, "hand_count", 54)),
            (f"face_down+{k}", seat_number(k, "face_down_count", 5)),
            (f"out+{k}", seat_flag(k, "out")),
            (f"ready+{k}", seat_flag(k, "ready")),
            (f"to_act+{k}", seat_to_act(k)),
        ]
    return Encoder(deck, tuple(planes), tuple(scalars))


def _sixty_six() -> Encoder:
    deck = tuple(r + s for s in SUITS for r in "9TJQKA")
    planes: list[tuple[str, Plane]] = [
        ("hand", lambda v: v.get("hand") or []),
        ("trump_card", lambda v: [v["face_up_card"]] if v.get("face_up_card") else []),
        ("trick", lambda v: cards_in(v.get("current_trick"))),
        ("last_trick", lambda v: cards_in(v.get("last_trick"))),
        ("opponent_known", lambda v: v.get("opponent_known_cards") or []),
        ("marriages", lambda v: cards_in(v.get("marriages"))),
        ("won_tricks", lambda v: cards_in(v.get("tricks"))),
    ]
    scalars = one_hot("trump", "trump_suit", tuple(SUITS))
    scalars += [
        ("my_game_points", lambda v: _mine(v, "game_points") / 7),
        ("their_game_points", lambda v: _theirs(v, "game_points") / 7),
        ("points", lambda v: float(v.get("points") or 0) / 66),
        ("stock", lambda v: float(v.get("stock_size") or 0) / 12),
        ("stock_closed", lambda v: flag(v.get("stock") not in (None, "open"))),
        ("my_turn", lambda v: flag(v.get("seat") in (v.get("to_act") or []))),
        ("leading", lambda v: flag(not v.get("current_trick"))),
    ]
    return Encoder(deck, tuple(planes), tuple(scalars))


def _mine(view: View, key: str) -> float:
    values = view.get(key) or [0, 0]
    return float(values[int(view.get("seat") or 0)])


def _theirs(view: View, key: str) -> float:
    values = view.get(key) or [0, 0]
    return float(values[1 - int(view.get("seat") or 0)])


PHASES = ("picking", "burying", "calling", "cracking", "recracking", "playing")


def _sheepshead() -> Encoder:
    deck = tuple(sorted(r + s for s in SUITS for r in "789TJQKA"))
    planes: list[tuple[str, Plane]] = [
        ("hand", lambda v: v.get("hand") or []),
        ("blind", lambda v: cards_in(v.get("blind"))),
        ("buried", lambda v: cards_in(v.get("buried"))),
        ("trick", lambda v: cards_in(v.get("trick"))),
        ("played", lambda v: cards_in([t.get("cards") for t in v.get("tricks") or []])),
        ("called", lambda v: [v["called"]] if isinstance(v.get("called"), str) else []),
    ]
    scalars = one_hot("phase", "phase", PHASES) + one_hot("role", "role",
                                                          ("picker", "partner", "defender"))
    scalars += [
        ("multiplier", lambda v: float(v.get("multiplier") or 1) / 8),
        ("players", lambda v: float(v.get("players") or 0) / 7),
        ("alone", lambda v: flag(v.get("alone"))),
    ]
    for k in range(7):
        scalars += [
            (f"picker+{k}", seat_flag(k, "picker")),
            (f"points+{k}", seat_number(k, "points", 120)),
            (f"total+{k}", seat_number(k, "total", 50)),
            (f"cards+{k}", seat_number(k, "cards", 10)),
        ]
    return Encoder(deck, tuple(planes), tuple(scalars))


ENCODERS: dict[str, Callable[[], Encoder]] = {
    "shithead": _shithead,
    "sixty_six": _sixty_six,
    "sheepshead": _sheepshead,
}


def encoder_for(game: str) -> Encoder:
    """The observation encoder of a game."""
    return ENCODERS[game]()
