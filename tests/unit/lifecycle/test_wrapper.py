"""``Lifecycle(game)``: what the wrapper takes over from the game it wraps. The service's
wrappers are built once, at import (``lifecycle()`` keeps one per game), so these build their
own: a game with narration (Sixty-Six) and one without (the test game)."""

from __future__ import annotations

import pytest

from domain import clock
from domain.errors import InvalidSetup
from domain.events import Encoded
from domain.forks import PositionDealt, position
from domain.lifecycle import _WRAPPED as wrappers
from domain.lifecycle import TABLE_OPTIONS, Keys, Lifecycle, SeatResigned, lifecycle
from domain.protocol import Setup, fold
from domain.registry import get_game
from tests.support.fakegame import FAKE, CardsDealt

KEYS = Keys(secret="11" * 32)


def test_the_wrapper_names_the_game_and_takes_its_options_then_the_clock_and_table_ones() -> None:
    game = get_game("sixty_six")
    wrapped = Lifecycle(game)
    assert wrapped.game is game
    assert (wrapped.name, wrapped.title) == ("sixty_six", game.title)
    assert (wrapped.min_players, wrapped.max_players) == (2, 2)
    assert wrapped.options == (*game.options, *clock.OPTIONS, *TABLE_OPTIONS)


def test_the_wrapper_encodes_and_decodes_lifecycle_and_game_events() -> None:
    wrapped = Lifecycle(FAKE)
    for event in (SeatResigned(seat=1), CardsDealt(hands=(("9S",), ("TS",)))):
        data: Encoded = wrapped.codec.encode(event)
        assert wrapped.codec.decode(data) == event


def test_a_game_with_narration_tells_its_last_action_and_one_without_tells_none() -> None:
    for game, told in ((get_game("sixty_six"), True), (FAKE, False)):
        wrapped = Lifecycle(game)
        state = fold(wrapped, wrapped.create(players=2, options={}, dealer=0, keys=KEYS))
        for seat in (0, 1):
            state = fold(wrapped, wrapped.join(state, seat, f"{seat + 2}" * 64, KEYS), state)
        seat = wrapped.seats_to_act(state)[0]
        action = wrapped.legal_actions(state, seat)[0]
        state = fold(wrapped, wrapped.act(state, seat, action, KEYS), state)
        last = wrapped.last_action(state, seat)
        assert (last is not None) is told, (game.name, last)
        if told:
            assert last is not None and last["seat"] == seat and last["text"]


def test_lifecycle_keeps_one_wrapper_per_game_and_a_new_one_for_new_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("shithead")
    wrapped = lifecycle(game)
    monkeypatch.setitem(wrappers, "shithead", wrapped)  # the same one again after the test
    assert lifecycle(game) is wrapped and lifecycle(wrapped) is wrapped
    assert wrapped.game is game and wrapped.name == "shithead"
    other = type(game)()
    assert lifecycle(other).game is other
    assert lifecycle(game).game is game  # the rules object asked for, again


def test_a_lifecycle_game_is_started_by_create_not_by_start() -> None:
    with pytest.raises(InvalidSetup) as refused:
        Lifecycle(FAKE).start(Setup(players=2, seed="s"))
    assert refused.value.message == "a game with a lifecycle is created with create(), not start()"


def test_evolve_all_folds_as_evolve_does_with_and_without_narration() -> None:
    for game in (get_game("sixty_six"), FAKE):
        wrapped = Lifecycle(game)
        events = wrapped.create(players=2, options={}, dealer=0, keys=KEYS,
                                filled=[(0, "22" * 32), (1, "33" * 32)])  # fmt: skip
        one_by_one = wrapped.initial_state()
        for event in events:
            one_by_one = wrapped.evolve(one_by_one, event)
        assert wrapped.evolve_all(wrapped.initial_state(), events) == one_by_one


def test_a_forks_position_is_redacted_to_each_seats_view_of_it() -> None:
    rules = lifecycle(get_game("sixty_six"))
    events = rules.create(players=2, options={}, dealer=0, keys=KEYS,
                          filled=[(0, "22" * 32), (1, "33" * 32)])  # fmt: skip
    inner = fold(rules, events).inner
    dealt = PositionDealt(position=position(inner))
    seen = [rules.redact(dealt, seat) for seat in (0, 1)]
    for seat, data in enumerate(seen):
        assert data == {"type": PositionDealt.TYPE, "schema": PositionDealt.SCHEMA,
                        "view": rules.game.view(inner, seat)}  # fmt: skip
    assert seen[0] != seen[1]
