"""The match state an explicit deal may carry, to start any hand of a match.

``deal.extra`` may hold, besides the ``blind``:

- ``totals``: every seat's running score so far (Sheepshead scores sum to zero);
- ``multiplier``: the doubling a thrown-in hand left for this one (``no_pick = "doubler"``
  only; a power of two, 1 otherwise);
- ``hand_number``: the counted hands already played (below ``rounds``);
- ``deal_number``: this deal's number (at least ``hand_number``: a thrown-in deal is not a
  counted hand); the deals that follow are shuffled as deals ``deal_number + 1``, ... of the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.deals import match_fields, whole_number
from domain.errors import InvalidDeal

MATCH_FIELDS = ("totals", "multiplier", "hand_number", "deal_number")
MOST = 10_000
MAX_MULTIPLIER = 2**20


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where in the match the explicit deal starts (``totals=None``: nothing given)."""

    totals: tuple[int, ...] | None = None
    multiplier: int = 1
    hand_number: int = 0
    deal_number: int = 0


_whole = whole_number


def match_state(deal: Any, players: int, options: Mapping[str, Any]) -> tuple[Any, MatchState]:
    """The deal without its match fields, and the validated match state they give."""
    cards, given = match_fields(deal, MATCH_FIELDS)
    if not given:
        return deal, MatchState()
    totals = given.get("totals", [0] * players)
    field = "deal.extra.totals"
    if not isinstance(totals, list | tuple) or len(totals) != players:
        raise InvalidDeal(f"{field} must list {players} seats' scores, got {totals!r}",
                          field=field)
    scores = tuple(_whole(t, f"{field}[{i}]", -MOST, MOST) for i, t in enumerate(totals))
    if sum(scores) != 0:
        raise InvalidDeal(f"{field} must sum to zero (every hand's scores do), got "
                          f"{sum(scores)}", field=field)
    field = "deal.extra.multiplier"
    multiplier = _whole(given.get("multiplier", 1), field, 1, MAX_MULTIPLIER)
    if multiplier & (multiplier - 1):
        raise InvalidDeal(f"{field} must be a power of two, got {multiplier}", field=field)
    if multiplier > 1 and options["no_pick"] != "doubler":
        raise InvalidDeal(f"{field} must be 1: only no_pick = doubler doubles the next hand",
                          field=field)
    rounds = int(options["rounds"])
    hand = _whole(given.get("hand_number", 0), "deal.extra.hand_number", 0, rounds - 1)
    number = _whole(given.get("deal_number", hand), "deal.extra.deal_number", hand, MOST)
    return cards, MatchState(scores, multiplier, hand, number)
