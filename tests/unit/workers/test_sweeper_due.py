"""The sweeper does the work that is due, not a scan: once it has seen the live games, a sweep
at a moment when none is due reads none of them (no metadata, no version), however many
there are; of the listing it reads only the ids of the games listed or moved since, and the
whole of it only every CARDROOM_SWEEP_REPAIR_SECONDS. A game that moves from waiting to playing
is looked at again at once."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

from tests.unit.workers.conftest import Stack
from workers import sweeper as sweeper_module

OPEN = {"type": "open"}


def _counting(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    store = stack.store
    for name in ("meta", "versions", "list_games", "fetch", "fetch_latest"):
        real = getattr(store, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            found = _real(*args, **kwargs)
            calls[_name] += len(found) if _name in ("versions", "list_games") else 1
            return found

        monkeypatch.setattr(store, name, counted)
    return calls


def _idle_games(stack: Stack, count: int) -> list[str]:
    """Games that wait for ever on people: half never filled, half dealt to silent people."""
    games = []
    for i in range(count):
        game_id = str(stack.service.create_game("sixty_six", [OPEN, OPEN])["id"])
        if i % 2:
            for seat in (0, 1):
                stack.service.join_seat(game_id, seat, f"p{seat}")
        games.append(game_id)
    return games


def test_a_sweep_with_nothing_due_reads_no_game_whatever_their_number(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [time.time()]
    stack.service._clock = lambda: now[0]
    monkeypatch.setattr(sweeper_module, "DISCOVERY_SLACK", 0.0)  # no listing made late here
    games = _idle_games(stack, 56)
    now[0] += 100
    games += _idle_games(stack, 4)  # the newest, long after the others
    sweeper = stack.sweeper(stall=3, clock=lambda: now[0])
    for _ in range(4):  # first sight, then the looks a stall apart: all settle to far deadlines
        sweeper.tick()
        now[0] += 3
    calls = _counting(stack, monkeypatch)
    sweeper.tick()
    assert calls["meta"] == calls["versions"] == calls["fetch"] == calls["fetch_latest"] == 0
    assert calls["list_games"] == 0  # only the ids of the games listed or moved since
    assert stack.service.summary(games[1])["status"] == "playing"  # idle, not yet moved on


def test_a_game_created_after_the_last_sweep_is_looked_at(stack: Stack) -> None:
    now = [time.time()]
    sweeper = stack.sweeper(stall=0, clock=lambda: now[0])
    _idle_games(stack, 30)
    sweeper.tick()
    game_id = str(stack.service.create_game("sixty_six", [OPEN, {"type": "bot", "bot": "random"}],
                                            )["id"])  # fmt: skip
    stack.queue("bots").empty()  # its bot's turn is lost
    stack.service.join_seat(game_id, 0, "ann")
    stack.queue("bots").empty()
    loaded = stack.service.load(game_id)
    bots_awaited = [s for s in loaded.game.awaited_seats(loaded.state) if s == 1]
    assert sweeper.tick() == 0  # first sight of the new game
    assert sweeper.tick() == len(bots_awaited)  # stalled on its bot: queued again


def test_a_waiting_game_that_starts_is_looked_at_again_at_once(stack: Stack) -> None:
    now = [time.time()]
    sweeper = stack.sweeper(stall=3, clock=lambda: now[0])
    game_id = str(stack.service.create_game("sixty_six", [OPEN, OPEN],
                                            options={"idle_seconds": 60})["id"])  # fmt: skip
    for _ in range(3):  # seen waiting: its next look is when it would expire, a day away
        sweeper.tick()
        now[0] += 3
    for seat in (0, 1):
        stack.service.join_seat(game_id, seat, f"p{seat}")  # it starts; nobody moves
    for _ in range(25):
        sweeper.tick()
        now[0] += 3
    assert "lifecycle.SeatIdled" in [e.event["type"] for e in stack.store.read(game_id)]
