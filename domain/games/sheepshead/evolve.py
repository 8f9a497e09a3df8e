"""The fold: one exhaustive match over Sheepshead's events."""

from __future__ import annotations

from typing import TypeVar, assert_never

from domain.events import Event
from domain.frozen import Folds, combined, copy_with, remember_fold
from domain.games.sheepshead.config import active_seats, layout
from domain.games.sheepshead.events import (
    Buried,
    CardCalled,
    CardPlayed,
    CrackDecided,
    GameStarted,
    HandDealt,
    HandScored,
    HandThrownIn,
    LeasterStarted,
    MatchAborted,
    MatchEnded,
    MatchResumed,
    PartnerRevealed,
    Passed,
    Picked,
    PreparationFinished,
    RecrackDecided,
    SheepsheadEvent,
    TrickWon,
)
from domain.games.sheepshead.state import (
    BURYING,
    CALLING,
    CRACKING,
    PICKING,
    PLAYING,
    RECRACKING,
    SCORED,
    THROWN_IN,
    Hand,
    State,
    Trick,
)

_QUEEN_PAIRS = {"black": ("QC", "QS"), "red": ("QH", "QD")}
_setattr = object.__setattr__
T = TypeVar("T")


# decide folds some of an action's events to see their effect (a trick's end, a bury); evolve
# answers the same folds again from these (domain.frozen.Folds)
_FOLDED: Folds[State] = {}
forget_folds = _FOLDED.clear  # drop the remembered folds (a new action begins)


def evolve_remembered(state: State, event: Event) -> State:
    """``evolve``, remembering the result for the same fold again (decide's own folds)."""
    return remember_fold(_FOLDED, evolve, state, event)


def evolve(state: State, event: Event) -> State:
    """The state after one event (pure and total): one exhaustive match over the events."""
    known = _FOLDED.get(id(state))
    if known is not None and known[1] is event and known[0] is state:
        return known[2]
    # cast() without the calls: every event but GameStarted comes after a deal
    hand: Hand = state.hand  # type: ignore[assignment]
    fact: SheepsheadEvent = event  # type: ignore[assignment]
    # the most frequent events first: a match tries its cases in order
    match fact:
        case CardPlayed(seat=seat, card=card):
            return _played(state, hand, seat, card)
        case TrickWon():
            values = state.__dict__.copy()  # copy_with(state, hand=...), inlined
            values["hand"] = _trick_won(hand, fact)
            return _made(State, values)
        case PartnerRevealed():
            return copy_with(state, hand=copy_with(hand, revealed=True))
        case GameStarted():
            return _started(fact)
        case MatchResumed(totals=totals, multiplier=multiplier):
            return copy_with(state, totals=totals, pending_multiplier=multiplier)
        case HandDealt():
            return copy_with(state, hand=_dealt(state, fact))
        case Passed(seat=seat):
            return _counted(state, _passed(hand, seat))
        case Picked():
            return _counted(state, _picked(hand, fact))
        case LeasterStarted(kind=kind):
            new = copy_with(hand, leaster=kind, phase=PLAYING, to_act=hand.active[0])
            return copy_with(state, hand=new)
        case HandThrownIn(multiplier=multiplier):
            new = copy_with(hand, phase=THROWN_IN, to_act=None)
            return copy_with(state, hand=new, pending_multiplier=multiplier)
        case Buried(seat=seat, cards=cards):
            kept = tuple(c for c in hand.hands[seat] if c not in cards)
            new = copy_with(hand, hands=_set(hand.hands, seat, kept), buried=cards, phase=CALLING)
            return _counted(state, new)
        case CardCalled(card=card):
            return _counted(state, copy_with(hand, called=card))
        case PreparationFinished():
            new = _prepared(hand, fact)
            return _counted(state, new) if fact.by_action else copy_with(state, hand=new)
        case CrackDecided(seat=seat, crack=crack):
            return _counted(state, _crack(hand, seat, crack))
        case RecrackDecided(recrack=recrack):
            new = copy_with(hand, recracked=recrack, phase=PLAYING, to_act=hand.active[0])
            return _counted(state, new)
        case HandScored():
            return _scored(state, hand, fact)
        case MatchEnded(winners=winners):
            return copy_with(state, finished=True, winners=winners)
        case MatchAborted():
            return copy_with(state, aborted=True)
        case _:
            assert_never(fact)


def _started(event: GameStarted) -> State:
    return combined(
        State(
            started=True,
            players=event.players,
            seed=event.seed,
            options=dict(event.options),
            first_dealer=event.dealer,
            explicit_deal=event.explicit_deal,
            commitment=event.commitment,
            totals=(0,) * event.players,
        )
    )


# The hot events (every card played, every trick) copy the ``__dict__`` of the state and of its
# hand directly: what ``copy_with`` does, less its keyword packing and field-name check (the
# rules tests and test_state_copies catch a misspelt field); the rarer events use ``copy_with``.
_new = object.__new__


