"""Pre-play decisions (R4, §16.2): swap, stack, choose_face_up, ready, and the starter (R5)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from domain.cards import parse_card, parse_cards, rank
from domain.errors import IllegalAction, InvalidAction
from domain.games.shithead.events import (
    CardStacked,
    FaceUpChosen,
    FaceUpSwapped,
    PlayerReady,
    PlayStarted,
)
from domain.games.shithead.play import Batch, draw
from domain.games.shithead.rules import card_order, rank_subsets, sort_cards, starter
from domain.games.shithead.state import Cards, State


def preplay_kinds(state: State, seat: int) -> tuple[str, ...]:
    """The pre-play action types open to a seat that is not ready yet."""
    rules = state.info.rules
    if rules.deal_6_choose_3 and not state.chosen[seat]:
        return ("choose_face_up",)
    if rules.stack_face_up:
        return ("swap", "stack", "ready")
    if rules.deal_6_choose_3:
        return ()
    return ("swap", "ready")


def preplay_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every pre-play action of the seat."""
    if state.ready[seat]:
        return []
    out: list[dict[str, Any]] = []
    for kind in preplay_kinds(state, seat):
        out += _ENUMERATE[kind](state, seat)
    return out


def _swaps(state: State, seat: int) -> list[dict[str, Any]]:
    singles = [stack[0] for stack in state.face_up[seat] if len(stack) == 1]
    return [
        {"type": "swap", "hand_card": h, "face_up_card": f}
        for h in sort_cards(state.hands[seat])
        for f in singles
    ]


def _stacks(state: State, seat: int) -> list[dict[str, Any]]:
    slots = state.face_up[seat]
    return [
        {"type": "stack", "card": h, "slot": i}
        for h in sort_cards(state.hands[seat])
        for i, stack in enumerate(slots)
        if stack and rank(stack[0]) == rank(h)
    ]


def _ready(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "ready"}]


def _choices(state: State, seat: int) -> list[dict[str, Any]]:
    if state.info.rules.stack_face_up:
        return [
            {"type": "choose_face_up", "slots": [list(g) for g in groups]}
            for groups in stack_choices(state.hands[seat], state.info.rules.cards_per_row)
        ]
    hand = sort_cards(state.hands[seat])
    return [
        {"type": "choose_face_up", "cards": list(cards)}
        for cards in combinations(hand, state.info.rules.cards_per_row)
    ]


_ENUMERATE = {"swap": _swaps, "stack": _stacks, "ready": _ready, "choose_face_up": _choices}


def stack_choices(hand: Cards, slots: int) -> list[tuple[Cards, ...]]:
    """Every canonical choice of ``slots`` disjoint equal-rank groups (slots by first card)."""
    groups = sorted(rank_subsets(hand), key=lambda g: [card_order(c) for c in g])
    out = []
    for chosen in combinations(groups, slots):
        used = [c for g in chosen for c in g]
        if len(set(used)) == len(used):
            out.append(tuple(sorted(chosen, key=lambda g: card_order(g[0]))))
    return out


# --- decide -----------------------------------------------------------------------------------


def decide_preplay(state: State, seat: int, kind: str, action: Any) -> Batch:
    """Validate a pre-play action and record it (and the start of play after the last ready)."""
    if state.ready[seat]:
        raise IllegalAction(f"seat {seat} is already ready", reason="already_ready")
    if kind not in preplay_kinds(state, seat):
        raise IllegalAction(_why_not(state, seat, kind), reason="not_now")
    batch = Batch(state)
    if kind == "swap":
        _swap(batch, seat, action)
    elif kind == "stack":
        _stack(batch, seat, action)
    elif kind == "choose_face_up":
        _choose(batch, seat, action)
    else:
        batch.emit(PlayerReady(seat=seat))
    if all(batch.state.ready):
        found, found_rank, found_tier = starter(batch.state)
        batch.emit(PlayStarted(starter=found, rank=found_rank, tier=found_tier))
    return batch


