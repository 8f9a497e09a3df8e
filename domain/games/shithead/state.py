"""Shithead's state and its fold: ``evolve`` applies one fact and never validates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, assert_never

from domain.frozen import FoldMemo, copy_with
from domain.games.shithead.events import (
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    CardStacked,
    DirectionReversed,
    FaceDownFlipped,
    FaceUpChosen,
    FaceUpSwapped,
    GameAborted,
    GameEnded,
    GameStarted,
    PileBurned,
    PilePickedUp,
    PlayerOut,
    PlayerReady,
    PlayStarted,
    ShitheadEvent,
    StockPlayed,
    TurnPassed,
)
from domain.games.shithead.options import Rules, rules_for

Cards = tuple[str, ...]
Slots = tuple[Cards, ...]

NEW, PREPLAY, PLAY, OVER = "new", "preplay", "play", "over"


# Frozen without slots: copy_with (domain/frozen.py) copies their __dict__.
@dataclass(frozen=True)
class Info:
    """The facts that rarely change: set at the start, the first burn and the end."""

    players: int = 0
    dealer: int = 0
    seed: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    # None only before GameStarted, which no rule reads: typed as it is read (``info.rules``).
    rules: Rules = None  # type: ignore[assignment]
    starter: tuple[int, str, str] | None = None
    flusher: int | None = None
    finishing_order: tuple[int, ...] = ()
    loser: int | None = None
    winner: int | None = None
    end_reason: str | None = None


@dataclass(frozen=True)
class State:
    """The whole table. Face-up slots hold stacks (bottom first); a flipped slot is None."""

    info: Info = field(default_factory=Info)
    phase: str = NEW
    hands: tuple[Cards, ...] = ()
    face_up: tuple[Slots, ...] = ()
    face_down: tuple[tuple[str | None, ...], ...] = ()
    stock: Cards = ()
    pile: Cards = ()
    burned: Cards = ()
    ready: tuple[bool, ...] = ()
    chosen: tuple[bool, ...] = ()
    to_act: int | None = None
    direction: int = 1
    out: tuple[int, ...] = ()
    lead_count: int = 0
    last_revealed: str | None = None
    actions: int = 0

    @property
    def rules(self) -> Rules | None:
        """The rules, None before GameStarted."""
        return self.info.rules

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.info.players

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.info.dealer

    @property
    def options(self) -> dict[str, Any]:
        """Every option, defaults filled."""
        return self.info.options

    @property
    def starter(self) -> tuple[int, str, str] | None:
        """The starting seat with the rank and tier that chose it."""
        return self.info.starter

    @property
    def flusher(self) -> int | None:
        """Under track_flusher, the first seat to burn the pile."""
        return self.info.flusher

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """Seats in the order they finished, the loser last (once over)."""
        return self.info.finishing_order

    @property
    def loser(self) -> int | None:
        """The shithead, once known."""
        return self.info.loser

    @property
    def winner(self) -> int | None:
        """Under objective winner, the first seat out."""
        return self.info.winner

    @property
    def end_reason(self) -> str | None:
        """``finished`` or ``action_limit`` once over."""
        return self.info.end_reason


def put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """The tuple with one position replaced."""
    return (*items[:index], value, *items[index + 1 :])


def without(cards: Cards, gone: Cards) -> Cards:
    """Cards minus the named ones (each card is unique)."""
    if len(gone) == 1 and gone[0] in cards:  # the usual single card: two slices
        at = cards.index(gone[0])
        return cards[:at] + cards[at + 1 :]
    return tuple([c for c in cards if c not in gone])


def remove_face_up(slots: Slots, gone: Cards) -> Slots:
    """Face-up slots with the named cards taken off."""
    return tuple(tuple(c for c in stack if c not in gone) for stack in slots)


def _fold(state: State, e: ShitheadEvent) -> State:
    """Fold one event onto the state."""
    match e:
        case CardsPlayed():
            return _played(state, e)
        case TurnPassed():
            return copy_with(state, to_act=e.seat)
        case CardsDrawn():
            return _drawn(state, e)
        case PilePickedUp():
            return _picked_up(state, e)
        case PileBurned():
            return _burned(state, e)
        case FaceDownFlipped():
            return _flipped(state, e)
        case StockPlayed():
            return _stock_played(state, e)
        case DirectionReversed():
            return copy_with(state, direction=e.direction)
        case PlayerOut():
            return copy_with(state, out=(*state.out, e.seat))
        case FaceUpSwapped():
            return _swapped(state, e)
        case CardStacked():
            return _stacked(state, e)
        case FaceUpChosen():
            return _chosen(state, e)
        case PlayerReady():
            return copy_with(state, ready=put(state.ready, e.seat, True), actions=state.actions + 1)
        case PlayStarted():
            start = (e.starter, e.rank, e.tier)
            info = copy_with(state.info, starter=start)
            return copy_with(state, info=info, phase=PLAY, to_act=e.starter)
        case CardsDealt():
            return _dealt(state, e)
        case GameStarted():
            return _started(e)
        case GameEnded():
            info = copy_with(
                state.info,
                end_reason="finished",
                finishing_order=e.finishing_order,
                loser=e.loser,
                winner=e.winner,
            )
            return copy_with(state, info=info, phase=OVER, to_act=None)
        case GameAborted():
            info = copy_with(state.info, end_reason=e.reason)
            return copy_with(state, info=info, phase=OVER, to_act=None)
        case _:
            assert_never(e)


# decide folds an action's events but the last to resolve it (play.Batch); evolve answers the
# same folds again (domain.frozen.FoldMemo)
FOLDS = FoldMemo(_fold)
evolve = FOLDS.evolve


def _started(e: GameStarted) -> State:
    n = e.players
    info = Info(
        players=n,
        dealer=e.dealer,
        seed=e.seed,
        options=dict(e.options),
        rules=rules_for(e.options, n),
    )
    empty: tuple[tuple[Any, ...], ...] = ((),) * n  # every seat's zones exist before the deal
    return State(
        info=info,
        phase=NEW,
        hands=empty,
        face_up=empty,
        face_down=empty,
        ready=(False,) * n,
        chosen=(False,) * n,
    )


def _dealt(state: State, e: CardsDealt) -> State:
    rows = state.info.rules.cards_per_row
    face_up = tuple(
        tuple((c,) for c in seat_cards) if seat_cards else ((),) * rows for seat_cards in e.face_up
    )
    return copy_with(
        state,
        phase=PREPLAY,
        hands=e.hands,
        face_up=face_up,
        face_down=tuple(tuple(cards) for cards in e.face_down),
        stock=e.stock,
    )


def _played(state: State, e: CardsPlayed) -> State:
    seat, cards, pile = e.seat, e.cards, state.pile
    lead_count = len(cards) if not pile else state.lead_count
    if e.source == "hand":
        hands = put(state.hands, seat, without(state.hands[seat], cards))
        return copy_with(state, hands=hands, pile=pile + cards, lead_count=lead_count,
                         actions=state.actions + 1)
    face_up = put(state.face_up, seat, remove_face_up(state.face_up[seat], cards))
    return copy_with(state, face_up=face_up, pile=pile + cards, lead_count=lead_count,
                     actions=state.actions + 1)


def _flipped(state: State, e: FaceDownFlipped) -> State:
    seat = e.seat
    face_down = put(state.face_down, seat, put(state.face_down[seat], e.slot, None))
    if e.legal:
        lead = 1 if not state.pile else state.lead_count
        return copy_with(
            state,
            face_down=face_down,
            pile=(*state.pile, e.card),
            lead_count=lead,
            last_revealed=e.card,
            actions=state.actions + 1,
        )
    hands = put(state.hands, seat, (*state.hands[seat], e.card))
    return copy_with(
        state, face_down=face_down, hands=hands, last_revealed=e.card, actions=state.actions + 1
    )


def _stock_played(state: State, e: StockPlayed) -> State:
    if e.legal:
        lead = 1 if not state.pile else state.lead_count
        return copy_with(
            state,
            stock=state.stock[1:],
            pile=(*state.pile, e.card),
            lead_count=lead,
            last_revealed=e.card,
            actions=state.actions + 1,
        )
    hands = put(state.hands, e.seat, (*state.hands[e.seat], e.card))
    return copy_with(
        state,
        stock=state.stock[1:],
        hands=hands,
        last_revealed=e.card,
        actions=state.actions + 1,
    )


def _drawn(state: State, e: CardsDrawn) -> State:
    seat = e.seat
    hands = put(state.hands, seat, state.hands[seat] + e.cards)
    return copy_with(state, hands=hands, stock=state.stock[len(e.cards) :])


def _picked_up(state: State, e: PilePickedUp) -> State:
    seat = e.seat
    hands = put(state.hands, seat, state.hands[seat] + e.cards + e.face_up_cards)
    face_up = state.face_up
    if e.face_up_cards:
        face_up = put(face_up, seat, remove_face_up(face_up[seat], e.face_up_cards))
    actions = state.actions + 1 if e.cause == "pickup" else state.actions
    return copy_with(state, hands=hands, face_up=face_up, pile=(), lead_count=0, actions=actions)


def _burned(state: State, e: PileBurned) -> State:
    info = state.info
    if info.flusher is None and info.rules.track_flusher:
        info = copy_with(info, flusher=e.seat)
    return copy_with(state, info=info, burned=state.burned + state.pile, pile=(), lead_count=0)


def _swapped(state: State, e: FaceUpSwapped) -> State:
    seat = e.seat
    hand = tuple(e.face_up_card if c == e.hand_card else c for c in state.hands[seat])
    slots = put(state.face_up[seat], e.slot, (e.hand_card,))
    return copy_with(
        state,
        hands=put(state.hands, seat, hand),
        face_up=put(state.face_up, seat, slots),
        actions=state.actions + 1,
    )


def _stacked(state: State, e: CardStacked) -> State:
    seat = e.seat
    slots = state.face_up[seat]
    slots = put(slots, e.slot, (*slots[e.slot], e.card))
    return copy_with(
        state,
        hands=put(state.hands, seat, without(state.hands[seat], (e.card,))),
        face_up=put(state.face_up, seat, slots),
        actions=state.actions + 1,
    )


def _chosen(state: State, e: FaceUpChosen) -> State:
    seat = e.seat
    gone = tuple(c for stack in e.slots for c in stack)
    ready = state.ready if state.info.rules.stack_face_up else put(state.ready, seat, True)
    return copy_with(
        state,
        hands=put(state.hands, seat, without(state.hands[seat], gone)),
        face_up=put(state.face_up, seat, e.slots),
        chosen=put(state.chosen, seat, True),
        ready=ready,
        actions=state.actions + 1,
    )
