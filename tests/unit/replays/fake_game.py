"""Highcard: a tiny game that follows the protocol, so replays are tested without a real game.

Each of 2-3 players is dealt two cards from a six-card deck; in turn each plays one card;
when every card is played the highest total wins (A=3, K=2, Q=1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, assert_never

from domain.cards import make_deck
from domain.deals import deal_order, parse_deal
from domain.errors import IllegalAction, NotYourTurn
from domain.events import Encoded, Event, EventCodec
from domain.options import Option, action_limit_option, parse_options
from domain.protocol import Action, Setup, check_dealer, check_players
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled

DECK = make_deck("QKA", "CD")
VALUE = {"Q": 1, "K": 2, "A": 3}


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    TYPE = "highcard.GameStarted"
    players: int
    dealer: int
    options: dict[str, Any]
    seed: str
    commitment: str
    explicit_deal: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDealt(Event):
    TYPE = "highcard.CardsDealt"
    hands: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed(Event):
    TYPE = "highcard.CardPlayed"
    seat: int
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(Event):
    TYPE = "highcard.GameEnded"
    winners: tuple[int, ...]


HighcardEvent = GameStarted | CardsDealt | CardPlayed | GameEnded


@dataclass(frozen=True, slots=True)
class State:
    players: int = 0
    to_act: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    played: tuple[tuple[int, str], ...] = ()
    winners: tuple[int, ...] | None = None


class Highcard:
    name = "highcard"
    title = "Highcard"
    min_players = 2
    max_players = 3
    options: tuple[Option, ...] = (action_limit_option(),)
    codec = EventCodec([GameStarted, CardsDealt, CardPlayed, GameEnded])

    def start(self, setup: Setup) -> list[Event]:
        check_players(self, setup.players)
        check_dealer(setup.dealer, setup.players)
        options = parse_options(self.options, setup.options)
        dealer = setup.dealer
        if dealer is None:
            dealer = seeded_choice(setup.seed, "dealer", setup.players)
        if setup.deal is not None:
            deal = parse_deal(setup.deal, players=setup.players, deck=DECK, seat_zones=("hand",))
            hands = tuple(tuple(s["hand"]) for s in deal["seats"])
            order = deal_order(deal, ("hand",))
        else:
            order = shuffled(DECK, setup.seed, deal_label(0))
            hands = tuple(tuple(order[2 * i : 2 * i + 2]) for i in range(setup.players))
        started = GameStarted(
            players=setup.players,
            dealer=dealer,
            options=options,
            seed=setup.seed,
            commitment=deck_commitment(setup.seed, order),
            explicit_deal=setup.deal is not None,
        )
        return [started, CardsDealt(hands=hands)]

    def initial_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> State:
        assert isinstance(event, GameStarted | CardsDealt | CardPlayed | GameEnded)
        match event:
            case GameStarted(players=players, dealer=dealer):
                return replace(state, players=players, to_act=(dealer + 1) % players)
            case CardsDealt(hands=hands):
                return replace(state, hands=hands)
            case CardPlayed(seat=seat, card=card):
                hands = tuple(
                    tuple(c for c in h if c != card) if i == seat else h
                    for i, h in enumerate(state.hands)
                )
                return replace(
                    state,
                    hands=hands,
                    played=(*state.played, (seat, card)),
                    to_act=(seat + 1) % state.players,
                )
            case GameEnded(winners=winners):
                return replace(state, winners=winners)
            case _:
                assert_never(event)

    def decide(self, state: State, seat: int, action: Action) -> list[Event]:
        if seat not in self.seats_to_act(state):
            raise NotYourTurn(f"seat {seat} may not act now")
        card = action.get("card")
        if action.get("type") != "play" or card not in state.hands[seat]:
            raise IllegalAction(f"seat {seat} cannot play {card!r}")
        events: list[Event] = [CardPlayed(seat=seat, card=str(card))]
        if len(state.played) + 1 == 2 * state.players:
            totals = self._totals((*state.played, (seat, str(card))), state.players)
            best = max(totals)
            events.append(GameEnded(winners=tuple(i for i, t in enumerate(totals) if t == best)))
        return events

    @staticmethod
    def _totals(played: tuple[tuple[int, str], ...], players: int) -> list[int]:
        totals = [0] * players
        for seat, card in played:
            totals[seat] += VALUE[card[0]]
        return totals

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.seats_to_act(state):
            return []
        return [{"type": "play", "card": c} for c in state.hands[seat]]

    def seats_to_act(self, state: State) -> tuple[int, ...]:
        if state.winners is not None or not state.hands:
            return ()
        return (state.to_act,)

    def awaited_seats(self, state: State) -> tuple[int, ...]:
        return self.seats_to_act(state)

    def _table(self, state: State, open_seats: set[int]) -> dict[str, Any]:
        return {
            "game": self.name,
            "phase": "over" if state.winners is not None else "play",
            "seats": [
                {"hand": list(h) if i in open_seats else len(h)} for i, h in enumerate(state.hands)
            ],
            "played": [c for _, c in state.played],
            "to_act": list(self.seats_to_act(state)),
            "outcome": self.outcome(state),
        }

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        table = self._table(state, set() if seat is None else {seat})
        table["seat"] = seat
        table["legal_actions"] = [] if seat is None else self.legal_actions(state, seat)
        return table

    def reveal(self, state: State) -> dict[str, Any]:
        table = self._table(state, set(range(state.players)))
        table["seat"] = None
        table["legal_actions"] = []
        return table

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.winners is None:
            return None
        losers = [i for i in range(state.players) if i not in state.winners]
        return {"reason": "finished", "winners": list(state.winners), "losers": losers}

    def redact(self, event: Event, seat: int | None) -> Encoded:
        data = self.codec.encode(event)
        if isinstance(event, GameStarted):
            data.pop("seed")
        if isinstance(event, CardsDealt):
            data["hands"] = [list(h) if i == seat else len(h) for i, h in enumerate(event.hands)]
        return data


HIGHCARD = Highcard()
