"""Play-phase decisions: play, pickup, flip, play_stock, and how a placed set resolves (R8)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from domain.cards import parse_card, parse_cards, rank
from domain.errors import IllegalAction, InvalidAction, NotYourTurn
from domain.events import Event
from domain.games.shithead.events import (
    CardsDrawn,
    DirectionReversed,
    FaceDownFlipped,
    GameEnded,
    PileBurned,
    PlayerOut,
    StockPlayed,
    TurnPassed,
    cards_played,
    pile_picked_up,
)
from domain.games.shithead.ranks import RANK
from domain.games.shithead.rules import (
    FACE_DOWN,
    FACE_UP,
    HAND,
    burn_cause,
    effective_top,
    face_down_slots,
    face_up_cards,
    holds_nothing,
    legal_sets,
    next_active,
    play_problem,
    reverses,
    tier,
)
from domain.games.shithead.state import FOLDS, Cards, State


class Batch:
    """The events of one action; ``state`` folds them so later rules see their effect.

    The fold waits until a rule reads ``state``: the last event of an action (the turn passing)
    is then never folded here, only by whoever applies the events. Those apply the others from
    what this fold remembered (``FOLDS``).
    """

    __slots__ = ("_folded", "_state", "emit", "events")

    def __init__(self, state: State) -> None:
        FOLDS.forget()
        self._state = state
        self._folded = 0
        self.events: list[Event] = []
        self.emit: Callable[[Event], None] = self.events.append  # record one event

    @property
    def state(self) -> State:
        """The state after every event emitted so far."""
        events = self.events
        if self._folded != len(events):
            state = self._state
            for event in events[self._folded :]:
                state = FOLDS.remembered(state, event)
            self._state, self._folded = state, len(events)
        return self._state


# --- shared by legal_actions and decide -------------------------------------------------------


def may_play_out_of_turn(state: State, seat: int) -> bool:
    """ten_out_of_turn: a seat off turn may play tens onto a non-empty pile (§16.2)."""
    return (
        state.info.rules.ten_out_of_turn
        and bool(state.pile)
        and seat != state.to_act
        and seat not in state.out
        and tier(state, seat) in (HAND, FACE_UP)
    )


def turn_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action of the seat whose turn it is."""
    zone = tier(state, seat)
    if zone == FACE_DOWN:
        return [{"type": "flip", "slot": i} for i in face_down_slots(state, seat)]
    actions: list[dict[str, Any]] = [
        {"type": "play", "cards": [*cards]} for cards in legal_sets(state, seat, zone)
    ]
    rules = state.info.rules
    if state.pile:
        if zone == FACE_UP and rules.face_up_pickup == "one":
            actions += [{"type": "pickup", "face_up_card": c} for c in face_up_cards(state, seat)]
        else:
            actions.append({"type": "pickup"})
    if rules.play_from_stock and state.stock:
        actions.append({"type": "play_stock"})
    return actions


