"""What a seat may see, written from the rules' visibility sections (zone by zone), not from
any game's own ``view``: the no-leak witnesses compare what the API shows against this.

``may_see(name, state, seat)`` is the set of card codes that seat (None: a spectator) may see
in ``state`` at this moment; a witness adds them up over time (a card once public stays seen).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from typing import Any

from domain.lifecycle import Table
from tests.support.api import cards_in


def _record(result: Any) -> set[str]:
    """The cards in a deal's or hand's published result (public once it is scored)."""
    return cards_in(asdict(result) if is_dataclass(result) else result)


def _shithead(state: Any, seat: int | None) -> set[str]:
    # §14: face-up cards of every seat and the pile are public; a hand is its owner's; the
    # stock and face-down cards are nobody's until they reach a hand or the pile.
    seen = {c for slots in state.face_up for stack in slots for c in stack} | set(state.pile)
    if state.last_revealed:
        seen.add(state.last_revealed)
    if seat is not None and seat < len(state.hands):
        seen |= set(state.hands[seat])
    return seen


def _sixty_six(state: Any, seat: int | None) -> set[str]:
    # H1-H8: the trump card, the cards played (current trick and tricks), marriages shown and
    # the trump exchange are public; a hand is its owner's, and a seat knows the opponent's
    # cards that were shown to it (marriage partners, the exchanged trump card).
    deal = state.deal
    seen = _record(state.last_result)
    if deal is None:
        return seen
    seen |= {deal.trump_card, *deal.trick}
    seen |= {c for _, *cards in deal.tricks for c in cards}
    seen |= {c for m in deal.marriages for c in (m[3], m[4])}
    if deal.exchanged is not None:
        seen |= {deal.exchanged[1], deal.exchanged[2]}
    if seat is not None:
        seen |= set(deal.hands[seat]) | set(deal.known[1 - seat])
    return seen


def _sheepshead(state: Any, seat: int | None) -> set[str]:
    # R10: own hand; the blind joins the picker's hand; buried cards are the picker's; the
    # called card, shown cards and every played card are public; at hand end all is public.
    seen = _record(state.last_result)
    hand = state.hand
    if hand is None:
        return seen
    seen |= set(hand.trick_cards) | {c for t in hand.tricks for c in t.cards}
    seen |= set(hand.blitz) | set(hand.shown)
    if hand.called:
        seen.add(hand.called)
    if hand.partner_card:
        seen.add(hand.partner_card)  # the rule's card (JD or the called one): a public name
    if seat is not None:
        if seat < len(hand.hands):
            seen |= set(hand.hands[seat])
        if seat == hand.picker:
            seen |= set(hand.buried) | set(hand.p8)
    return seen


def _fake(state: Any, seat: int | None) -> set[str]:
    seen = {card for _, card in state.table}
    if seat is not None and seat < len(state.hands):
        seen |= set(state.hands[seat])
    return seen


MAY_SEE: dict[str, Callable[[Any, int | None], set[str]]] = {
    "shithead": _shithead,
    "sixty_six": _sixty_six,
    "sheepshead": _sheepshead,
    "fake": _fake,
}


def may_see(name: str, state: Any, seat: int | None) -> set[str]:
    """The cards ``seat`` may see in ``state`` by the rules of game ``name`` (a lifecycle's
    state holds the game's own as ``inner``: nothing is seen before the deal)."""
    if isinstance(state, Table):
        if state.inner is None:
            return set()
        state = state.inner
    return MAY_SEE[name](state, seat)
