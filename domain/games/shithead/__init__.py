"""Shithead (Palace, Karma): get rid of your cards; the last seat holding any is the shithead.

Rules contract: docs/rules/shithead.md. Actions are JSON objects, the acting seat apart:

- ``{"type": "swap", "hand_card": "3H", "face_up_card": "KS"}``: pre-play, a hand card takes
  the slot of a single face-up card (R4.2).
- ``{"type": "stack", "card": "KD", "slot": 1}``: pre-play under ``stack_face_up``.
- ``{"type": "choose_face_up", "cards": ["AS", "KC", "JH"]}``: pre-play under
  ``deal_6_choose_3`` (slots in listed order; also marks the seat ready). With
  ``stack_face_up`` too: ``{"type": "choose_face_up", "slots": [["AS"], ["KC", "KD"], ["JH"]]}``
  in any order (slot i is the i-th listed; D-SLOT-ORDER); legal_actions lists the canonical
  form (slots by their first card, each slot's cards in rank-suit order).
- ``{"type": "ready"}``: ends the seat's pre-play.
- ``{"type": "play", "cards": ["7C", "7H"]}``: a set from the hand, or from the face-up cards
  once the hand is empty (whole stacks under ``stack_face_up``); the last listed card lands on
  top. Under ``ten_out_of_turn`` other seats may send a play of tens.
- ``{"type": "pickup"}``, or in the face-up tier with ``face_up_pickup="one"``
  ``{"type": "pickup", "face_up_card": "7C"}``.
- ``{"type": "flip", "slot": 0}``: the face-down tier's only action.
- ``{"type": "play_stock"}``: under ``play_from_stock`` while the stock is not empty.

``legal_actions`` lists every legal action in exactly these shapes (one canonical card order
per set; rank then suit).
"""

from __future__ import annotations

from typing import Any

from domain.errors import GameOver, IllegalAction, InvalidAction
from domain.events import Encoded, Event
from domain.games.shithead import narration
from domain.games.shithead.events import CODEC, GameAborted
from domain.games.shithead.options import OPTIONS, checked_options
from domain.games.shithead.play import decide_play, out_of_turn_actions, turn_actions
from domain.games.shithead.preplay import decide_preplay, preplay_actions
from domain.games.shithead.rules import sort_cards
from domain.games.shithead.setup import creation_events
from domain.games.shithead.state import NEW, OVER, PLAY, PREPLAY, State, evolve
from domain.games.shithead.view import open_table, outcome, public_to_act, redact, table
from domain.protocol import Action, Setup, action_type, check_dealer, check_players
from domain.registry import register

PREPLAY_TYPES = ("swap", "stack", "choose_face_up", "ready")
PLAY_TYPES = ("play", "pickup", "flip", "play_stock")
_FIELDS: dict[str, frozenset[str]] = {
    "swap": frozenset({"hand_card", "face_up_card"}),
    "stack": frozenset({"card", "slot"}),
    "ready": frozenset(),
    "play": frozenset({"cards"}),
    "pickup": frozenset({"face_up_card"}),
    "flip": frozenset({"slot"}),
    "play_stock": frozenset(),
}
_TYPES = PREPLAY_TYPES + PLAY_TYPES
_TYPE_SET = frozenset(_TYPES)
_PREPLAY_KINDS, _PLAY_KINDS = frozenset(PREPLAY_TYPES), frozenset(PLAY_TYPES)
_KEYS = {kind: fields | {"type"} for kind, fields in _FIELDS.items()}  # every key a kind takes


