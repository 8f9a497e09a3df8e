"""Inactivity (domain.idle): a seat the game awaited for its idle_seconds is moved on: a
person's as on_leave says, a bot's with the default move; only an awaited seat is ever idle."""

from __future__ import annotations

from typing import Any

import pytest

from domain.default_move import default_move, move_seed
from domain.errors import InvalidOptions, NotYourTurn
from domain.idle import DEFAULT_IDLE_SECONDS, SeatIdled
from domain.lifecycle import Keys, SeatLeft, lifecycle
from domain.protocol import fold
from domain.registry import get_game

SECRET = "11" * 32
ENTROPY = ["22" * 32, "33" * 32]
GAME = lifecycle(get_game("sixty_six"))
KEYS = Keys(secret=SECRET)


def _dealt(bots: tuple[int, ...] = (), **options: Any) -> Any:
    filled = [(s, ENTROPY[s]) for s in bots]
    state = fold(GAME, GAME.create(players=2, options=options, dealer=None, keys=KEYS, bots=bots,
                                   filled=filled))  # fmt: skip
    for seat in (0, 1):
        if seat not in bots:
            state = fold(GAME, GAME.join(state, seat, ENTROPY[seat], KEYS), state)
    return state


def _awaited(state: Any) -> int:
    return GAME.awaited_seats(state)[0]


def test_an_idle_person_s_seat_opens_and_the_game_waits_by_default() -> None:
    state = _dealt()
    seat = _awaited(state)
    events = GAME.idle(state, seat, KEYS, 4)
    assert events == [SeatIdled(seat=seat), SeatLeft(seat=seat, bot=None)]
    after = fold(GAME, events, state)
    assert after.vacant == (seat,) and GAME.awaited_seats(after) == ()
    assert GAME.view(after, 1 - seat)["last_action"]["text"] == f"seat {seat} was idle too long"


def test_an_idle_person_s_seat_goes_to_the_leave_bot_under_on_leave_bot() -> None:
    state = _dealt(on_leave="bot", leave_bot="random")
    seat = _awaited(state)
    events = GAME.idle(state, seat, KEYS, 4)
    assert events == [SeatIdled(seat=seat), SeatLeft(seat=seat, bot="random")]
    assert fold(GAME, events, state).taken_over == ((seat, "random"),)


def test_an_idle_bot_s_seat_gets_the_default_move() -> None:
    state = _dealt(bots=(0, 1))
    seat = _awaited(state)
    events = GAME.idle(state, seat, KEYS, 7)
    assert events[0] == SeatIdled(seat=seat)
    seed = move_seed(GAME.seed(state, KEYS), 7, seat)
    move = default_move(GAME.game, GAME.legal_actions(state, seat), seed)
    assert events[1:] == GAME.act(state, seat, move, KEYS)
    told = GAME.view(fold(GAME, events, state), None)["last_action"]["text"]
    assert told.startswith(f"seat {seat} was idle too long: the default move: ")


def test_only_a_seat_the_game_awaits_can_be_idle() -> None:
    state = _dealt()
    with pytest.raises(NotYourTurn):
        GAME.idle(state, 1 - _awaited(state), KEYS, 4)
    with pytest.raises(NotYourTurn):
        GAME.idle(fold(GAME, GAME.idle(state, _awaited(state), KEYS, 4), state), 0, KEYS, 6)


def test_idle_seconds_is_an_option_of_every_game_recorded_only_when_not_default() -> None:
    assert "idle_seconds" not in GAME.create(players=2, options={}, dealer=None,
                                             keys=KEYS)[0].options  # fmt: skip
    chosen = GAME.create(players=2, options={"idle_seconds": 60}, dealer=None, keys=KEYS)[0]
    assert chosen.options["idle_seconds"] == 60 and _dealt().table_option(
        "idle_seconds") == DEFAULT_IDLE_SECONDS  # fmt: skip
    with pytest.raises(InvalidOptions):
        GAME.create(players=2, options={"idle_seconds": 1}, dealer=None, keys=KEYS)
