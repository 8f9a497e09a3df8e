"""The exhaustive fold of Sixty-Six events onto the state."""

from __future__ import annotations

from dataclasses import MISSING, fields
from operator import attrgetter
from typing import Any, assert_never

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
    # the most frequent events first (random play): a match tries its cases in order
    deal = state.deal
    match event:
        case CardPlayed():
            assert deal is not None
            return _with(state, _played(deal, event), 1)
        case TrickWon():
            assert deal is not None
            return _with(state, _trick_won(deal, event), 0)
        case Passed():
            assert deal is not None
            new = _new(Deal)
            values = new.__dict__
            values.update(deal.__dict__)
            values["passes"] = deal.passes + 1
            values["turn"] = 1 - deal.turn
            return _with(state, new, 1)
        case HandDealt(seat=seat, cards=cards):
            assert deal is not None
            new = _new(Deal)
            values = new.__dict__
            values.update(deal.__dict__)
            values["hands"] = _set_hand(deal.hands, seat, cards)
            return _with(state, new, 0)
        case CardDrawn(seat=seat, card=card, face_up=face_up):
            assert deal is not None
            return _with(state, _drawn(deal, seat, card, face_up), 0)
        case DealScored():
            return _scored(state, event)
        case StockClosed():
            assert deal is not None
            new = _new(Deal)
            values = new.__dict__
            values.update(deal.__dict__)
            values["closed_by"] = event.seat
            values["closed_before_draw"] = event.before_draw
            values["closed_at_stock_size"] = event.stock_size
            values["opponent_had_trick_at_close"] = event.opponent_had_trick_at_close
            values["phase"] = "lead"
            return _with(state, new, 1)
        case DealStarted(number=number, dealer=dealer, trump_card=trump, carry_over=carry):
            values = _DEAL_DEFAULTS.copy()  # Deal(...), less setting its every field one by one
            values.update(number=number, dealer=dealer, trump_card=trump, under=trump,
                          turn=1 - dealer)
            deal = _new(Deal)
            _set(deal, "__dict__", values)
            return copy_with(state, deal=deal, carry_over=carry)
        case StockLaid(cards=cards):
            assert deal is not None
            new = _new(Deal)
            values = new.__dict__
            values.update(deal.__dict__)
            values["stock"] = cards
            return _with(state, new, 0)
        case CardsDrawn(automatic=automatic):
            assert deal is not None
            new = _new(Deal)
            values = new.__dict__
            values.update(deal.__dict__)
            values["phase"] = "lead"
            return _with(state, new, not automatic)
        case MatchEnded(winner=winner):
            return copy_with(state, ended="finished", winner=winner)
        case DeclaredOut():
            return _with(state, copy_with(_deal(state), phase="over"), 1)
        case MarriageAnnounced():
            return _with(state, _married(_deal(state), event), 0)
        case TrumpExchanged(seat=seat, nine=nine, taken=taken):
            return _with(state, _exchanged(_deal(state), seat, nine, taken), 1)
        case GameStarted(options=options, seed=seed, dealer=dealer):
            return _started(options, seed, dealer)
        case MatchResumed(match_points=points, deals_scored=scored):
            return copy_with(state, game_points=points, deals_scored=scored)
        case GameAborted():
            return copy_with(state, ended="action_limit")
        case _:
            assert_never(event)


# The events of play copy their deal as ``new = _new(Deal)``, ``values = new.__dict__``,
# ``values.update(deal.__dict__)``, change ``values`` and make the state of it with ``_with``.
# This is what two ``copy_with`` calls do, less their keyword packing and field-name check (the
# rules tests and test_a_folded_deal_has_exactly_its_fields catch a misspelt field), and less a
# dict: filling the new instance's own ``__dict__`` (one copy, as ``dict.copy`` does) is cheaper
# than copying one and setting it as the ``__dict__`` (CPython makes and drops a dict for the
# new instance first). The rarer events use ``copy_with``.
_new = object.__new__
_set = object.__setattr__
_DEAL_DEFAULTS = {f.name: f.default for f in fields(Deal) if f.default is not MISSING}


def _with(state: State, deal: Deal, acted: int) -> State:
    """``copy_with(state, deal=deal, actions=state.actions + acted)``."""
    new: State = _new(State)
    values = new.__dict__
    values.update(state.__dict__)
    values["deal"] = deal
    if acted:
        values["actions"] = state.actions + acted
    return new


_STATE_DEFAULTS = {f.name: getattr(State(), f.name) for f in fields(State)}


def _started(options: dict[str, Any], seed: str, dealer: int) -> State:
    """``State(started=True, ...)`` whose ``__dict__`` is a plain dict, not the key-sharing one
    ``__init__`` leaves: every later state copies it, and CPython's specialised attribute reads
    miss on a key-sharing dict (each ``state.x`` then took the slow path)."""
    values = _STATE_DEFAULTS.copy()
    values.update(started=True, options=dict(options), rules=Rules.of(dict(options)),
                  seed=seed, first_dealer=dealer)
    state: State = _new(State)
    _set(state, "__dict__", values)
    return state


def _deal(state: State) -> Deal:
    assert state.deal is not None
    return state.deal


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
    new: Deal = _new(Deal)
    values = new.__dict__
    values.update(deal.__dict__)
    hands = deal.hands
    hand = hands[seat]
    if card in hand:  # _without and _set_hand, inlined for the most frequent event
        i = hand.index(card)
        hand = hand[:i] + hand[i + 1 :]
        values["hands"] = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    known = deal.known
    if card in known[seat]:
        values["known"] = _set_hand(known, seat, _without(known[seat], card))
    if event.role == "lead":
        values["trick"] = (card,)
        values["phase"] = "follow"
        values["turn"] = 1 - seat
    else:
        values["trick"] = (*deal.trick, card)
    return new


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
    lead, follow = event.cards
    hands = deal.hands
    if deal.closed_by is None and deal.under is not None:  # the stock is open
        phase = "draw"
    elif not hands[0] and not hands[1]:
        phase = "end_window"
    else:
        phase = "lead"
    new: Deal = _new(Deal)
    values = new.__dict__
    values.update(deal.__dict__)
    if event.marriage_credited:
        values["marriage_points"] = with_seat(deal.marriage_points, w,
                                              deal.marriage_points[w] + event.marriage_credited)
    if event.last_trick_bonus:
        values["bonus"] = with_seat(deal.bonus, w, deal.bonus[w] + event.last_trick_bonus)
    if deal.pending[w]:
        values["pending"] = with_seat(deal.pending, w, 0)
    values["trick"] = ()
    values["tricks"] = (*deal.tricks, (w, lead, follow))
    values["won"] = event.tricks
    points = deal.card_points
    values["card_points"] = ((points[0] + event.points, points[1]) if w == 0
                             else (points[0], points[1] + event.points))
    values["turn"] = w
    values["phase"] = phase
    values["passes"] = 0
    return new


def _drawn(deal: Deal, seat: int, card: str, face_up: bool) -> Deal:
    new: Deal = _new(Deal)
    values = new.__dict__
    values.update(deal.__dict__)
    values["hands"] = _set_hand(deal.hands, seat, (*deal.hands[seat], card))
    if face_up:
        values["known"] = _set_hand(deal.known, seat, (*deal.known[seat], card))
        values["under"] = None
    else:
        values["stock"] = deal.stock[1:]
    return new


_SCORED_FIELDS = tuple(f.name for f in fields(DealScored))
_scored_values = attrgetter(*_SCORED_FIELDS)


def _scored(state: State, event: DealScored) -> State:
    deal = copy_with(_deal(state), phase="over")
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
