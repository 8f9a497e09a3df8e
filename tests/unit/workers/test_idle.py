"""No game hangs without a clock (fakeredis, the real scheduler and sweeper): a game being
played whose version has not moved for its idle_seconds moves on: a person's seat as on_leave
says, a bot's with the default move; recorded as events the replay audit re-runs."""

from __future__ import annotations

import time
from typing import Any

import pytest

from replays import loads
from replays.verify import verify
from service.bots import BotDirectory, MemoryBotRegistry
from tests.unit.workers.conftest import Stack
from workers import runner
from workers.sweeper import entropy_seconds

RANDOM = {"type": "bot", "bot": "random"}


def _create(stack: Stack, seats: list[dict[str, Any]], work: bool = True, **options: Any) -> str:
    created = stack.service.create_game("sixty_six", seats, seed="idle", options=options,
                                        wait_for_bots=True)  # fmt: skip
    game_id = str(created["id"])
    for seat, kind in enumerate(seats):
        if kind["type"] == "open":
            stack.service.join_seat(game_id, seat, f"p{seat}")
    if work:
        stack.work()
    return game_id


def _sweep(stack: Stack, at: float) -> None:
    stack.sweeper(stall=3600, clock=lambda: at).tick()


def _types(stack: Stack, game_id: str, after: int) -> list[str]:
    return [str(e.event["type"]) for e in stack.store.read(game_id, after)]


def _verified(stack: Stack, game_id: str) -> bool:
    stack.work()  # the replay export
    return verify(loads(stack.store.replay(game_id) or "")).ok


def test_a_person_who_never_acts_is_taken_over_by_the_leave_bot(stack: Stack) -> None:
    game_id = _create(stack, [{"type": "open"}, RANDOM], idle_seconds=60, on_leave="bot")
    version, now = stack.service.load(game_id).version, time.time()
    _sweep(stack, now)  # first sight of this version
    _sweep(stack, now + 59)
    assert stack.service.load(game_id).version == version  # not idle long enough yet
    _sweep(stack, now + 60)
    assert _types(stack, game_id, version)[:2] == ["lifecycle.SeatIdled", "lifecycle.SeatLeft"]
    assert stack.service.summary(game_id)["seats"][0]["bot"] == "heuristic"
    stack.work()  # the bot that took the seat over plays the game out
    assert stack.service.summary(game_id)["status"] == "over"
    assert _verified(stack, game_id)


