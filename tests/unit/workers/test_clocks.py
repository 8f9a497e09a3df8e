"""Clock enforcement on RQ and by the sweeper (docs/service.md, "Clocks"): a clocked seat's time
gets a scheduled job; the job or the sweeper records the timeout once, never early, never after
the game moved on; the clock index never lets a clock lapse unenforced."""

from __future__ import annotations

from typing import Any

import pytest
from rq.registry import ScheduledJobRegistry

from tests.support.wall import Wall
from tests.unit.workers.conftest import NAMESPACE, Stack
from workers import clocks
from workers.scheduler import CLOCK_LEAD, clock_job_id

START = 1_700_000_000.25


@pytest.fixture
def wall(stack: Stack) -> Wall:
    clock = Wall(START)
    stack.service._clock = clock
    stack.scheduler.clock = clock
    return clock


def clocked(stack: Stack, **options: Any) -> str:
    seats = [{"type": "open"}, {"type": "open"}]
    options = {"turn_seconds": 5, **options}
    game_id = str(stack.service.create_game("sixty_six", seats, options=options)["id"])
    for seat in (0, 1):
        stack.service.join_seat(game_id, seat, f"p{seat}")
    return game_id


def timeouts(stack: Stack, game_id: str) -> list[dict[str, Any]]:
    return [s.event for s in stack.store.read(game_id) if s.event["type"] == "lifecycle.TimedOut"]


def test_a_clocked_seat_gets_a_job_scheduled_at_its_time(stack: Stack, wall: Wall) -> None:
    game_id = clocked(stack)
    version = stack.service.load(game_id).version
    registry = ScheduledJobRegistry(queue=stack.queue("clocks"))
    job_id = clock_job_id(NAMESPACE, game_id, version)
    assert registry.get_job_ids() == [job_id]
    when = registry.get_scheduled_time(job_id).timestamp()
    assert when == int(START + 5) - CLOCK_LEAD  # ahead of the time: the job sets a timer
    assert stack.store.clocks_due(int((START + 5) * 1000)) == [(game_id, int((START + 5) * 1000))]


def test_the_job_records_the_timeout_once_and_not_after_the_game_moved_on(
    stack: Stack, wall: Wall
) -> None:
    game_id = clocked(stack)
    version = stack.service.load(game_id).version
    wall.now += 5
    assert clocks.enforce_clock(game_id, version).startswith("timed out")
    assert clocks.enforce_clock(game_id, version).startswith("moved on")
    assert len(timeouts(stack, game_id)) == 1
    assert stack.service.load(game_id).version > version + 1  # the default move followed


def test_a_job_started_before_the_time_hands_it_to_a_timer(
    stack: Stack, wall: Wall, monkeypatch: pytest.MonkeyPatch
) -> None:
    timers: list[tuple[float, Any]] = []
    monkeypatch.setattr(clocks, "start_timer", lambda delay, fn: timers.append((delay, fn)))
    game_id = clocked(stack, turn_seconds=10)
    version = stack.service.load(game_id).version
    wall.now += 1  # far earlier than RQ starts it: nothing, the time has not come
    assert clocks.enforce_clock(game_id, version).startswith("not due") and timers == []
    wall.now += 7.5
    assert clocks.enforce_clock(game_id, version).startswith("a timer enforces it in 1.500 s")
    assert timeouts(stack, game_id) == [] and stack.service.load(game_id).version == version
    [(delay, fire)] = timers
    assert delay == pytest.approx(1.5)
    wall.now += delay
    fire()
    assert len(timeouts(stack, game_id)) == 1


def test_the_sweeper_enforces_a_clock_whose_job_never_ran(
    stack: Stack, wall: Wall, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_CLOCK_JOBS", "0")  # every clock job lost
    game_id = clocked(stack, on_timeout="forfeit")
    assert ScheduledJobRegistry(queue=stack.queue("clocks")).get_job_ids() == []
    sweeper = stack.sweeper(clock=wall)
    wall.now += 4.9
    assert sweeper.enforce_clocks() == 0 and timeouts(stack, game_id) == []
    wall.now += 0.1
    assert sweeper.enforce_clocks() == 1
    assert stack.service.summary(game_id)["outcome"]["reason"] == "timed_out"
    assert sweeper.enforce_clocks() == 0 and len(timeouts(stack, game_id)) == 1
    assert stack.store.clocks_due(10**15) == []  # an ended game leaves the index


def test_the_sweeper_corrects_an_index_entry_found_early(stack: Stack, wall: Wall) -> None:
    game_id = clocked(stack)
    stack.store.hint_clock(game_id, int(START * 1000))  # a hint from an append that failed
    sweeper = stack.sweeper(clock=wall)
    wall.now += 1
    assert sweeper.enforce_clocks() == 0
    assert stack.store.clocks_due(10**15) == [(game_id, int((START + 5) * 1000))]


def test_a_clock_job_whose_moment_has_passed_is_queued_at_once(stack: Stack, wall: Wall) -> None:
    game_id = clocked(stack, turn_seconds=1)  # its job's moment (the second before) has passed
    version = stack.service.load(game_id).version
    job_id = clock_job_id(NAMESPACE, game_id, version)
    assert ScheduledJobRegistry(queue=stack.queue("clocks")).get_job_ids() == []
    assert stack.queue("clocks").job_ids == [job_id]  # not left to the scheduler's next look


def test_seats_sharing_a_deadline_all_time_out_at_once(stack: Stack, wall: Wall) -> None:
    seats = [{"type": "open"}] * 6
    game_id = str(stack.service.create_game("shithead", seats, options={"turn_seconds": 5})["id"])
    for seat in range(6):
        stack.service.join_seat(game_id, seat, f"p{seat}")
    loaded = stack.service.load(game_id)
    assert len(loaded.game.awaited_seats(loaded.state)) == 6  # swapping: all on one deadline
    wall.now += 5
    assert clocks.enforce_clock(game_id, loaded.version).count("timed out") == 6
    assert sorted(t["seat"] for t in timeouts(stack, game_id)) == list(range(6))
