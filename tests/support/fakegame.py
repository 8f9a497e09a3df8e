"""A tiny hand-written game that follows the protocol: each seat holds hidden cards and plays
one per turn; the highest total of played ranks wins. Used to test the store, the service and
the replays without depending on a real game's rules."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, assert_never

from domain.cards import make_deck, parse_card
from domain.deals import deal_order, parse_deal
from domain.errors import GameOver, IllegalAction, InvalidAction, NotYourTurn
from domain.events import Encoded, Event, EventCodec, hands_seen_by
from domain.options import Option, action_limit_option, parse_options
from domain.protocol import Action, Setup, action_type, check_dealer, check_players
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled

RANKS = "9TJQKA"
DECK = make_deck(RANKS)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    TYPE = "fake.GameStarted"
    players: int
    dealer: int
    options: dict[str, Any]
    seed: str
    commitment: str
    explicit_deal: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDealt(Event):
    TYPE = "fake.CardsDealt"
    hands: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed(Event):
    TYPE = "fake.CardPlayed"
    seat: int
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(Event):
    TYPE = "fake.GameEnded"
    reason: str


FakeEvent = GameStarted | CardsDealt | CardPlayed | GameEnded


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    players: int = 0
    dealer: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    table: tuple[tuple[int, str], ...] = ()
    turn: int = 0
    actions: int = 0
    ended: str | None = None


class FakeGame:
    """The protocol's smallest honest implementation."""

    name = "fake"
    title = "Fake (test game)"
    min_players = 2
    max_players = 4
    options = (
        Option(name="hand_size", kind="int", default=3, minimum=1, maximum=6),
        action_limit_option(1000),
    )
    codec = EventCodec([GameStarted, CardsDealt, CardPlayed, GameEnded])

    def start(self, setup: Setup) -> list[Event]:
        check_players(self, setup.players)
        check_dealer(setup.dealer, setup.players)
        options = parse_options(self.options, setup.options)
        dealer = setup.dealer
        if dealer is None:
            dealer = seeded_choice(setup.seed, "dealer", setup.players)
        if setup.deal is not None:
            deal = parse_deal(
                setup.deal, players=setup.players, deck=DECK, seat_zones=("hand",), has_stock=False
            )
            hands = tuple(tuple(s["hand"]) for s in deal["seats"])
            order = deal_order(deal, ("hand",))
        else:
            order = shuffled(DECK, setup.seed, deal_label(0))
            size = options["hand_size"]
            hands = tuple(tuple(order[i * size : (i + 1) * size]) for i in range(setup.players))
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
            case GameStarted(players=players, dealer=dealer, options=options):
                turn = (dealer + 1) % players
                return replace(
                    state,
                    players=players,
                    dealer=dealer,
                    options=tuple(sorted(options.items())),
                    turn=turn,
                )
            case CardsDealt(hands=hands):
                return replace(state, hands=hands)
            case CardPlayed(seat=seat, card=card):
                hands = list(state.hands)
                hands[seat] = tuple(c for c in hands[seat] if c != card)
                return replace(
                    state,
                    hands=tuple(hands),
                    table=(*state.table, (seat, card)),
                    turn=(seat + 1) % state.players,
                    actions=state.actions + 1,
                )
            case GameEnded(reason=reason):
                return replace(state, ended=reason)
            case _:
                assert_never(event)

    def decide(self, state: State, seat: int, action: Action) -> list[Event]:
        if state.ended is not None:
            raise GameOver("the game is over")
        action_type(action, ("play",))
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")
        if set(action) != {"type", "card"}:
            raise InvalidAction("a play has exactly the fields type and card")
        card = parse_card(action["card"])
        if card not in state.hands[seat]:
            raise IllegalAction(f"seat {seat} does not hold {card}", reason="not_in_hand")
        events: list[Event] = [CardPlayed(seat=seat, card=card)]
        if sum(len(h) for h in state.hands) == 1:
            events.append(GameEnded(reason="finished"))
        elif state.actions + 1 >= dict(state.options)["action_limit"]:
            events.append(GameEnded(reason="action_limit"))
        return events

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state.ended is not None or seat != state.turn:
            return []
        return [{"type": "play", "card": c} for c in state.hands[seat]]

    def seats_to_act(self, state: State) -> tuple[int, ...]:
        return () if state.ended is not None or not state.players else (state.turn,)

    def awaited_seats(self, state: State) -> tuple[int, ...]:
        return self.seats_to_act(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out = self._table(state, seat)
        out["hand"] = list(state.hands[seat]) if seat is not None else None
        return out

    def reveal(self, state: State) -> dict[str, Any]:
        out = self._table(state, None)
        out["hands"] = [list(h) for h in state.hands]
        return out

    def _table(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "phase": "over" if state.ended else "play",
            "seat": seat,
            "seats": [{"seat": i, "cards": len(h)} for i, h in enumerate(state.hands)],
            "table": [{"seat": s, "card": c} for s, c in state.table],
            "to_act": list(self.seats_to_act(state)),
            "legal_actions": [] if seat is None else self.legal_actions(state, seat),
            "outcome": self.outcome(state),
        }

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.ended is None:
            return None
        if state.ended == "action_limit":
            return {"reason": "action_limit", "winners": [], "losers": []}
        totals = [0] * state.players
        for seat, card in state.table:
            totals[seat] += RANKS.index(card[0])
        best = max(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
        losers = [s for s in range(state.players) if s not in winners]
        return {"reason": "finished", "winners": winners, "losers": losers, "totals": totals}

    def redact(self, event: Event, seat: int | None) -> Encoded:
        data = self.codec.encode(event)
        if isinstance(event, GameStarted):
            data.pop("seed")
        if isinstance(event, CardsDealt):
            data["hands"] = hands_seen_by(event.hands, seat)
        return data


FAKE = FakeGame()
GAMES: dict[str, Any] = {FAKE.name: FAKE}