def out_of_turn_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The ten plays a seat may make out of turn."""
    if not may_play_out_of_turn(state, seat):
        return []
    zone = tier(state, seat)
    return [{"type": "play", "cards": list(c)} for c in legal_sets(state, seat, zone, "T")]


# --- decide -----------------------------------------------------------------------------------


def decide_play(state: State, seat: int, kind: str, action: Any) -> Batch:
    """Validate a play-phase action and resolve it."""
    if seat in state.out:
        raise IllegalAction(f"seat {seat} is out and takes no more turns", reason="seat_out")
    if seat != state.to_act:
        if kind == "play" and may_play_out_of_turn(state, seat):
            return _play(state, seat, action, out_of_turn=True)
        raise NotYourTurn(f"it is seat {state.to_act}'s turn, not seat {seat}'s")
    if kind == "play":
        return _play(state, seat, action, out_of_turn=False)
    if kind == "pickup":
        return _pickup(state, seat, action)
    if kind == "flip":
        return _flip(state, seat, action)
    return _play_stock(state, seat)


def checked_set(state: State, seat: int, raw: Any) -> tuple[Cards, str]:
    """The cards of a play and their zone, or the most specific error (R6.5, R7, R13.2)."""
    cards = parse_cards(raw)
    if not cards:
        raise InvalidAction("a play names at least one card", reason="no_cards")
    several = len(cards) > 1
    if several and len(set(cards)) != len(cards):
        raise InvalidAction(f"a play names each card once: {', '.join(cards)}",
            reason="duplicate_card")
    zone = tier(state, seat)
    if zone == FACE_DOWN:
        raise IllegalAction(
            "your hand and face-up cards are gone: flip a face-down card", reason="wrong_tier"
        )
    _check_zone(state, seat, cards, zone)
    if several and len({RANK[c] for c in cards}) > 1:
        raise IllegalAction(
            f"cannot play {' '.join(cards)} together: a set is one rank", reason="mixed_ranks"
        )
    if zone == FACE_UP and state.info.rules.stack_face_up:
        _check_whole_stacks(state, seat, cards)
    _check_on_pile(state, cards)
    return cards, zone


def _check_zone(state: State, seat: int, cards: Cards, zone: str) -> None:
    if zone == HAND:
        hand = state.hands[seat]
        for c in cards:
            if c in hand:
                continue
            if c in face_up_cards(state, seat):
                raise IllegalAction(
                    f"cannot play face-up {c} while you hold hand cards", reason="wrong_tier"
                )
            raise IllegalAction(f"you do not hold {c} in your hand", reason="not_in_hand")
        return
    table = face_up_cards(state, seat)
    for c in cards:
        if c not in table:
            raise IllegalAction(f"{c} is not one of your face-up cards", reason="not_face_up")


def _check_whole_stacks(state: State, seat: int, cards: Cards) -> None:
    for stack in state.face_up[seat]:
        inside = [c for c in stack if c in cards]
        if inside and len(inside) != len(stack):
            raise IllegalAction(
                f"play the whole stack {' '.join(stack)}, not part of it", reason="partial_stack"
            )


def _check_on_pile(state: State, cards: Cards) -> None:
    rules = state.info.rules
    problem = play_problem(rules, state.pile, state.lead_count, RANK[cards[0]], len(cards))
    if problem is None:
        return
    if problem == "wrong_count":
        raise IllegalAction(
            f"play {state.lead_count} card(s) like the lead of this pile, not {len(cards)}",
            reason="wrong_count",
        )
    top = effective_top(rules, state.pile)
    raise IllegalAction(f"cannot play {' '.join(cards)} on {top}", reason=problem)


def _play(state: State, seat: int, action: Any, out_of_turn: bool) -> Batch:
    if out_of_turn and any(RANK[c] != "T" for c in parse_cards(action.get("cards"))):
        raise NotYourTurn(f"it is seat {state.to_act}'s turn; only tens may be played out of turn")
    cards, zone = checked_set(state, seat, action.get("cards"))
    batch = Batch(state)
    batch.emit(cards_played(seat, cards, zone))
    resolve_placed(batch, seat, RANK[cards[0]])
    return batch


def _pickup(state: State, seat: int, action: Any) -> Batch:
    zone = tier(state, seat)
    if zone == FACE_DOWN:
        raise IllegalAction("in the face-down tier you must flip, not pick up", reason="wrong_tier")
    if not state.pile:
        raise IllegalAction("the pile is empty: there is nothing to pick up", reason="empty_pile")
    taken = _face_up_taken(state, seat, zone, action.get("face_up_card"))
    batch = Batch(state)
    batch.emit(pile_picked_up(seat, state.pile, taken, "pickup"))
    after_pickup(batch, seat)
    return batch


def _face_up_taken(state: State, seat: int, zone: str, named: Any) -> Cards:
    mode = state.info.rules.face_up_pickup
    if named is not None and (zone == HAND or mode != "one"):
        why = "while you hold hand cards" if zone == HAND else f"under face_up_pickup={mode}"
        raise IllegalAction(f"do not name a face-up card {why}", reason="unexpected_face_up_card")
    if zone == HAND or mode == "none":
        return ()
    if mode == "all":
        return face_up_cards(state, seat)
    if named is None:
        raise IllegalAction("name one of your face-up cards to take with the pile",
            reason="no_face_up")
    card = parse_card(named)
    for stack in state.face_up[seat]:
        if card in stack:
            return stack
    raise IllegalAction(f"{card} is not one of your face-up cards", reason="not_face_up")


def _flip(state: State, seat: int, action: Any) -> Batch:
    if tier(state, seat) != FACE_DOWN:
        raise IllegalAction(
            "you may flip only when your hand and face-up cards are gone", reason="wrong_tier"
        )
    slot = action.get("slot")
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise InvalidAction(f"flip needs a slot number, got {slot!r}", reason="bad_slot")
    if slot not in face_down_slots(state, seat):
        raise IllegalAction(f"face-down slot {slot} is empty or does not exist",
            reason="empty_slot")
    card = state.face_down[seat][slot]
    assert card is not None
    rules = state.info.rules
    legal = play_problem(rules, state.pile, state.lead_count, rank(card), 1, True) is None
    batch = Batch(state)
    batch.emit(FaceDownFlipped(seat=seat, slot=slot, card=card, legal=legal))
    _resolve_revealed(batch, seat, card, legal, "flip")
    return batch


def _play_stock(state: State, seat: int) -> Batch:
    if not state.info.rules.play_from_stock:
        raise IllegalAction("play_stock needs the play_from_stock option", reason="option_off")
    if tier(state, seat) == FACE_DOWN:
        raise IllegalAction("in the face-down tier you must flip", reason="wrong_tier")
    if not state.stock:
        raise IllegalAction("the stock is empty", reason="empty_stock")
    card = state.stock[0]
    rules = state.info.rules
    legal = play_problem(rules, state.pile, state.lead_count, rank(card), 1, True) is None
    batch = Batch(state)
    batch.emit(StockPlayed(seat=seat, card=card, legal=legal))
    _resolve_revealed(batch, seat, card, legal, "stock")
    return batch


def _resolve_revealed(batch: Batch, seat: int, card: str, legal: bool, cause: str) -> None:
    if legal:
        resolve_placed(batch, seat, rank(card))
        return
    pile = batch.state.pile
    batch.emit(pile_picked_up(seat, pile, (), cause))
    after_pickup(batch, seat)


# --- resolution -------------------------------------------------------------------------------

# Events are immutable facts, so the few distinct ones of a kind are built once and shared:
# a dataclass __init__ sets each frozen field through object.__setattr__, a cache hit is a
# lookup (a turn passes in every action).


@cache
def _turn_passed(seat: int, reason: str) -> TurnPassed:
    return TurnPassed(seat=seat, reason=reason)


@cache
def _reversed(direction: int) -> DirectionReversed:
    return DirectionReversed(direction=direction)


@cache
def _burned(seat: int, cause: str, count: int) -> PileBurned:
    return PileBurned(seat=seat, cause=cause, count=count)


def draw(batch: Batch, seat: int) -> State:
    """Refill the seat's hand from the stock up to the hand size (R8.5); the state after."""
    state = batch.state
    need = state.info.rules.hand_size - len(state.hands[seat])
    if need > 0 and state.stock:
        batch.emit(CardsDrawn(seat=seat, cards=state.stock[:need]))
        return batch.state
    return state


