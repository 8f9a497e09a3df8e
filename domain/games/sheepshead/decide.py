"""decide: validate one action through the rules and return the events it causes."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from domain.cards import parse_cards
from domain.errors import GameOver, IllegalAction, InvalidAction, NotYourTurn
from domain.events import Event
from domain.games.sheepshead import rules
from domain.games.sheepshead.cards import DECK, total_points, trick_winner_index
from domain.games.sheepshead.config import deal_cards, layout
from domain.games.sheepshead.events import (
    Buried,
    CardCalled,
    CardPlayed,
    CrackDecided,
    HandDealt,
    HandThrownIn,
    LeasterStarted,
    MatchAborted,
    MatchEnded,
    PartnerRevealed,
    Passed,
    Picked,
    PreparationFinished,
    RecrackDecided,
    TrickWon,
)
from domain.games.sheepshead.evolve import FOLDS
from domain.games.sheepshead.scoring import score_leaster, score_normal
from domain.games.sheepshead.state import Hand, State
from domain.protocol import action_type
from domain.shuffle import deal_label, shuffled

_FIELDS = {"pick": {"type", "blitz"}, "bury": {"type", "cards"}, "call": {"type", "cards"}}
_TYPE_ONLY = {"type"}
_NONE: frozenset[str] = frozenset()
_FIELDS["play"] = _FIELDS["bury"]
_KINDS = frozenset(rules.ACTION_TYPES)


def decide(state: State, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """The events one action causes, or the most specific DomainError."""
    if state.finished or state.aborted:  # state.over, without the call
        raise GameOver("the match is over", reason="match_over")
    kind = action.get("type") if type(action) is dict else None
    if type(kind) is not str or kind not in _KINDS:  # (the usual action: no call)
        kind = action_type(action, rules.ACTION_TYPES)
    cards = _parse_shape(kind, action)
    hand = state.hand
    if not isinstance(seat, int) or not 0 <= seat < state.players or hand is None:
        raise InvalidAction(f"there is no seat {seat!r} in this match")
    if seat != hand.to_act:
        raise NotYourTurn(f"seat {seat} may not act now", reason="not_your_turn")
    if kind not in rules.PHASE_ACTIONS.get(hand.phase, _NONE):
        raise IllegalAction(f"{kind} is not possible now", reason="wrong_phase")
    FOLDS.forget()  # (the folds of the action before are of no more use)
    events = _HANDLERS[kind](state, hand, seat, kind, action, cards)
    return _with_action_limit(state, events)


def _parse_shape(kind: str, action: Mapping[str, Any]) -> tuple[str, ...]:
    allowed = _FIELDS.get(kind, _TYPE_ONLY)
    if not allowed.issuperset(action):
        extra = sorted(set(action) - allowed)
        raise InvalidAction(f"{kind} takes no field {', '.join(extra)}")
    if "blitz" in action and action["blitz"] is not True:
        raise InvalidAction(f"blitz must be true when given, got {action['blitz']!r}")
    if "cards" in allowed:
        if "cards" not in action:
            raise InvalidAction(f"{kind} needs a cards list")
        return tuple(parse_cards(action["cards"]))
    return ()


def _fold(state: State, events: list[Event]) -> State:
    for event in events:
        state = FOLDS.remembered(state, event)  # applying the events folds them again
    return state


def _with_action_limit(state: State, events: list[Event]) -> list[Event]:
    # Every accepted action counts once (evolve counts the action's own event).
    actions = state.actions + 1
    ended = isinstance(events[-1], MatchEnded)
    if not ended and actions >= state.options["action_limit"]:
        events.append(MatchAborted(reason="action_limit", actions=actions))
    return events


def _raise(error: IllegalAction | None) -> None:
    if error is not None:
        raise error


# --- picking -------------------------------------------------------------------------------


def _pick(state: State, hand: Hand, seat: int, kind: str, action: Any, cards: Any) -> list[Event]:
    blitz: tuple[str, ...] = ()
    if action.get("blitz"):
        _raise(rules.blitz_error(state, hand, seat))
        blitz = rules.blitz_pairs(hand.hands[seat])
    return [Picked(seat=seat, blind=hand.blind, blitz=blitz)]


def _pass(state: State, hand: Hand, seat: int, kind: str, action: Any, cards: Any) -> list[Event]:
    _raise(rules.pass_error(state, hand, seat))
    events: list[Event] = [Passed(seat=seat)]
    if len(hand.passed) + 1 < len(hand.active):
        return events
    mode = state.options["no_pick"]
    if mode == "doubler":
        thrown = HandThrownIn(multiplier=state.pending_multiplier * 2)
        return [*events, thrown, next_deal(state, hand, counted=False)]
    return [*events, LeasterStarted(kind="moster" if mode == "moster" else "leaster")]


# --- burying and calling -------------------------------------------------------------------


def _bury(state: State, hand: Hand, seat: int, kind: str, action: Any, cards: Any) -> list[Event]:
    _raise(rules.bury_error(state, hand, seat, cards))
    buried = Buried(seat=seat, cards=tuple(cards))
    after = FOLDS.remembered(state, buried)
    assert after.hand is not None
    if rules.calling(after, after.hand) is not None:
        return [buried]
    alone, announced = rules.automatic_alone(after, after.hand)
    return [buried, _prepared(after, after.hand, alone, announced, by_action=False)]


def _prepared(
    state: State, hand: Hand, alone: bool, announced: bool, *, by_action: bool
) -> PreparationFinished:
    assert hand.picker is not None
    return PreparationFinished(
        seat=hand.picker,
        alone=alone,
        announced=announced,
        by_action=by_action,
        crackers=rules.crackers(state, hand),
    )


def _call(state: State, hand: Hand, seat: int, kind: str, action: Any, cards: Any) -> list[Event]:
    _raise(rules.call_error(state, hand, kind, cards))
    if kind == "call":
        return [
            CardCalled(seat=seat, card=cards[0]),
            _prepared(state, hand, False, True, by_action=False),
        ]
    choices = rules.calling(state, hand)
    assert choices is not None
    public = choices.alone_public or kind == "partner"
    return [_prepared(state, hand, kind == "alone", public, by_action=True)]


# --- cracking ------------------------------------------------------------------------------


def _crack(state: State, hand: Hand, seat: int, kind: str, action: Any, cards: Any) -> list[Event]:
    if kind == "crack" and seat == hand.partner:
        raise IllegalAction("the partner may not crack", reason="crack_not_allowed")
    if kind in ("crack", "no_crack"):
        return [CrackDecided(seat=seat, crack=kind == "crack")]
    return [RecrackDecided(seat=seat, recrack=kind == "recrack")]


# --- playing -------------------------------------------------------------------------------


def _play(state: State, hand: Hand, seat: int, kind: str, action: Any, cards: Any) -> list[Event]:
    if len(cards) != 1:
        raise InvalidAction(f"play exactly one card, not {list(cards)}")
    card = cards[0]
    _raise(rules.play_error(state, hand, seat, card))
    events: list[Event] = [_card_played(seat, card)]
    if seat == hand.partner and card == hand.partner_card:
        events.append(PartnerRevealed(seat=seat, card=card))
    if len(hand.trick_cards) + 1 < len(hand.active):
        return events
    trick_cards = (*hand.trick_cards, card)
    seats = (*hand.trick_seats, seat)
    winner = seats[trick_winner_index(trick_cards)]
    events.append(
        TrickWon(
            number=len(hand.tricks) + 1,
            winner=winner,
            cards=trick_cards,
            points=total_points(trick_cards),
        )
    )
    if len(hand.tricks) + 1 < rules.tricks_per_hand(state):
        return events
    return events + _end_of_hand(_fold(state, events))


# Events are immutable facts, so the few distinct ones of a kind are built once and shared:
# a dataclass __init__ sets each frozen field through object.__setattr__, a cache hit is a
# lookup (a card is played in most actions). The shared event holds the deck's own string of
# the card, the one a dealt hand holds.
@cache
def _card_played(seat: int, card: str) -> CardPlayed:
    return CardPlayed(seat=seat, card=_DECK_CARD[card])


_DECK_CARD = {card: card for card in DECK}


def _end_of_hand(state: State) -> list[Event]:
    hand = state.hand
    assert hand is not None
    scored = score_leaster(state, hand) if hand.leaster else score_normal(state, hand)
    after = FOLDS.remembered(state, scored)
    if hand.number + 1 >= state.options["rounds"]:
        top = max(after.totals)
        winners = tuple(s for s, t in enumerate(after.totals) if t == top)
        return [scored, MatchEnded(totals=after.totals, winners=winners)]
    return [scored, next_deal(after, hand, counted=True)]


def next_deal(state: State, hand: Hand, *, counted: bool) -> HandDealt:
    """The next deal of the match, from the seed kept in the state; the deal passes left."""
    number = hand.deal + 1
    dealer = (hand.dealer + 1) % state.players
    deck = shuffled(DECK, state.seed, deal_label(number))
    hands, blind = deal_cards(deck, layout(state.players, state.options), dealer, state.players)
    return HandDealt(
        deal=number,
        hand=hand.number + 1 if counted else hand.number,
        dealer=dealer,
        hands=hands,
        blind=blind,
    )


_HANDLERS = {
    "pick": _pick,
    "pass": _pass,
    "bury": _bury,
    "call": _call,
    "alone": _call,
    "partner": _call,
    "crack": _crack,
    "no_crack": _crack,
    "recrack": _crack,
    "no_recrack": _crack,
    "play": _play,
}
