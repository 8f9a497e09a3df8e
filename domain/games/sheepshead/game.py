"""The Sheepshead game object: start, the decider, views and redaction behind one protocol."""

from __future__ import annotations

from typing import Any

from domain.deals import deal_order, parse_deal
from domain.errors import InvalidDeal
from domain.events import Encoded, Event
from domain.games.sheepshead import narration, rules, views
from domain.games.sheepshead.cards import DECK
from domain.games.sheepshead.config import (
    OPTIONS,
    Layout,
    active_seats,
    deal_cards,
    layout,
    read_options,
)
from domain.games.sheepshead.decide import decide
from domain.games.sheepshead.events import CODEC, GameStarted, HandDealt, MatchResumed
from domain.games.sheepshead.evolve import evolve
from domain.games.sheepshead.match import MatchState, match_state
from domain.games.sheepshead.state import State
from domain.protocol import Setup, check_dealer, check_players
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled

SEAT_ZONES = ("hand",)
EXTRA_ZONES = ("blind",)


class Sheepshead:
    """Sheepshead for 3 to 7 players (default 5, Jack of Diamonds partner)."""

    name = "sheepshead"
    title = "Sheepshead"
    min_players = 3
    max_players = 7
    options = OPTIONS
    codec = CODEC
    narration = narration  # last_action: roles and words (domain.narration)
    # never made for a seat by a default move while anything else is legal (domain.default_move)
    default_move_skips = frozenset({"pick", "alone", "crack", "recrack"})

    def start(self, setup: Setup) -> list[Event]:
        """GameStarted and the first deal."""
        check_players(self, setup.players)
        check_dealer(setup.dealer, setup.players)
        options = read_options(setup.options, setup.players)
        dealer = _first_dealer(setup, options)
        lay = layout(setup.players, options)
        match = MatchState()
        if setup.deal is not None:
            cards, match = match_state(setup.deal, setup.players, options)
            hands, blind, order = _explicit(cards, setup.players, lay, dealer)
        else:
            order = shuffled(DECK, setup.seed, deal_label(0))
            hands, blind = deal_cards(order, lay, dealer, setup.players)
        started = GameStarted(
            players=setup.players,
            dealer=dealer,
            options=options,
            seed=setup.seed,
            commitment=deck_commitment(setup.seed, order),
            explicit_deal=setup.deal is not None,
        )
        resumed: list[Event] = []
        if match != MatchState():
            totals = match.totals or (0,) * setup.players
            resumed.append(MatchResumed(totals=totals, multiplier=match.multiplier))
        dealt = HandDealt(deal=match.deal_number, hand=match.hand_number, dealer=dealer,
                          hands=hands, blind=blind)
        return [started, *resumed, dealt]

    def initial_state(self) -> State:
        """The state before any event."""
        return State()

    # Fold one event: the fold itself, not a method calling it (one call less per event).
    evolve = staticmethod(evolve)

    # The events one action causes; every action the seat may send now: the functions
    # themselves, not methods calling them (one call less per action).
    decide = staticmethod(decide)
    legal_actions = staticmethod(rules.legal_actions)

    def seats_to_act(self, state: State) -> tuple[int, ...]:
        """The one seat to act, if any."""
        hand = state.hand
        if state.finished or state.aborted or hand is None or hand.to_act is None:
            return ()
        return (hand.to_act,)

    # Every seat that may act is awaited: Sheepshead has no optional moves.
    awaited_seats = seats_to_act

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What that seat may see."""
        return views.view(state, seat)

    def reveal(self, state: State) -> dict[str, Any]:
        """Everything open."""
        return views.reveal(state)

    # None while playing, then the result (the function itself: one call less per action).
    outcome = staticmethod(views.outcome)

    def redact(self, event: Event, seat: int | None) -> Encoded:
        """The event as that seat may see it during play."""
        return views.redact(event, seat)


def _first_dealer(setup: Setup, options: dict[str, Any]) -> int:
    if setup.dealer is not None:
        return setup.dealer
    if options["first_dealer"] is not None:
        return int(options["first_dealer"])
    return seeded_choice(setup.seed, "dealer", setup.players)


def _explicit(
    raw: Any, players: int, lay: Layout, dealer: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], list[str]]:
    deal = parse_deal(
        raw,
        players=players,
        deck=DECK,
        seat_zones=SEAT_ZONES,
        extra_zones=EXTRA_ZONES,
        has_stock=False,
    )
    active = active_seats(dealer, players, lay.dealer_sits_out)
    hands = tuple(tuple(s["hand"]) for s in deal["seats"])
    for seat, cards in enumerate(hands):
        want = lay.hand_size if seat in active else 0
        if len(cards) != want:
            raise InvalidDeal(f"deal.seats[{seat}].hand must hold {want} cards, got {len(cards)}")
    blind = tuple(deal["extra"]["blind"])
    if len(blind) != lay.blind_size:
        raise InvalidDeal(f"deal.extra.blind must hold {lay.blind_size} cards, got {len(blind)}")
    return hands, blind, deal_order(deal, SEAT_ZONES, EXTRA_ZONES)


GAME = Sheepshead()