def _why_not(state: State, seat: int, kind: str) -> str:
    rules = state.info.rules
    if kind == "choose_face_up":
        if not rules.deal_6_choose_3:
            return "choose_face_up needs the deal_6_choose_3 option"
        return "you have already chosen your face-up cards"
    if rules.deal_6_choose_3 and not state.chosen[seat]:
        return f"choose your face-up cards before you {kind}"
    if kind == "stack":
        return "stack needs the stack_face_up option"
    return f"{kind} is not used under deal_6_choose_3: choose_face_up makes you ready"


def _swap(batch: Batch, seat: int, action: Any) -> None:
    state = batch.state
    hand_card = parse_card(action.get("hand_card"))
    face_up_card = parse_card(action.get("face_up_card"))
    if hand_card not in state.hands[seat]:
        raise IllegalAction(f"you do not hold {hand_card} in your hand", reason="not_in_hand")
    slot = _slot_of(state, seat, face_up_card)
    if len(state.face_up[seat][slot]) != 1:
        raise IllegalAction(
            f"{face_up_card} lies in a stack: only a single face-up card may be swapped",
            reason="stacked_slot",
        )
    batch.emit(FaceUpSwapped(seat=seat, slot=slot, hand_card=hand_card, face_up_card=face_up_card))


def _slot_of(state: State, seat: int, card: str) -> int:
    for i, stack in enumerate(state.face_up[seat]):
        if card in stack:
            return i
    raise IllegalAction(f"{card} is not one of your face-up cards", reason="not_face_up")


def _stack(batch: Batch, seat: int, action: Any) -> None:
    state = batch.state
    card = parse_card(action.get("card"))
    slot = action.get("slot")
    if card not in state.hands[seat]:
        raise IllegalAction(f"you do not hold {card} in your hand", reason="not_in_hand")
    slots = state.face_up[seat]
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(slots):
        raise InvalidAction(f"stack needs a face-up slot 0-{len(slots) - 1}, got {slot!r}")
    if not slots[slot] or rank(slots[slot][0]) != rank(card):
        raise IllegalAction(
            f"cannot stack {card} on {' '.join(slots[slot]) or 'an empty slot'}",
            reason="rank_mismatch",
        )
    batch.emit(CardStacked(seat=seat, card=card, slot=slot))
    draw(batch, seat)


def _choose(batch: Batch, seat: int, action: Any) -> None:
    state = batch.state
    if state.info.rules.stack_face_up:
        slots = _checked_slots(state, seat, action.get("slots"))
        batch.emit(FaceUpChosen(seat=seat, slots=slots))
        draw(batch, seat)
        return
    cards = parse_cards(action.get("cards"))
    rows = state.info.rules.cards_per_row
    _check_in_hand(state, seat, cards)
    if len(cards) != rows:
        raise IllegalAction(f"choose exactly {rows} face-up cards, not {len(cards)}",
            reason="wrong_count")
    batch.emit(FaceUpChosen(seat=seat, slots=tuple((c,) for c in cards)))


def _check_in_hand(state: State, seat: int, cards: Cards) -> None:
    if len(set(cards)) != len(cards):
        raise InvalidAction(f"name each card once: {', '.join(cards)}", reason="duplicate_card")
    for c in cards:
        if c not in state.hands[seat]:
            raise IllegalAction(f"you do not hold {c} in your hand", reason="not_in_hand")


def _checked_slots(state: State, seat: int, raw: Any) -> tuple[Cards, ...]:
    rows = state.info.rules.cards_per_row
    if not isinstance(raw, list | tuple) or len(raw) != rows:
        raise InvalidAction(f"slots must be a list of {rows} lists of card codes",
            reason="bad_slots")
    slots = tuple(parse_cards(group) for group in raw)
    _check_in_hand(state, seat, tuple(c for g in slots for c in g))
    for group in slots:
        if not group or len({rank(c) for c in group}) != 1:
            raise IllegalAction(f"each slot holds one rank: {group}", reason="mixed_ranks")
    # Any order is accepted (legal_actions lists the canonical one; domain.protocol.action_key
    # makes them equal): slot i is the i-th group listed, its cards in rank-suit order.
    return tuple(tuple(sort_cards(group)) for group in slots)