def _made(cls: type[T], values: dict[str, object]) -> T:
    """The instance of these field values (a copy of another instance's ``__dict__``, changed)."""
    new: T = _new(cls)
    _setattr(new, "__dict__", values)
    return new


def _counted(state: State, hand: Hand) -> State:
    values = state.__dict__.copy()  # copy_with(state, hand=hand, actions=state.actions + 1)
    values["hand"] = hand
    values["actions"] = state.actions + 1
    return _made(State, values)


def _set(
    hands: tuple[tuple[str, ...], ...], seat: int, cards: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    return (*hands[:seat], cards, *hands[seat + 1 :])


def _dealt(state: State, event: HandDealt) -> Hand:
    lay = layout(state.players, state.options)
    active = active_seats(event.dealer, state.players, lay.dealer_sits_out)
    hand = Hand(
        deal=event.deal,
        number=event.hand,
        dealer=event.dealer,
        active=active,
        hands=event.hands,
        blind=event.blind,
        phase=PICKING,
        to_act=active[0],
    )
    return combined(hand)


def _next_active(hand: Hand, seat: int) -> int:
    index = hand.active.index(seat)
    return hand.active[(index + 1) % len(hand.active)]


def _passed(hand: Hand, seat: int) -> Hand:
    passed = (*hand.passed, seat)
    to_act = None if len(passed) == len(hand.active) else _next_active(hand, seat)
    return copy_with(hand, passed=passed, to_act=to_act)


def _picked(hand: Hand, event: Picked) -> Hand:
    p8 = hand.hands[event.seat] + event.blind
    shown = tuple(c for pair in event.blitz for c in _QUEEN_PAIRS[pair])
    return copy_with(
        hand,
        picker=event.seat,
        hands=_set(hand.hands, event.seat, p8),
        p8=p8,
        blitz=event.blitz,
        shown=shown,
        phase=BURYING,
        to_act=event.seat,
    )


def _prepared(hand: Hand, event: PreparationFinished) -> Hand:
    card = None if event.alone else (hand.called or "JD")
    partner = None
    if card is not None:
        partner = next((s for s, cards in enumerate(hand.hands) if card in cards), None)
    phase, to_act = (CRACKING, event.crackers[0]) if event.crackers else (PLAYING, hand.active[0])
    return copy_with(
        hand,
        alone=event.alone,
        announced=event.announced,
        partner_card=card,
        partner=partner,
        crackers=event.crackers,
        phase=phase,
        to_act=to_act,
    )


def _crack(hand: Hand, seat: int, crack: bool) -> Hand:
    if crack:
        return copy_with(hand, cracked_by=seat, crackers=(), phase=RECRACKING, to_act=hand.picker)
    rest = hand.crackers[hand.crackers.index(seat) + 1 :]
    if rest:
        return copy_with(hand, crackers=rest, to_act=rest[0])
    return copy_with(hand, crackers=(), phase=PLAYING, to_act=hand.active[0])


def _played(state: State, hand: Hand, seat: int, card: str) -> State:
    hands = hand.hands
    held = hands[seat]
    i = held.index(card) if card in held else len(held)  # total: a fold never raises
    seats = (*hand.trick_seats, seat)
    active = hand.active
    values = hand.__dict__.copy()  # copy_with(hand, ...), inlined
    held_by = [*hands]  # _set(hands, seat, ...), with one tuple built
    held_by[seat] = held[:i] + held[i + 1 :]
    values["hands"] = (*held_by,)
    values["trick_seats"] = seats
    values["trick_cards"] = (*hand.trick_cards, card)
    # (_next_active, inlined)
    values["to_act"] = None if len(seats) == len(active) else active[
        (active.index(seat) + 1) % len(active)
    ]
    played: Hand = _new(Hand)  # _made(Hand, values), inlined
    _setattr(played, "__dict__", values)
    values = state.__dict__.copy()  # _counted(state, played), inlined
    values["hand"] = played
    values["actions"] = state.actions + 1
    counted: State = _new(State)
    _setattr(counted, "__dict__", values)
    return counted


def _trick_won(hand: Hand, event: TrickWon) -> Hand:
    trick = Trick(
        number=event.number,
        seats=hand.trick_seats,
        cards=event.cards,
        winner=event.winner,
        points=event.points,
    )
    values = hand.__dict__.copy()  # copy_with(hand, ...), inlined
    values["tricks"] = (*hand.tricks, combined(trick))
    values["trick_seats"] = ()
    values["trick_cards"] = ()
    values["to_act"] = event.winner
    return _made(Hand, values)


def _scored(state: State, hand: Hand, event: HandScored) -> State:
    totals = tuple(t + s for t, s in zip(state.totals, event.scores, strict=True))
    return copy_with(
        state,
        totals=totals,
        last_result=event,
        last_tricks=hand.tricks,
        pending_multiplier=1,
        hand=copy_with(hand, phase=SCORED, to_act=None),
    )
