"""The exhaustive fold of Sixty-Six events onto the state."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import assert_never

from domain.frozen import copy_with
from domain.games.sixty_six.events import (
    CardDrawn,
    CardPlayed,
    CardsDrawn,
    DealScored,
    DealStarted,
    DeclaredOut,
    GameAborted,
    GameStarted,
    HandDealt,
    MarriageAnnounced,
    MatchEnded,
    MatchResumed,
    Passed,
    SixtySixEvent,
    StockClosed,
    StockLaid,
    TrickWon,
    TrumpExchanged,
)
from domain.games.sixty_six.state import Deal, Rules, State, with_seat


def evolve(state: State, event: SixtySixEvent) -> State:
    """Fold one Sixty-Six event onto the state."""
    deal = state.deal  # None only before the first DealStarted
    actions = state.actions
    match event:  # the most frequent events first: a match tries its cases in order
        case CardPlayed():
            assert deal is not None
            return copy_with(state, deal=_played(deal, event), actions=actions + 1)
        case TrickWon():
            assert deal is not None
            return copy_with(state, deal=_trick_won(deal, event))
        case Passed():
            assert deal is not None
            passed = copy_with(deal, passes=deal.passes + 1, turn=1 - deal.turn)
            return copy_with(state, deal=passed, actions=actions + 1)
        case HandDealt(seat=seat, cards=cards):
            assert deal is not None
            return copy_with(state, deal=copy_with(deal, hands=_set_hand(deal.hands, seat, cards)))
        case CardDrawn(seat=seat, card=card, face_up=face_up):
            assert deal is not None
            return copy_with(state, deal=_drawn(deal, seat, card, face_up))
        case DealScored():
            return _scored(state, event)
        case StockClosed():
            assert deal is not None
            return copy_with(state, deal=_closed(deal, event), actions=actions + 1)
        case DealStarted(number=number, dealer=dealer, trump_card=trump, carry_over=carry):
            started = copy_with(_UNDEALT, number=number, dealer=dealer, trump_card=trump,
                                under=trump, turn=1 - dealer)
            return copy_with(state, deal=started, carry_over=carry)
        case StockLaid(cards=cards):
            assert deal is not None
            return copy_with(state, deal=copy_with(deal, stock=cards))
        case CardsDrawn(automatic=automatic):
            assert deal is not None
            drawn = copy_with(deal, phase="lead")
            return copy_with(state, deal=drawn, actions=actions if automatic else actions + 1)
        case MatchEnded(winner=winner):
            return copy_with(state, ended="finished", winner=winner)
        case DeclaredOut():
            assert deal is not None
            return copy_with(state, deal=copy_with(deal, phase="over"), actions=actions + 1)
        case MarriageAnnounced():
            assert deal is not None
            return copy_with(state, deal=_married(deal, event))
        case TrumpExchanged(seat=seat, nine=nine, taken=taken):
            assert deal is not None
            exchanged = _exchanged(deal, seat, nine, taken)
            return copy_with(state, deal=exchanged, actions=actions + 1)
        case GameStarted(options=options, seed=seed, dealer=dealer):
            return State(started=True, options=dict(options), rules=Rules.of(dict(options)),
                         seed=seed, first_dealer=dealer)
        case MatchResumed(match_points=points, deals_scored=scored):
            return copy_with(state, game_points=points, deals_scored=scored)
        case GameAborted():
            return copy_with(state, ended="action_limit")
        case _:
            assert_never(event)


# A deal starts as this one with its number, dealer and trump card: copying it takes about a
# third of the instructions of ``Deal(...)``, which sets its 23 frozen fields one by one
# (DealStarted was 3 % of random self-play in benchmarks/bench_engines.py)
_UNDEALT = Deal(number=0, dealer=0, trump_card="")


Hands = tuple[tuple[str, ...], tuple[str, ...]]


def _set_hand(hands: Hands, seat: int, cards: tuple[str, ...]) -> Hands:
    return (cards, hands[1]) if seat == 0 else (hands[0], cards)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    if card not in cards:
        return cards
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _played(deal: Deal, event: CardPlayed) -> Deal:
    seat, card = event.seat, event.card
    hands, known = deal.hands, deal.known
    hand = hands[seat]
    if card in hand:  # (always: decide checked it; the fold itself never raises)
        at = hand.index(card)
        hand = hand[:at] + hand[at + 1 :]
        hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    if card in known[seat]:
        known = _set_hand(known, seat, _without(known[seat], card))
    if event.role == "lead":
        return copy_with(deal, hands=hands, known=known, trick=(card,), phase="follow",
                         turn=1 - seat)
    return copy_with(deal, hands=hands, known=known, trick=(*deal.trick, card))


def _married(deal: Deal, event: MarriageAnnounced) -> Deal:
    seat = event.seat
    entry = (seat, event.suit, event.value, event.card, event.shown, event.credited)
    known = deal.known
    if event.shown not in known[seat]:
        known = _set_hand(known, seat, (*known[seat], event.shown))
    if event.credited:
        points = with_seat(deal.marriage_points, seat, deal.marriage_points[seat] + event.value)
        return copy_with(deal, marriages=(*deal.marriages, entry), known=known,
                         marriage_points=points)
    pending = with_seat(deal.pending, seat, deal.pending[seat] + event.value)
    return copy_with(deal, marriages=(*deal.marriages, entry), known=known, pending=pending)


def _exchanged(deal: Deal, seat: int, nine: str, taken: str) -> Deal:
    hands = _set_hand(deal.hands, seat, (*_without(deal.hands[seat], nine), taken))
    known = _set_hand(deal.known, seat, (*deal.known[seat], taken))
    return copy_with(deal, hands=hands, known=known, under=nine, exchanged=(seat, nine, taken))


def _trick_won(deal: Deal, event: TrickWon) -> Deal:
    w = event.winner
    hands = deal.hands
    if deal.closed_by is None and deal.under is not None:  # the stock is open
        phase = "draw"
    elif not hands[0] and not hands[1]:
        phase = "end_window"
    else:
        phase = "lead"
    if event.marriage_credited or event.last_trick_bonus or deal.pending[w]:
        deal = _credited(deal, event)
    lead, follow = event.cards
    return copy_with(
        deal, trick=(), tricks=(*deal.tricks, (w, lead, follow)), won=event.tricks,
        card_points=with_seat(deal.card_points, w, deal.card_points[w] + event.points),
        turn=w, phase=phase, passes=0,
    )


def _credited(deal: Deal, event: TrickWon) -> Deal:
    """A trick's winner credited its pending marriage points and the last-trick bonus."""
    w = event.winner
    married = with_seat(deal.marriage_points, w, deal.marriage_points[w] + event.marriage_credited)
    bonus = with_seat(deal.bonus, w, deal.bonus[w] + event.last_trick_bonus)
    pending = with_seat(deal.pending, w, 0)
    return copy_with(deal, marriage_points=married, bonus=bonus, pending=pending)