def resolve_placed(batch: Batch, seat: int, played: str) -> None:
    """Reverse, burn, draw, out check and next turn after a set reached the pile (R8.2-R8.7)."""
    state = batch.state
    rules = state.info.rules
    if reverses(rules, played):
        batch.emit(_reversed(-state.direction))
    cause = burn_cause(rules, played, state.pile)  # a reversal leaves the pile as it is
    if cause is not None:
        batch.emit(_burned(seat, cause, len(state.pile)))
    state = draw(batch, seat)
    if not state.hands[seat]:  # (with a hand left the seat is not out)
        if _went_out(batch, seat):
            return
        state = batch.state
    if cause is not None:
        again = rules.burner_plays_again and seat not in state.out
        nxt = seat if again else next_active(state, seat, state.direction)
        batch.emit(_turn_passed(nxt, "burned"))
        return
    nxt = next_active(state, seat, state.direction)
    if played == "*" and rules.joker_skips:
        nxt = next_active(state, nxt, state.direction)
        batch.emit(_turn_passed(nxt, "skipped"))
        return
    batch.emit(_turn_passed(nxt, "played"))


def after_pickup(batch: Batch, seat: int) -> None:
    """Draw, then pass the turn as a pickup does (R9.5, pickup_passes_to)."""
    state = draw(batch, seat)
    direction = -state.direction if state.info.rules.pickup_to_previous else state.direction
    batch.emit(_turn_passed(next_active(state, seat, direction), "picked_up"))


def _went_out(batch: Batch, seat: int) -> bool:
    """Record a seat going out and the end of the deal; True when the deal ended (R11)."""
    state = batch.state
    if not holds_nothing(state, seat):
        return False
    batch.emit(PlayerOut(seat=seat, position=len(state.out) + 1))
    state = batch.state
    if state.info.rules.objective_winner:
        batch.emit(GameEnded(finishing_order=(seat,), loser=None, winner=seat))
        return True
    left = [s for s in range(state.players) if s not in state.out]
    if len(left) == 1:
        batch.emit(GameEnded(finishing_order=(*state.out, left[0]), loser=left[0], winner=None))
        return True
    return False
