"""Bots isolated from each other (issue 28 §5): a seat's turn waits in a queue once however
fast its game moves, the built-in bots' games with a stranger's HTTP bot have a queue of their
own, and a worker gives that queue a bounded share of its time without starving it."""

from __future__ import annotations

import time
from typing import Any

from service.bots import RedisBotRegistry
from tests.unit.workers.conftest import NAMESPACE, Stack
from workers.scheduler import turn_job_id
from workers.shares import FairWorker, Shares

RANDOM = {"type": "bot", "bot": "random"}
HOSTILE = {"type": "bot", "bot": "hostile"}
ORDER: list[str] = []


def record(name: str) -> None:
    """A job that notes which queue's it was (run by the tests' worker, in this process)."""
    ORDER.append(name)
    time.sleep(0.003)


def _hostile_game(stack: Stack) -> str:
    RedisBotRegistry(stack.client, NAMESPACE).create_account("hostile", "a" * 64)
    seats = [HOSTILE, RANDOM, RANDOM, RANDOM]
    return str(stack.service.create_game("shithead", seats, seed="isolation")["id"])


def test_a_seat_s_turn_waits_in_its_queue_once_and_its_job_plays_the_newest_version(
    stack: Stack,
) -> None:
    seats = [{"seat": i, **RANDOM} for i in range(2)]
    for version in range(3, 13):  # another seat moves on and on; seat 0 stays awaited
        stack.scheduler.after_append("g3", version, game="shithead", seats=seats, to_act=[0],
                                     over=False)  # fmt: skip
    assert stack.queue("bots").job_ids == [turn_job_id(NAMESPACE, "g3", 0, 3)]
    assert stack.scheduler.take_turn("g3", 0, 3, "random") == 12  # the job starts: newest
    stack.scheduler.after_append("g3", 13, game="shithead", seats=seats, to_act=[0], over=False)
    assert stack.queue("bots").job_ids[-1] == turn_job_id(NAMESPACE, "g3", 0, 13)


def test_a_looping_http_bot_adds_one_job_per_seat_of_its_game_not_one_per_move(
    stack: Stack,
) -> None:
    game_id = _hostile_game(stack)
    for _ in range(30):  # the HTTP bot swaps as fast as it can: every move is a new version
        loaded = stack.service.load(game_id)
        swap = next((a for a in loaded.game.legal_actions(loaded.state, 0) if a["type"] == "swap"),
                    None)  # fmt: skip
        if swap is None:
            break
        stack.service.submit_action(game_id, 0, swap, loaded.version)
    assert stack.queue("bots").count == 0
    guests = stack.queue("bots-guests")
    assert 1 <= guests.count <= 3  # at most one per built-in seat still awaited
    stack.work("bots-guests")
    loaded = stack.service.load(game_id)
    assert set(loaded.game.awaited_seats(loaded.state)) == {0}  # the built-in bots played


def test_games_with_a_stranger_s_bot_use_their_own_queue_for_turns_and_export(stack: Stack) -> None:
    RedisBotRegistry(stack.client, NAMESPACE).create_account("hostile", "a" * 64)
    scheduler = stack.scheduler
    guests = [{"seat": 0, **HOSTILE}, {"seat": 1, **RANDOM}]
    scheduler.after_append("g4", 5, game="sixty_six", seats=guests, to_act=[1], over=False)
    scheduler.after_append("g4", 6, game="sixty_six", seats=guests, to_act=[], over=True)
    with_person = [{"seat": 0, "type": "human", "name": "ann"}, {"seat": 1, **HOSTILE},
                   {"seat": 2, **RANDOM}]  # fmt: skip
    scheduler.after_append("g5", 5, game="shithead", seats=with_person, to_act=[2], over=False)
    assert [j.func_name for j in stack.queue("bots-guests").jobs] == [
        "workers.jobs.play_bot_turn", "workers.jobs.export_replay"]
    assert stack.queue("bots").job_ids == [turn_job_id(NAMESPACE, "g5", 2, 5)]  # a person's
    assert stack.queue("replays").count == 0


def test_a_backlogged_guests_queue_gets_about_a_fifth_of_a_busy_worker() -> None:
    shares = Shares()
    queues: list[Any] = [_Named("unit:bots"), _Named("unit:bots-guests"), _Named("unit:replays")]
    spent = {"unit:bots": 0.0, "unit:bots-guests": 0.0}
    for _ in range(1000):  # bots and guests always have jobs; replays none
        name = next(q.name for q in shares.order(queues) if q.name in spent)
        seconds = 0.1 if name == "unit:bots" else 0.01  # many short jobs get no more
        spent[name] += seconds
        shares.charge(name, seconds)
    share = spent["unit:bots-guests"] / sum(spent.values())
    assert 0.15 <= share <= 0.25


def test_a_worker_serves_our_games_first_without_starving_the_guests(stack: Stack) -> None:
    ORDER.clear()
    bots, guests = stack.queue("bots"), stack.queue("bots-guests")
    for _ in range(40):
        guests.enqueue(record, "guests")
        bots.enqueue(record, "bots")
    FairWorker([bots, guests], connection=stack.rq).work(burst=True, logging_level="WARNING")
    first = ORDER[:25]
    assert len(ORDER) == 80
    assert first.count("bots") >= 18 and first.count("guests") >= 3, first


def test_the_sweeper_counts_a_pending_job_as_the_newer_version_s(stack: Stack) -> None:
    seats = [{"type": "open"}, RANDOM, RANDOM]
    game_id = str(stack.service.create_game("shithead", seats, seed="pending")["id"])
    token = stack.service.join_seat(game_id, 0, "ann")["token"]
    assert token
    loaded = stack.service.load(game_id)
    first = stack.queue("bots").count
    swap = next(a for a in loaded.game.legal_actions(loaded.state, 0) if a["type"] == "swap")
    stack.service.submit_action(game_id, 0, swap, loaded.version)  # the bots stay awaited
    now = stack.service.load(game_id)
    assert stack.queue("bots").count == first  # their pending jobs play the newer version
    sweeper = stack.sweeper(stall=0)
    assert sweeper.resume(game_id, now.version, 10.0) == 0  # under way: nothing re-queued
    stack.queue("bots").empty()  # the jobs are lost (say, Redis lost them)
    assert sweeper.resume(game_id, now.version, 10.0) == 2  # re-queued, whatever the marks


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name
