"""The creation batch (``Lifecycle.create``): what GameCreated records (the game, its options
with their defaults, who is prearranged and salted), the seats filled at creation, and the
refusals of a bad secret or entropy, word for word."""

from __future__ import annotations

import pytest

from domain.errors import InvalidSetup
from domain.forks import basis_at, open_fork, position_of, seat_fork
from domain.lifecycle import (
    GameCreated,
    Keys,
    Lifecycle,
    SeatAlreadyFilled,
    SeatFilled,
    lifecycle,
)
from domain.protocol import fold
from domain.registry import get_game
from tests.support.fakegame import FAKE

GAME = Lifecycle(FAKE)
SECRET = "4d" * 32
ENTROPY = ("01" * 32, "02" * 32)


def _created(keys: Keys, **more: object) -> GameCreated:
    first = GAME.create(players=2, options={}, dealer=0, keys=keys, **more)[0]  # type: ignore[arg-type]
    assert isinstance(first, GameCreated)
    return first


def test_game_created_names_the_game_and_records_its_options_with_their_defaults() -> None:
    created = _created(Keys(secret=SECRET))
    assert created.game == "fake"
    assert created.options == {"hand_size": 3, "action_limit": 1000}


def test_only_a_prearranged_game_has_a_salted_deck_and_only_when_asked() -> None:
    chosen = Keys(secret=SECRET, seed="chosen")
    assert _created(chosen, salted_deck=True).salted_deck is True
    assert _created(chosen).salted_deck is False
    assert _created(Keys(secret=SECRET), salted_deck=True).salted_deck is False


def test_an_open_fork_is_prearranged() -> None:
    rules = lifecycle(get_game("sixty_six"))
    keys = Keys(secret=SECRET)
    dealt = rules.create(players=2, options={}, dealer=0, keys=keys,
                         filled=[(0, ENTROPY[0]), (1, ENTROPY[1])])  # fmt: skip
    origin = open_fork("g-source", 3, fold(rules, dealt).inner)
    forked = rules.create(players=2, options={}, dealer=0, keys=keys, fork=origin)[0]
    assert isinstance(forked, GameCreated) and forked.prearranged is True
    assert _created(Keys(secret=SECRET)).prearranged is False


def test_the_seats_filled_at_creation_are_the_servers_entropy() -> None:
    events = GAME.create(players=2, options={}, dealer=0, keys=Keys(secret=SECRET),
                         filled=[(1, ENTROPY[1])], bots=(1,))  # fmt: skip
    assert events[1:] == [SeatFilled(seat=1, entropy=ENTROPY[1], source="server")]


def test_a_bad_secret_or_entropy_is_refused_naming_it() -> None:
    with pytest.raises(InvalidSetup) as secret:
        _created(Keys(secret="nothex"))
    assert secret.value.message == (
        "the server's secret must be 64 lowercase hex digits (32 bytes), got 'nothex'")
    state = fold(GAME, GAME.create(players=2, options={}, dealer=0, keys=Keys(secret=SECRET)))
    with pytest.raises(InvalidSetup) as entropy:
        GAME.join(state, 0, "AB" * 32, Keys(secret=SECRET))
    assert entropy.value.message == (
        f"entropy must be 64 lowercase hex digits (32 bytes), got {'AB' * 32!r}")


def test_a_fork_as_a_seat_is_dealt_a_world_from_that_seats_basis_and_the_forks_seed() -> None:
    rules = lifecycle(get_game("sixty_six"))
    keys = Keys(secret=SECRET)
    events = rules.create(players=2, options={}, dealer=0, keys=keys,
                          filled=[(0, ENTROPY[0]), (1, ENTROPY[1])])  # fmt: skip
    source = fold(rules, events)
    [seat] = rules.awaited_seats(source)
    basis = basis_at(rules, source, events, seat)
    origin = seat_fork("g-source", len(events), seat, basis, source.inner)
    created = rules.create(players=2, options={}, dealer=0, keys=keys, fork=origin)
    assert [type(e).__name__ for e in created] == ["GameCreated", "GameForked"]
    state = fold(rules, created)
    state = fold(rules, rules.join(state, 0, ENTROPY[0], keys), state)
    dealt = rules.join(state, 1, ENTROPY[1], keys)[1:]
    after = rules.evolve(state, SeatFilled(seat=1, entropy=ENTROPY[1], source="client"))
    assert dealt == [position_of("sixty_six", origin, rules.seed(after, keys))]


def test_a_seat_already_filled_or_an_unknown_entropy_source_is_refused_saying_so() -> None:
    state = fold(GAME, GAME.create(players=2, options={}, dealer=0, keys=Keys(secret=SECRET),
                                   filled=[(1, ENTROPY[1])], bots=(1,)))  # fmt: skip
    with pytest.raises(SeatAlreadyFilled) as taken:
        GAME.join(state, 1, ENTROPY[0], Keys(secret=SECRET))
    assert taken.value.message == "seat 1 is already filled"
    with pytest.raises(InvalidSetup) as source:
        GAME.join(state, 0, ENTROPY[0], Keys(secret=SECRET), source="bot")
    assert source.value.message == "entropy source must be one of client, server"
