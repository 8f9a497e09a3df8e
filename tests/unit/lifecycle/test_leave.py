"""Leave: a person leaves a seat; before the deal it opens again, after it it opens (the game
waits) or the named bot takes it over, as the options say."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import IllegalAction, InvalidOptions, NotYourTurn
from domain.lifecycle import Keys, lifecycle
from domain.protocol import fold
from domain.registry import get_game

SECRET = "11" * 32
ENTROPY = ["22" * 32, "33" * 32, "44" * 32, "55" * 32]
GAME = lifecycle(get_game("sixty_six"))
KEYS = Keys(secret=SECRET)


def _dealt(**options: Any) -> Any:
    state = fold(GAME, GAME.create(players=2, options=options, dealer=None, keys=KEYS, bots=(),
                                   filled=[]))  # fmt: skip
    for seat in (0, 1):
        state = fold(GAME, GAME.join(state, seat, ENTROPY[seat], KEYS), state)
    return state


def _act(state: Any, seat: int, action: dict[str, Any]) -> tuple[Any, list[Any]]:
    events = GAME.act(state, seat, action, KEYS)
    return fold(GAME, events, state), events


def test_before_the_deal_a_leave_opens_the_seat_and_withdraws_its_entropy() -> None:
    state = fold(GAME, GAME.create(players=2, options={}, dealer=None, keys=KEYS, bots=()))
    state = fold(GAME, GAME.join(state, 0, ENTROPY[0], KEYS), state)
    state, events = _act(state, 0, {"type": "leave"})
    assert [type(e).__name__ for e in events] == ["SeatLeft"]
    assert state.open_seats == (0, 1) and GAME.outcome(state) is None
    state = fold(GAME, GAME.join(state, 0, ENTROPY[2], KEYS), state)
    state = fold(GAME, GAME.join(state, 1, ENTROPY[1], KEYS), state)
    assert state.dealt and state.entropy == (ENTROPY[2], ENTROPY[1])


def test_after_the_deal_an_open_seat_pauses_the_game_until_someone_takes_it() -> None:
    state, _ = _act(_dealt(), 1, {"type": "leave"})
    assert GAME.view(state, 0)["open_seats"] == [1]
    assert GAME.awaited_seats(state) == () and GAME.legal_actions(state, 0) == []
    with pytest.raises(NotYourTurn) as waiting:
        GAME.act(state, 0, {"type": "declare_out"}, KEYS)
    assert waiting.value.reason == "seat_open"
    with pytest.raises(IllegalAction) as nobody:
        GAME.act(state, 1, {"type": "leave"}, KEYS)
    assert nobody.value.reason == "leave_not_a_person"
    retaken = GAME.join(state, 1, ENTROPY[3], KEYS)
    assert [type(e).__name__ for e in retaken] == ["SeatRetaken"]
    state = fold(GAME, retaken, state)
    assert GAME.awaited_seats(state) != () and GAME.view(state, 1)["may_send"][-1] == "leave"


def test_after_the_deal_a_named_bot_takes_the_seat_over() -> None:
    state, events = _act(_dealt(on_leave="bot", leave_bot="random"), 0, {"type": "leave"})
    assert events[0].bot == "random"
    assert GAME.awaited_seats(state) != () and state.people == (1,)
    assert GAME.view(state, 0)["may_send"] == ["resign"]  # a bot's seat neither aborts nor leaves
    _, aborted = _act(state, 1, {"type": "abort"})
    assert type(aborted[-2]).__name__ == "GameAborted"  # the only person left agrees alone


def test_a_leave_completes_an_abort_the_others_agreed_to() -> None:
    state, _ = _act(_dealt(), 0, {"type": "abort"})
    _, events = _act(state, 1, {"type": "leave"})
    assert [type(e).__name__ for e in events] == ["SeatLeft", "GameAborted", "SecretRevealed"]


def test_a_game_waiting_on_a_left_seat_can_expire() -> None:
    state, _ = _act(_dealt(), 1, {"type": "leave"})
    over = fold(GAME, GAME.expire(state, KEYS), state)
    assert GAME.outcome(over)["reason"] == "expired"
    assert GAME.outcome(over)["open_seats"] == [1]
    with pytest.raises(IllegalAction):
        GAME.expire(_dealt(), KEYS)  # nobody left: a full game never expires


def test_leave_options_are_recorded_only_when_not_default_and_checked() -> None:
    created = GAME.create(players=2, options={}, dealer=None, keys=KEYS)[0]
    assert "on_leave" not in created.options
    chosen = GAME.create(players=2, options={"on_leave": "bot"}, dealer=None, keys=KEYS)[0]
    assert chosen.options["on_leave"] == "bot"
    with pytest.raises(InvalidOptions):
        GAME.create(players=2, options={"leave_bot": "heuristc"}, dealer=None, keys=KEYS)