class Shithead:
    """The Shithead decider (stateless)."""

    name = "shithead"
    title = "Shithead"
    min_players = 2
    max_players = 6
    options = OPTIONS
    codec = CODEC
    narration = narration  # last_action: roles and words (domain.narration)
    # never made for a seat by a default move while anything else is legal (domain.default_move)
    default_move_skips = frozenset({"swap", "stack", "pickup", "play_stock"})

    def start(self, setup: Setup) -> list[Event]:
        """Validate the setup and return GameStarted and CardsDealt."""
        check_players(self, setup.players)
        check_dealer(setup.dealer, setup.players)
        return creation_events(setup, checked_options(setup.options, setup.players))

    def initial_state(self) -> State:
        """The state before GameStarted."""
        return State()

    # Fold one event: the fold itself, not a method calling it (one call less per event).
    evolve = staticmethod(evolve)

    def decide(self, state: State, seat: int, action: Action) -> list[Event]:
        """The events of one action, or the most specific DomainError."""
        kind = action.get("type") if type(action) is dict else None
        if type(kind) is not str or kind not in _TYPE_SET:  # (the usual action: no call)
            kind = action_type(action, _TYPES)
        phase = state.phase
        if phase == OVER:
            raise GameOver("the game is over: no more actions")
        _check_shape(state, kind, action)
        if phase == NEW or not isinstance(seat, int) or not 0 <= seat < state.info.players:
            raise InvalidAction(f"there is no seat {seat!r} at this table", reason="bad_seat")
        if phase == PLAY:
            if kind in _PREPLAY_KINDS:
                raise IllegalAction(f"cannot {kind} once play has begun", reason="wrong_phase")
            batch = decide_play(state, seat, kind, action)
        else:
            if kind in _PLAY_KINDS:
                raise IllegalAction(f"cannot {kind} during pre-play", reason="wrong_phase")
            batch = decide_preplay(state, seat, kind, action)
        events = batch.events
        # Each event adds at most one action: below this bound the limit cannot have been met,
        # and the batch's last events need not be folded to know it.
        if state.actions + len(events) >= state.info.rules.action_limit:
            after = batch.state
            if after.phase != OVER and after.actions >= after.info.rules.action_limit:
                batch.emit(GameAborted(reason="action_limit", actions=after.actions))
        return events

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every action the seat may send now."""
        if not isinstance(seat, int) or not 0 <= seat < state.info.players:
            return []
        phase = state.phase
        if phase != PLAY:
            return preplay_actions(state, seat) if phase == PREPLAY else []
        if seat in state.out:
            return []
        if seat == state.to_act:
            return turn_actions(state, seat)
        return out_of_turn_actions(state, seat)

    def seats_to_act(self, state: State) -> tuple[int, ...]:
        """The seat to act (plus seats holding a ten under ten_out_of_turn); pre-play: not ready."""
        if state.phase != PLAY:
            return tuple(public_to_act(state)) if state.phase == PREPLAY else ()
        assert state.to_act is not None
        others: tuple[int, ...] = ()
        if state.info.rules.ten_out_of_turn and state.pile:
            others = tuple(
                s
                for s in range(state.players)
                if s != state.to_act and out_of_turn_actions(state, s)
            )
        return (state.to_act, *others)

    def awaited_seats(self, state: State) -> tuple[int, ...]:
        """The seat to act, or the seats not yet ready; a ten out of turn is never awaited."""
        if state.phase != PLAY:
            return tuple(public_to_act(state)) if state.phase == PREPLAY else ()
        assert state.to_act is not None
        return (state.to_act,)

    def holds_optional_right(self, state: State, seat: int) -> bool:
        """True when the seat may act without being awaited: a ten out of turn (§16)."""
        return seat in self.seats_to_act(state) and seat not in self.awaited_seats(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What the seat (None: a spectator) may see, with its legal actions."""
        data = table(state)
        legal = [] if seat is None else self.legal_actions(state, seat)
        to_act = public_to_act(state)
        if seat is not None and legal and seat not in to_act:
            to_act.append(seat)
        data["seat"] = seat
        data["to_act"] = to_act
        data["hand"] = None if seat is None else sorted_hand(state, seat)
        data["legal_actions"] = legal
        return data

    def reveal(self, state: State) -> dict[str, Any]:
        """The whole table with every card open."""
        return open_table(state)

    # None while playing, then the result: the function itself (one call less per action).
    outcome = staticmethod(outcome)

    def redact(self, event: Event, seat: int | None) -> Encoded:
        """The encoded event as that seat may see it during play."""
        return redact(event, seat)


def sorted_hand(state: State, seat: int) -> list[str] | None:
    """The seat's own hand in rank-suit order (None before the deal)."""
    if not 0 <= seat < len(state.hands):
        return None
    return list(sort_cards(state.hands[seat]))


def _check_shape(state: State, kind: str, action: Action) -> None:
    keys = _KEYS.get(kind)
    if keys is not None and action.keys() <= keys and None not in action.values():
        return  # the usual case, checked in C; the checks below name what is wrong
    allowed = _FIELDS.get(kind)
    if allowed is None:
        stacked = state.rules is not None and state.info.rules.stack_face_up
        allowed = frozenset({"slots" if stacked else "cards"})
    extra = sorted(set(action) - allowed - {"type"})
    if extra:
        raise InvalidAction(f"{kind} takes no field(s) {', '.join(extra)}", reason="bad_field")
    nulls = sorted(k for k, v in action.items() if v is None)
    if nulls:
        raise InvalidAction(f"field(s) {', '.join(nulls)} may not be null", reason="bad_field")


GAME = Shithead()
register(GAME)
