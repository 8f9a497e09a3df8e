"""The match state an explicit deal may carry, to start any deal of a match (R2, R14).

``deal.extra`` may hold, besides the ``trump_card``:

- ``match_points``: ``[seat 0, seat 1]`` game points so far, each below ``game_target``;
- ``carry_over``: game points carried by undecided deals (0 unless ``carry_over_undecided``);
- ``deal_number``: this deal's number in the match (0 = the first); the deals that follow are
  shuffled as deals ``deal_number + 1``, ... of the seed, and it counts as the deals scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.deals import match_fields, whole_number
from domain.errors import InvalidDeal
from domain.games.sixty_six.state import Rules

MATCH_FIELDS = ("match_points", "carry_over", "deal_number")
MAX_DEAL_NUMBER = 10_000
MAX_CARRY_OVER = 100


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where in the match the explicit deal starts (the default: its beginning)."""

    match_points: tuple[int, int] = (0, 0)
    carry_over: int = 0
    deal_number: int = 0


def _count(value: Any, field: str, most: int) -> int:
    return whole_number(value, field, 0, most)


def match_state(deal: Any, rules: Rules) -> tuple[Any, MatchState]:
    """The deal without its match fields, and the validated match state they give."""
    cards, given = match_fields(deal, MATCH_FIELDS)
    if not given:
        return deal, MatchState()
    top = rules.game_target - 1
    points = given.get("match_points", [0, 0])
    field = "deal.extra.match_points"
    if not isinstance(points, list | tuple) or len(points) != 2:
        raise InvalidDeal(f"{field} must list two seats' game points, got {points!r}",
                          field=field)
    pair = (_count(points[0], f"{field}[0]", top), _count(points[1], f"{field}[1]", top))
    carry = _count(given.get("carry_over", 0), "deal.extra.carry_over", MAX_CARRY_OVER)
    if carry and not rules.carry_over_undecided:
        raise InvalidDeal("deal.extra.carry_over must be 0: carry_over_undecided is off, "
                          "so no point is ever carried", field="deal.extra.carry_over")
    number = _count(given.get("deal_number", 0), "deal.extra.deal_number", MAX_DEAL_NUMBER)
    return cards, MatchState(pair, carry, number)
