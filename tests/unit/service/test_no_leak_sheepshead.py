"""Sheepshead's zones in the no-leak witness (R10) are read from the rules, not from the game's
``view``: a view that shows the blind, the buried cards or another seat's hand to a seat the
rules keep them from is caught; the game's real view, at the same moments, is not."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.sheepshead.game import Sheepshead
from domain.lifecycle import lifecycle
from service.store import InMemoryEventStore
from tests.support.api import Table, make_app
from tests.unit.service.test_api_no_leak import Witness

PLAYERS = 5


class Leaky(Sheepshead):
    """The real game whose view adds ``leak(hand, seat)``'s cards for every seat."""

    def __init__(self, leak: Any) -> None:
        self.leak = leak

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        shown = super().view(state, seat)
        hand = state.hand
        return shown if hand is None else {**shown, "leak": list(self.leak(hand, seat))}


LEAKS = {
    "blind": lambda hand, seat: hand.blind,
    "buried": lambda hand, seat: hand.buried,
    "next_hand": lambda hand, seat: hand.hands[((seat or 0) + 1) % PLAYERS],
}


def _play(game: Sheepshead, until: str) -> tuple[Table, Witness]:
    """A table of ``game`` played (picking whenever possible) until the hand reaches a phase."""
    store = InMemoryEventStore()
    client = make_app(store).test_client()
    client.application.extensions["cardroom"].rulebook.games = {"sheepshead": game}
    table = Table(client, game="sheepshead", players=PLAYERS, seed="zones")
    witness = Witness(store, table.id, PLAYERS)
    witness.rules = lifecycle(game)
    rnd = random.Random(3)
    while True:
        witness.catch_up()
        if witness.state.inner.hand.phase == until:
            break
        move = table.random_move(rnd, prefer=("pick", "bury"))
        assert move is not None
        seat, action, version = move
        assert table.act(seat, action, version=version).status_code == 200
    return table, witness


def _leaks(table: Table, witness: Witness, seat: int) -> bool:
    try:
        witness.check(seat, table.view(seat), "a view")
    except AssertionError:
        return True
    return False


@pytest.mark.parametrize("leak", ["blind", "next_hand"])
def test_before_the_pick_the_blind_and_other_hands_are_nobody_s(leak: str) -> None:
    table, witness = _play(Leaky(LEAKS[leak]), "picking")
    assert all(_leaks(table, witness, seat) for seat in range(PLAYERS))


def test_after_the_pick_only_the_picker_has_seen_the_blind() -> None:
    table, witness = _play(Leaky(LEAKS["blind"]), "burying")
    picker = witness.state.inner.hand.picker
    assert [_leaks(table, witness, s) for s in range(PLAYERS)] == [s != picker
                                                                   for s in range(PLAYERS)]


def test_after_the_burial_only_the_picker_has_seen_the_buried_cards() -> None:
    table, witness = _play(Leaky(LEAKS["buried"]), "playing")
    hand = witness.state.inner.hand
    assert hand.buried, "the picker buried two cards"
    assert [_leaks(table, witness, s) for s in range(PLAYERS)] == [s != hand.picker
                                                                   for s in range(PLAYERS)]


@pytest.mark.parametrize("phase", ["picking", "burying", "playing"])
def test_the_real_view_shows_no_seat_more_than_the_rules_let_it_see(phase: str) -> None:
    table, witness = _play(Sheepshead(), phase)
    assert not any(_leaks(table, witness, s) for s in range(PLAYERS))
