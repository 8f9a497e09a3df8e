"""Leave with the real scheduler and sweeper (fakeredis): a bot takes a left seat over and
plays on; a game waiting on a seat left open expires once it has waited CARDROOM_WAITING_TTL."""

from __future__ import annotations

import time

import pytest

from replays import loads
from replays.verify import verify
from service.errors import SeatLeft
from tests.unit.workers.conftest import Stack

RANDOM = {"type": "bot", "bot": "random"}


def _seated(stack: Stack, **options: str) -> tuple[str, str]:
    game_id = stack.service.create_game("sixty_six", [{"type": "open"}, RANDOM], seed="leave",
                                        options=options)["id"]  # fmt: skip
    token = stack.service.join_seat(game_id, 0, "ann")["token"]
    stack.work()
    return str(game_id), str(token)


def _leave(stack: Stack, game_id: str) -> None:
    version = stack.service.load(game_id).version
    stack.service.submit_action(game_id, 0, {"type": "leave"}, version)


def test_a_named_bot_takes_over_a_left_seat_and_plays_to_the_end(stack: Stack) -> None:
    game_id, token = _seated(stack, on_leave="bot", leave_bot="heuristic")
    _leave(stack, game_id)
    seats = stack.service.summary(game_id)["seats"]
    assert seats[0] == {"seat": 0, "type": "bot", "name": "heuristic", "bot": "heuristic"}
    with pytest.raises(SeatLeft):
        stack.service.seat_for_token(game_id, token)
    stack.work()
    summary = stack.service.summary(game_id)
    assert summary["status"] == "over" and summary["outcome"]["reason"] == "finished"
    assert verify(loads(stack.store.replay(game_id) or "")).ok


def test_a_game_waiting_on_a_seat_left_open_expires_after_the_waiting_time(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_WAITING_TTL", "30")
    game_id, _ = _seated(stack)
    later = time.time() + 100  # the game is older than the waiting time: its wait counts
    _leave(stack, game_id)
    assert stack.service.summary(game_id)["status"] == "waiting"

    def sweep(at: float) -> str:
        stack.sweeper(stall=0, clock=lambda: at).tick()
        return str(stack.service.summary(game_id)["status"])

    assert sweep(later) == "waiting"  # first sight of the wait
    assert sweep(later + 29) == "waiting"
    assert sweep(later + 30) == "over"
    summary = stack.service.summary(game_id)
    assert summary["outcome"]["reason"] == "expired" and summary["outcome"]["open_seats"] == [0]
    stack.work()  # the replay export
    assert verify(loads(stack.store.replay(game_id) or "")).ok