def _drawn(deal: Deal, seat: int, card: str, face_up: bool) -> Deal:
    hands = _set_hand(deal.hands, seat, (*deal.hands[seat], card))
    if face_up:  # the trump card under the stock
        known = _set_hand(deal.known, seat, (*deal.known[seat], card))
        return copy_with(deal, hands=hands, known=known, under=None)
    return copy_with(deal, hands=hands, stock=deal.stock[1:])


def _closed(deal: Deal, event: StockClosed) -> Deal:
    return copy_with(
        deal, closed_by=event.seat, closed_before_draw=event.before_draw,
        closed_at_stock_size=event.stock_size,
        opponent_had_trick_at_close=event.opponent_had_trick_at_close, phase="lead",
    )


_SCORED_FIELDS = tuple(f.name for f in fields(DealScored))
_scored_values = attrgetter(*_SCORED_FIELDS)


def _scored(state: State, event: DealScored) -> State:
    assert state.deal is not None
    deal = copy_with(state.deal, phase="over")
    carry = state.carry_over
    if event.winner is not None:
        carry = 0
    elif state.rules.carry_over_undecided:
        carry += 1
    result = dict(zip(_SCORED_FIELDS, _scored_values(event), strict=True))  # encoded fields
    # the finished deal, kept in the view until the next one is scored (every card listed was
    # played face up; H3's default hides old tricks during play only)
    result.update(
        number=deal.number, dealer=deal.dealer, trump_card=deal.trump_card,
        closed_by=deal.closed_by,
        tricks_played=[{"winner": w, "cards": [lead, follow]} for w, lead, follow in deal.tricks],
        marriages=[{"seat": m[0], "suit": m[1], "value": m[2], "credited": m[5]}
                   for m in deal.marriages],
    )
    return copy_with(state, deal=deal, game_points=event.match_points, carry_over=carry,
                      deals_scored=state.deals_scored + 1, last_result=result)
