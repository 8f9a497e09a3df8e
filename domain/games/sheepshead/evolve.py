"""The fold: one exhaustive match over Sheepshead's events."""

from __future__ import annotations

from typing import assert_never, cast

from domain.frozen import FoldMemo, copy_with
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


def _fold(state: State, fact: SheepsheadEvent) -> State:
    """The state after one event (pure and total): one exhaustive match over the events."""
    hand = cast(Hand, state.hand)  # None before the first deal, whose events do not read it
    # the most frequent events first: a match tries its cases in order
    match fact:
        case CardPlayed(seat=seat, card=card):
            return _played(state, hand, seat, card)
        case TrickWon():
            return copy_with(state, hand=_trick_won(hand, fact))
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


# decide folds some of an action's events to see their effect (a trick's end, a bury); evolve
# answers the same folds again (domain.frozen.FoldMemo)
FOLDS = FoldMemo(_fold)
evolve = FOLDS.evolve


def _started(event: GameStarted) -> State:
    return State(
        started=True,
        players=event.players,
        seed=event.seed,
        options=dict(event.options),
        first_dealer=event.dealer,
        explicit_deal=event.explicit_deal,
        commitment=event.commitment,
        totals=(0,) * event.players,
    )


def _counted(state: State, hand: Hand) -> State:
    """The state with its hand replaced, counting one action."""
    return copy_with(state, hand=hand, actions=state.actions + 1)


def _set(
    hands: tuple[tuple[str, ...], ...], seat: int, cards: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    return (*hands[:seat], cards, *hands[seat + 1 :])


def _dealt(state: State, event: HandDealt) -> Hand:
    lay = layout(state.players, state.options)
    active = active_seats(event.dealer, state.players, lay.dealer_sits_out)
    return Hand(
        deal=event.deal,
        number=event.hand,
        dealer=event.dealer,
        active=active,
        hands=event.hands,
        blind=event.blind,
        phase=PICKING,
        to_act=active[0],
    )


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
    held = hand.hands[seat]
    i = held.index(card) if card in held else len(held)  # total: a fold never raises
    kept = held[:i] + held[i + 1 :]
    seats = (*hand.trick_seats, seat)
    to_act = None if len(seats) == len(hand.active) else _next_active(hand, seat)
    played = copy_with(hand, hands=_set(hand.hands, seat, kept), trick_seats=seats,
                       trick_cards=(*hand.trick_cards, card), to_act=to_act)
    return _counted(state, played)


def _trick_won(hand: Hand, event: TrickWon) -> Hand:
    trick = Trick(
        number=event.number,
        seats=hand.trick_seats,
        cards=event.cards,
        winner=event.winner,
        points=event.points,
    )
    return copy_with(hand, tricks=(*hand.tricks, trick), trick_seats=(), trick_cards=(),
                     to_act=event.winner)


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
