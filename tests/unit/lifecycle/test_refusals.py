"""The lifecycle's commands outside their moment: each refusal and its words (what a client or
an operator reads), and the facts a table shows while a seat is open or before the deal."""

from __future__ import annotations

from typing import Any

import pytest

from domain import clock
from domain.errors import DomainError, GameOver, IllegalAction, InvalidAction, InvalidSetup
from domain.forks import open_fork
from domain.lifecycle import Keys, lifecycle
from domain.protocol import fold
from domain.registry import get_game

KEYS = Keys(secret="5e" * 32)
GAME = lifecycle(get_game("sixty_six"))
ENTROPY = ("01" * 32, "02" * 32)


def _waiting() -> Any:
    return fold(GAME, GAME.create(players=2, options={}, dealer=0, keys=KEYS, bots=()))


def _with_bot(**options: Any) -> Any:
    """Seat 0 a person's (joined), seat 1 a bot's; dealt, the clock started at 0 if any."""
    created = GAME.create(players=2, options=options, dealer=0, keys=KEYS, bots=(1,),
                          filled=[(1, ENTROPY[1])], at=0)  # fmt: skip
    state = fold(GAME, created)
    return fold(GAME, GAME.join(state, 0, ENTROPY[0], KEYS, at=0), state)


def _over() -> Any:
    state = _with_bot()
    return fold(GAME, GAME.act(state, 0, {"type": "resign"}, KEYS), state)


def _said(error: pytest.ExceptionInfo[DomainError]) -> str:
    return error.value.message


def test_a_timeout_before_the_deal_or_after_the_end_is_refused_saying_no_clock_runs() -> None:
    for state in (_waiting(), _over()):
        with pytest.raises(GameOver) as refused:
            GAME.timeout(state, 0, 99_000, KEYS, 3)
        assert _said(refused) == "the game is over: no clock runs"


def test_only_a_game_waiting_for_players_expires_and_a_game_over_is_not_stopped() -> None:
    for state in (_with_bot(), _over()):
        with pytest.raises(IllegalAction) as refused:
            GAME.expire(state, KEYS)
        assert _said(refused) == "only a game still waiting for players can expire"
    with pytest.raises(GameOver) as stopped:
        GAME.stop(_over(), KEYS, "maintenance")
    assert _said(stopped) == "the game is over: nothing to stop"


def test_a_fallback_names_the_seat_it_refuses_and_needs_the_games_version() -> None:
    state = _with_bot()
    assert GAME.awaited_seats(state) == (1,)  # the bot leads
    fallback = {"type": "fallback", "reason": "raised"}
    with pytest.raises(IllegalAction) as person:
        GAME.act(state, 0, fallback, KEYS, version=3)
    assert _said(person) == "seat 0 is not a bot's: only a bot falls back"
    with pytest.raises(InvalidAction) as unversioned:
        GAME.act(state, 1, fallback, KEYS)
    assert _said(unversioned) == "a fallback is made at a known version (the service's)"
    state = fold(GAME, GAME.act(state, 1, GAME.legal_actions(state, 1)[0], KEYS), state)
    assert GAME.awaited_seats(state) == (0,)
    with pytest.raises(DomainError) as early:
        GAME.act(state, 1, fallback, KEYS, version=4)
    assert _said(early) == "the game does not wait on seat 1: nothing to fall back on"


def test_a_fallback_on_a_clocked_game_stamps_its_clock_at_the_fallbacks_time() -> None:
    state = _with_bot(turn_seconds=30)
    assert GAME.awaited_seats(state) == (1,)
    events = GAME.act(state, 1, {"type": "fallback", "reason": "timeout"}, KEYS, at=7_000,
                      version=5)  # fmt: skip
    assert type(events[0]).__name__ == "BotFellBack"
    assert isinstance(events[-1], clock.ClockSet) and events[-1].at == 7_000


def test_a_seat_left_open_after_the_deal_has_nothing_to_play_and_nobody_is_to_act() -> None:
    state = _with_bot()
    state = fold(GAME, GAME.act(state, 0, {"type": "leave"}, KEYS), state)
    assert state.vacant and state.inner is not None and GAME.outcome(state) is None
    assert GAME.seats_to_act(state) == () and GAME.legal_actions(state, 1) == []
    assert GAME.awaited_seats(state) == ()


def test_may_send_lists_a_seats_lifecycle_actions_and_nothing_once_over() -> None:
    state = _with_bot()
    assert GAME.may_send(state, 0) == ["resign", "abort", "leave"]
    assert GAME.may_send(state, 1) == ["resign"]  # the bot's seat
    assert GAME.may_send(state, None) == []
    assert GAME.may_send(_over(), 0) == []


def test_the_reveal_before_the_deal_is_the_waiting_table_with_its_facts() -> None:
    table = GAME.reveal(_waiting())
    assert table["may_send"] == [] and table["open_seats"] == [0, 1]
    assert table["commitment"] == _waiting().created.commitment
    dealt = GAME.reveal(_with_bot())
    assert dealt["may_send"] == [] and dealt["open_seats"] == []


def test_a_join_names_the_seats_there_are_for_a_seat_that_is_not_one() -> None:
    state = _waiting()
    for seat in (2, -1, "0", True, None):
        with pytest.raises(InvalidSetup) as refused:
            GAME.join(state, seat, ENTROPY[0], KEYS)  # type: ignore[arg-type]
        assert _said(refused) == f"seat must be from 0 to 1, got {seat!r}"


def test_a_clocked_fork_starts_its_clock_when_its_last_seat_is_filled() -> None:
    source = _with_bot()
    origin = open_fork("g-source", 4, source.inner)
    created = GAME.create(players=2, options={"turn_seconds": 30}, dealer=None, keys=KEYS,
                          fork=origin, at=0)  # fmt: skip
    state = fold(GAME, created)
    state = fold(GAME, GAME.join(state, 0, ENTROPY[0], KEYS, at=2_000), state)
    events = GAME.join(state, 1, ENTROPY[1], KEYS, at=5_000)
    assert [type(e).__name__ for e in events] == ["SeatFilled", "PositionDealt", "ClockSet"]
    assert events[-1] == clock.ClockSet(at=5_000, deadlines=(None, 35_000), banks=(0, 0))
