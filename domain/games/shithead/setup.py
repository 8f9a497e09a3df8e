"""Creating a game (R2, R3): setup checks, the seeded or explicit deal, the creation events."""

from __future__ import annotations

from typing import Any

from domain.cards import deck_52, deck_54
from domain.deals import deal_order, parse_deal
from domain.errors import InvalidDeal, InvalidSetup
from domain.events import Event
from domain.games.shithead.events import CardsDealt, GameStarted
from domain.games.shithead.options import Rules, rules_for
from domain.protocol import Setup
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled

ZONES = ("hand", "face_up", "face_down")
Cards = tuple[str, ...]


def creation_events(setup: Setup, options: dict[str, Any]) -> list[Event]:
    """GameStarted then CardsDealt for a checked setup and complete options."""
    if not isinstance(setup.seed, str):
        raise InvalidSetup(f"seed must be a string, got {setup.seed!r}")
    players = setup.players
    rules = rules_for(options, players)
    deck = deck_54() if rules.jokers_in_deck else deck_52()
    dealer = setup.dealer
    if dealer is None:
        dealer = seeded_choice(setup.seed, "dealer", players)
    if setup.deal is not None:
        dealt, order = _explicit(setup.deal, players, rules, deck)
    else:
        order = shuffled(deck, setup.seed, deal_label(0))
        dealt = deal_cards(order, players, dealer, rules)
    started = GameStarted(
        players=players,
        dealer=dealer,
        options=dict(options),
        seed=setup.seed,
        commitment=deck_commitment(setup.seed, order),
        explicit_deal=setup.deal is not None,
    )
    return [started, dealt]


def deal_cards(deck: list[Any], players: int, dealer: int, rules: Rules) -> CardsDealt:
    """Deal a shuffled deck from the dealer's left (R3.3, dealing_style, deal_6_choose_3)."""
    rows = rules.cards_per_row
    hand = rules.hand_size + (rows if rules.deal_6_choose_3 else 0)
    up = 0 if rules.deal_6_choose_3 else rows
    order = [(dealer + i) % players for i in range(1, players + 1)]
    zones: list[dict[str, list[str]]] = [{z: [] for z in ZONES} for _ in range(players)]
    cards = iter(deck)
    for zone, size in (("face_down", rows), ("face_up", up), ("hand", hand)):
        if rules.one_at_a_time:
            for _ in range(size):
                for seat in order:
                    zones[seat][zone].append(next(cards))
        else:
            for seat in order:
                zones[seat][zone].extend(next(cards) for _ in range(size))
    return CardsDealt(
        hands=tuple(tuple(z["hand"]) for z in zones),
        face_up=tuple(tuple(z["face_up"]) for z in zones),
        face_down=tuple(tuple(z["face_down"]) for z in zones),
        stock=tuple(cards),
    )


def _explicit(
    raw: Any, players: int, rules: Rules, deck: tuple[str, ...]
) -> tuple[CardsDealt, list[str]]:
    deal = parse_deal(raw, players=players, deck=deck, seat_zones=ZONES)
    rows = rules.cards_per_row
    if rules.deal_6_choose_3:
        sizes = {"hand": rows + rules.hand_size, "face_up": 0, "face_down": rows}
    else:
        sizes = {"hand": rules.hand_size, "face_up": rows, "face_down": rows}
    for i, seat in enumerate(deal["seats"]):
        for zone, size in sizes.items():
            if len(seat[zone]) != size:
                raise InvalidDeal(
                    f"deal.seats[{i}].{zone} must hold {size} card(s), not {len(seat[zone])}"
                )
    dealt = CardsDealt(
        hands=tuple(tuple(s["hand"]) for s in deal["seats"]),
        face_up=tuple(tuple(s["face_up"]) for s in deal["seats"]),
        face_down=tuple(tuple(s["face_down"]) for s in deal["seats"]),
        stock=tuple(deal["stock"]),
    )
    return dealt, deal_order(deal, ZONES)