def test_a_person_who_never_acts_leaves_the_seat_open_then_the_game_expires(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_WAITING_TTL", "30")
    game_id = _create(stack, [{"type": "open"}, RANDOM], idle_seconds=60)
    now = time.time() + 100  # the game is older than its waiting time
    _sweep(stack, now)
    _sweep(stack, now + 60)
    summary = stack.service.summary(game_id)
    assert summary["status"] == "waiting" and summary["seats"][0]["type"] == "open"
    _sweep(stack, now + 61)  # first sight of the wait
    _sweep(stack, now + 91)
    summary = stack.service.summary(game_id)
    assert summary["status"] == "over" and summary["outcome"]["reason"] == "expired"
    assert _verified(stack, game_id)


def test_a_bot_that_never_answers_gets_the_default_move(stack: Stack) -> None:
    game_id = _create(stack, [RANDOM, RANDOM], work=False, idle_seconds=60)
    stack.queue("bots").empty()  # the bots' turns are never played (no worker serves them)
    loaded = stack.service.load(game_id)
    awaited = loaded.game.awaited_seats(loaded.state)
    now = time.time()
    _sweep(stack, now)
    _sweep(stack, now + 60)
    types = _types(stack, game_id, loaded.version)
    assert types[0] == "lifecycle.SeatIdled" and types[1].startswith("sixty_six.")
    batch = stack.store.batches(game_id)[-1]
    assert batch.command == {"kind": "idle", "seat": awaited[0], "rule": 1}
    stack.work()
    assert stack.service.summary(game_id)["status"] == "over"
    assert _verified(stack, game_id)


def test_a_game_that_moves_is_never_idle(stack: Stack) -> None:
    game_id = _create(stack, [{"type": "open"}, RANDOM], idle_seconds=60)
    now = time.time()
    _sweep(stack, now)
    loaded = stack.service.load(game_id)
    seat = loaded.game.awaited_seats(loaded.state)[0]
    move = loaded.game.legal_actions(loaded.state, seat)[0]
    stack.service.submit_action(game_id, seat, move, loaded.version)
    stack.work()
    version = stack.service.load(game_id).version
    _sweep(stack, now + 60)  # the version moved: a new wait starts
    assert stack.service.load(game_id).version == version
    assert "lifecycle.SeatIdled" not in _types(stack, game_id, 0)


def test_a_user_bot_that_is_gone_is_taken_over_by_the_leave_bot(stack: Stack) -> None:
    registry = MemoryBotRegistry()
    stack.rebuild_service(bots=BotDirectory(registry))
    registry.heartbeat("lowball", [], time.time() - 3600)  # its worker died long ago
    game_id = _create(stack, [{"type": "bot", "bot": "lowball"}, RANDOM], work=False,
                      idle_seconds=60, leave_bot="random")  # fmt: skip
    stack.work()  # the random bot plays until the game waits on lowball
    loaded = stack.service.load(game_id)
    lowball = loaded.game.awaited_seats(loaded.state)
    assert lowball == (0,)
    now = time.time()
    _sweep(stack, now)
    _sweep(stack, now + 60)
    assert _types(stack, game_id, loaded.version) == ["lifecycle.SeatIdled", "lifecycle.SeatLeft"]
    assert stack.store.batches(game_id)[-1].command["gone"] is True
    assert stack.service.summary(game_id)["seats"][0]["bot"] == "random"
    stack.work()  # the built-in bot plays the seat on
    assert stack.service.summary(game_id)["status"] == "over"
    assert _verified(stack, game_id)



def _silent_bot(stack: Stack) -> dict[str, str]:
    """An HTTP bot account whose client connected once, long ago, and never sends entropy."""
    registry = MemoryBotRegistry()
    stack.rebuild_service(bots=BotDirectory(registry))
    registry.create_account("silent", "ab" * 32)
    registry.heartbeat("silent", [], time.time() - 3600)
    return {"type": "bot", "bot": "silent"}


def test_an_http_bot_that_never_sends_its_entropy_does_not_hold_the_deal(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After idle_seconds (shorter than CARDROOM_ENTROPY_SECONDS here) its seat gets the
    fallback fixed at creation (recorded as the server's), the game deals, and the gone bot's
    seat is then taken over as before."""
    monkeypatch.setenv("CARDROOM_ENTROPY_SECONDS", "600")  # never longer than idle_seconds
    game_id = _create(stack, [_silent_bot(stack), RANDOM], idle_seconds=60, leave_bot="random")
    loaded = stack.service.load(game_id)
    assert loaded.state.awaiting_entropy == (0,) and not loaded.state.dealt
    fallback = loaded.state.fallback_entropy(0)
    now = time.time()
    _sweep(stack, now)  # first sight of this version
    _sweep(stack, now + 59)
    assert stack.service.load(game_id).version == loaded.version  # not idle long enough yet
    _sweep(stack, now + 60)
    events = [e.event for e in stack.store.read(game_id, loaded.version)]
    assert events[0]["type"] == "lifecycle.SeatIdled" and events[0]["seat"] == 0
    assert {"seat": 0, "entropy": fallback, "source": "server"}.items() <= events[1].items()
    assert stack.store.batches(game_id)[-1].command["kind"] == "idle"
    assert stack.service.load(game_id).state.dealt, "the deal no longer waits"
    stack.work()  # the random bot plays until the game waits on the silent one
    later = time.time() + 300
    for step in range(40):  # each of the silent bot's turns: idle, then taken over
        if stack.service.summary(game_id)["status"] == "over":
            break
        _sweep(stack, later + 61 * step)
        stack.work()
    assert stack.service.summary(game_id)["status"] == "over"
    assert _verified(stack, game_id)


def test_the_deal_waits_for_a_bot_s_entropy_its_own_short_time_not_idle_seconds(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's idle_seconds is an hour (the default): the silent bot's seat gets its
    fallback CARDROOM_ENTROPY_SECONDS (30 s by default) after the game last moved, not before,
    and the sweeper looks at the game then."""
    monkeypatch.delenv("CARDROOM_ENTROPY_SECONDS", raising=False)
    game_id = _create(stack, [_silent_bot(stack), RANDOM])
    loaded = stack.service.load(game_id)
    assert loaded.state.awaiting_entropy == (0,) and not loaded.state.dealt
    fallback = loaded.state.fallback_entropy(0)
    now = float(int(time.time()))  # whole seconds: now + 30 - now is 30
    _sweep(stack, now)  # first sight of this version: due again at the entropy deadline
    due = stack.scheduler.connection.zscore(stack.sweeper()._due_key,
                                            game_id)  # fmt: skip
    assert due is not None and due <= now + 30
    _sweep(stack, now + 3)  # stalled: due at the entropy deadline
    assert stack.scheduler.connection.zscore(stack.sweeper()._due_key,
                                             game_id) == now + 30  # fmt: skip
    _sweep(stack, now + 29.9)
    assert stack.service.load(game_id).version == loaded.version  # not overdue yet
    _sweep(stack, now + 30)
    events = [e.event for e in stack.store.read(game_id, loaded.version)]
    assert events[0]["type"] == "lifecycle.SeatIdled" and events[0]["seat"] == 0
    assert {"seat": 0, "entropy": fallback, "source": "server"}.items() <= events[1].items()
    assert stack.service.load(game_id).state.dealt
    assert stack.service.summary(game_id)["status"] == "playing"


def test_the_entropy_wait_is_a_setting(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_ENTROPY_SECONDS", "5")
    game_id = _create(stack, [_silent_bot(stack), RANDOM], idle_seconds=60)
    version, now = stack.service.load(game_id).version, float(int(time.time()))
    _sweep(stack, now)
    _sweep(stack, now + 4.9)
    assert stack.service.load(game_id).version == version
    _sweep(stack, now + 5)
    assert stack.service.load(game_id).state.dealt


@pytest.mark.parametrize("raw", ["0", "-3", "soon", "nan", "inf"])
def test_a_bad_entropy_wait_is_refused(raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_ENTROPY_SECONDS", raw)
    with pytest.raises(ValueError, match="CARDROOM_ENTROPY_SECONDS"):
        entropy_seconds()

    def connect(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the worker connected to Redis")

    monkeypatch.setattr(runner.redis.Redis, "from_url", connect)
    assert runner.run_worker(sweep=True) == 2  # before it connects or starts a thread


def test_a_waiting_game_is_looked_at_when_a_bot_s_entropy_is_overdue(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person has not sat yet: the game waits for them (a day, then expires), but the silent
    bot's seat is filled with its fallback after the entropy wait (30 s), not then."""
    monkeypatch.delenv("CARDROOM_ENTROPY_SECONDS", raising=False)
    silent = _silent_bot(stack)
    created = stack.service.create_game("sixty_six", [{"type": "open"}, silent],
                                        options={"idle_seconds": 60}, wait_for_bots=True)
    game_id = str(created["id"])
    assert created["status"] == "waiting"
    version, now = stack.service.load(game_id).version, float(int(time.time()))
    _sweep(stack, now)  # first sight: due again at the entropy deadline, not in a day
    due = stack.scheduler.connection.zscore(stack.sweeper()._due_key,
                                            game_id)  # fmt: skip
    assert due == now + 30
    _sweep(stack, now + 29.9)
    assert stack.service.load(game_id).version == version
    _sweep(stack, now + 30)
    state = stack.service.load(game_id).state
    assert state.awaiting_entropy == () and state.entropy[1] is not None
    assert stack.service.summary(game_id)["status"] == "waiting"  # for the person, as before
    stack.service.join_seat(game_id, 0, "late")  # the person who comes deals
    assert stack.service.load(game_id).state.dealt
