"""Explicit deals: the shared validation of card codes, duplicates and deck membership.

Shape (DESIGN.md): ``{"seats": [{"hand": [...], "face_up": [...], "face_down": [...]}, ...],
"stock": [...top first], "extra": {...}}`` with only the zones a game uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.cards import Card
from domain.errors import InvalidDeal


def _cards(value: Any, where: str, deck: frozenset[str]) -> tuple[Card, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidDeal(f"{where} must be a list of card codes")
    for code in value:
        if not isinstance(code, str) or code not in deck:
            raise InvalidDeal(f"{where}: {code!r} is not a card of this game's deck")
    return tuple(Card(c) for c in value)


def parse_deal(
    deal: Any,
    *,
    players: int,
    deck: Sequence[str],
    seat_zones: Iterable[str],
    extra_zones: Iterable[str] = (),
    has_stock: bool = True,
) -> dict[str, Any]:
    """Validated deal: ``{"seats": [{zone: cards}], "stock": cards, "extra": {zone: cards}}``.

    Unknown zones, unknown or duplicate cards and a wrong seat count are rejected (a game without
    a stock takes ``"stock": []``: nothing is dealt there); zone sizes are the game's to check.
    """
    if not isinstance(deal, Mapping):
        raise InvalidDeal("deal must be an object with seats, stock and extra")
    allowed = {"seats", "stock", "extra"} if has_stock else {"seats", "extra"}
    given = {k for k, v in deal.items() if not (k == "stock" and _empty_zone(v))}
    unknown = sorted(given - allowed)
    if unknown:
        raise InvalidDeal(f"deal has unknown field(s): {', '.join(unknown)}")
    deckset = frozenset(deck)
    zones = tuple(seat_zones)
    seats = deal.get("seats")
    if not isinstance(seats, list | tuple) or len(seats) != players:
        raise InvalidDeal(f"deal.seats must list exactly {players} seats")
    parsed_seats = [_parse_seat(s, i, zones, deckset) for i, s in enumerate(seats)]
    stock = _cards(deal.get("stock", []), "deal.stock", deckset) if has_stock else ()
    extra = _parse_extra(deal.get("extra", {}), tuple(extra_zones), deckset)
    everything = [c for s in parsed_seats for z in zones for c in s[z]]
    everything += list(stock) + [c for cards in extra.values() for c in cards]
    seen: set[str] = set()
    dupes = sorted({c for c in everything if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
    if dupes:
        raise InvalidDeal(f"deal uses card(s) more than once: {', '.join(dupes)}")
    return {"seats": parsed_seats, "stock": stock, "extra": extra}


def _empty_zone(value: Any) -> bool:
    return isinstance(value, list | tuple) and not value


def _parse_seat(
    seat: Any, index: int, zones: tuple[str, ...], deck: frozenset[str]
) -> dict[str, tuple[Card, ...]]:
    if not isinstance(seat, Mapping):
        raise InvalidDeal(f"deal.seats[{index}] must be an object")
    unknown = sorted(set(seat) - set(zones))
    if unknown:
        raise InvalidDeal(f"deal.seats[{index}] has unknown zone(s): {', '.join(unknown)}")
    return {z: _cards(seat.get(z, []), f"deal.seats[{index}].{z}", deck) for z in zones}


def _parse_extra(
    extra: Any, zones: tuple[str, ...], deck: frozenset[str]
) -> dict[str, tuple[Card, ...]]:
    if not isinstance(extra, Mapping):
        raise InvalidDeal("deal.extra must be an object")
    unknown = sorted(set(extra) - set(zones))
    if unknown:
        raise InvalidDeal(f"deal.extra has unknown field(s): {', '.join(unknown)}")
    out: dict[str, tuple[Card, ...]] = {}
    for zone in zones:
        value = extra.get(zone, [])
        out[zone] = _cards([value] if isinstance(value, str) else value, f"deal.extra.{zone}", deck)
    return out


def deal_order(
    deal: Mapping[str, Any], seat_zones: Iterable[str], extra_zones: Iterable[str] = ()
) -> list[str]:
    """An explicit deal's cards in the documented commitment order.

    Seat 0's zones in the game's zone order, then seat 1's, ..., then the stock top first,
    then the extra zones in the game's order.
    """
    zones = tuple(seat_zones)
    out = [c for seat in deal["seats"] for z in zones for c in seat[z]]
    out += list(deal["stock"])
    out += [c for z in extra_zones for c in deal["extra"].get(z, ())]
    return out


def whole_number(value: Any, field: str, least: int, most: int) -> int:
    """``value`` if it is a whole number from ``least`` to ``most``, else InvalidDeal naming
    ``field`` (a match state's number in ``deal.extra``)."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise InvalidDeal(
            f"{field} must be a whole number from {least} to {most}, got {value!r}", field=field
        )
    return value


def match_fields(deal: Any, names: Sequence[str]) -> tuple[Any, dict[str, Any]]:
    """The deal without the match-state fields ``names`` of its ``extra``, and those fields
    (empty when none is given: the deal is returned as it is)."""
    if not isinstance(deal, Mapping) or not isinstance(deal.get("extra"), Mapping):
        return deal, {}
    extra = deal["extra"]
    given = {k: extra[k] for k in names if k in extra}
    if not given:
        return deal, {}
    return {**deal, "extra": {k: v for k, v in extra.items() if k not in names}}, given
