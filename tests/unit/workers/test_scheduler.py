"""After an append, bot seats to act get one turn job on their bot's queue; a finished game
gets its replay export."""

from __future__ import annotations

from tests.unit.workers.conftest import NAMESPACE, Stack
from workers.scheduler import RQScheduler, turn_job_id

SEATS = [
    {"seat": 0, "type": "human", "name": "ann"},
    {"seat": 1, "type": "bot", "bot": "random"},
    {"seat": 2, "type": "bot", "bot": "heuristic"},
    {"seat": 3, "type": "bot", "bot": "lowball"},
]


def _after(scheduler: RQScheduler, to_act: list[int], over: bool = False, version: int = 5) -> None:
    scheduler.after_append("g1", version, game="shithead", seats=SEATS, to_act=to_act, over=over)


def test_built_in_bots_go_to_the_bots_queue_and_user_bots_to_their_own(stack: Stack) -> None:
    _after(stack.scheduler, [0, 1, 2, 3])
    assert stack.queue("bots").job_ids == [
        turn_job_id(NAMESPACE, "g1", 1, 5),
        turn_job_id(NAMESPACE, "g1", 2, 5),
    ]
    assert stack.queue("bot:lowball").job_ids == [turn_job_id(NAMESPACE, "g1", 3, 5)]


def test_a_person_to_act_gets_no_job(stack: Stack) -> None:
    _after(stack.scheduler, [0])
    assert stack.queue("bots").count == 0


def test_the_same_turn_is_queued_once(stack: Stack) -> None:
    _after(stack.scheduler, [1])
    _after(stack.scheduler, [1])
    assert stack.queue("bots").count == 1


def test_a_turn_job_carries_ids_and_numbers_only(stack: Stack) -> None:
    _after(stack.scheduler, [1], version=9)
    job = stack.queue("bots").jobs[0]
    assert job.func_name == "workers.jobs.play_bot_turn"
    assert job.args == ("g1", 1, 9)
    assert job.retries_left == 3


def test_a_finished_game_gets_one_replay_export(stack: Stack) -> None:
    _after(stack.scheduler, [], over=True)
    _after(stack.scheduler, [], over=True)
    jobs = stack.queue("replays").jobs
    assert [(j.func_name, j.args) for j in jobs] == [("workers.jobs.export_replay", ("g1",))]


def test_a_review_is_queued_once_per_game_and_seat_with_its_own_time_limit(
    stack: Stack,
) -> None:
    assert stack.scheduler.enqueue_review("g1", 0) is True
    assert stack.scheduler.enqueue_review("g1", 0) is False  # queued already
    assert stack.scheduler.enqueue_review("g1", 1) is True
    jobs = stack.queue("replays").jobs
    assert [(j.func_name, j.args) for j in jobs] == [
        ("workers.review.review_job", ("g1", 0)), ("workers.review.review_job", ("g1", 1))]
    assert jobs[0].timeout == 600


def test_a_reply_to_a_person_jumps_ahead_of_bots_only_games(stack: Stack) -> None:
    bots_only = [{"seat": i, "type": "bot", "bot": "random"} for i in range(2)]
    scheduler = stack.scheduler
    scheduler.after_append("g2", 3, game="shithead", seats=bots_only, to_act=[0, 1], over=False)
    _after(scheduler, [1], version=7)
    assert stack.queue("bots").job_ids == [
        turn_job_id(NAMESPACE, "g1", 1, 7),
        turn_job_id(NAMESPACE, "g2", 0, 3),
        turn_job_id(NAMESPACE, "g2", 1, 3),
    ]
