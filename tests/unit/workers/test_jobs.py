"""Bot turns go through the person's command path and are idempotent; finished games export
a replay that verifies."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from domain.chain import GENESIS, link_hash_text
from domain.events import canonical_json
from replays import loads
from replays.verify import VerificationFailed, verify
from service.games import GameService
from service.store.records import salt_of
from tests.unit.workers.conftest import NAMESPACE, Stack
from workers import config, process
from workers.bots.base import WAIT, RandomBot, register_bot
from workers.jobs import export_replay, play_bot_turn

BOTS = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}]


@register_bot("nonsense")
class NonsenseBot:
    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        return {"type": "no such action"}


@register_bot("leads")
class LeadsBot:
    """Plays a card whenever it may: a card led passes the turn to the other seat."""

    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        return next(a for a in view["legal_actions"] if a["type"] == "play")


def _create(stack: Stack, seats: list[dict[str, str]] = BOTS) -> str:
    return str(stack.service.create_game("sixty_six", seats, seed="jobs")["id"])


def test_a_bots_only_game_plays_to_the_end_and_its_replay_verifies(stack: Stack) -> None:
    game_id = _create(stack)
    stack.work()
    summary = stack.service.summary(game_id)
    assert summary["status"] == "over" and summary["outcome"] is not None
    text = stack.store.replay(game_id)
    assert text is not None
    report = verify(loads(text))
    assert report.events == summary["version"]
    assert report.head_hash == summary["head_hash"]


def test_a_turn_at_a_stale_version_ends_quietly(stack: Stack) -> None:
    game_id = _create(stack)
    version = stack.service.load(game_id).version
    bot = stack.service.load(game_id).meta.seats[0].bot
    stack.scheduler.take_turn(game_id, 0, version, str(bot))  # its seat's queued job started
    assert play_bot_turn(game_id, 0, version - 1).startswith("stale")
    assert stack.service.load(game_id).version == version


def test_running_the_same_turn_twice_plays_once(stack: Stack) -> None:
    # the bot leads a card, so the turn is the other seat's after it (a random bot that
    # exchanged the trump or won a trick would be to act again: its pending newer turn is
    # played, rightly, by the second run)
    game_id = _create(stack, [{"type": "bot", "bot": "leads"}] * 2)
    loaded = stack.service.load(game_id)
    seat = loaded.game.seats_to_act(loaded.state)[0]
    assert play_bot_turn(game_id, seat, loaded.version) == "played"
    after = stack.service.load(game_id).version
    assert play_bot_turn(game_id, seat, loaded.version).startswith("stale")
    assert stack.service.load(game_id).version == after


def test_a_seat_not_to_act_ends_quietly(stack: Stack) -> None:
    game_id = str(stack.service.create_game("sheepshead", BOTS * 2, seed="jobs")["id"])
    loaded = stack.service.load(game_id)
    idle = next(s for s in range(4) if s not in loaded.game.seats_to_act(loaded.state))
    assert play_bot_turn(game_id, idle, loaded.version) == f"seat {idle} is not awaited"


def test_a_person_s_seat_is_never_played_by_a_bot_job(stack: Stack) -> None:
    game_id = _create(stack, [{"type": "open"}, {"type": "open"}])
    version = stack.service.load(game_id).version
    assert play_bot_turn(game_id, 0, version) == "seat 0 is not a bot's"


def test_a_bot_turn_is_reproducible_from_game_seat_and_version(stack: Stack) -> None:
    game_id = _create(stack)
    loaded = stack.service.load(game_id)
    seat = loaded.game.seats_to_act(loaded.state)[0]
    view = stack.service.view(game_id, seat)["view"]
    expected = RandomBot().choose(view, random.Random(f"{game_id}:{seat}:{loaded.version}"))
    play_bot_turn(game_id, seat, loaded.version)
    batch = stack.store.batches(game_id)[-1]
    assert batch.command == {"kind": "action", "seat": seat, "action": expected}


@register_bot("raiser")
class RaisingBot:
    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        raise RuntimeError("bug in the bot")


@register_bot("sleeper")
class SleepingBot:
    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        time.sleep(2)
        return dict(view["legal_actions"][0])


@pytest.mark.parametrize(("bot", "reason"), [("nonsense", "illegal"), ("raiser", "raised"),
                                             ("sleeper", "timeout")])  # fmt: skip
def test_a_bot_that_fails_gets_the_default_move_recorded_as_its_fallback(
    stack: Stack, monkeypatch: pytest.MonkeyPatch, bot: str, reason: str
) -> None:
    monkeypatch.setenv("CARDROOM_BOT_MOVE_SECONDS", "0.2")
    game_id = _create(stack, [{"type": "bot", "bot": bot}] * 2)
    loaded = stack.service.load(game_id)
    seat = loaded.game.seats_to_act(loaded.state)[0]
    began = time.monotonic()
    result = play_bot_turn(game_id, seat, loaded.version)
    assert result == f"fell back ({reason}): the default move was played for {bot}"
    assert time.monotonic() - began < 1.5  # the slow bot was interrupted, not waited for
    batch = stack.store.batches(game_id)[-1]
    assert batch.command["action"] == {"type": "fallback", "reason": reason}
    fell, move = (e.event for e in stack.store.read(game_id, loaded.version)[:2])
    assert {k: fell[k] for k in ("type", "seat", "reason", "rule")} == {
        "type": "lifecycle.BotFellBack", "seat": seat, "reason": reason, "rule": 1}
    assert move["type"].startswith("sixty_six.")  # the default move's own events follow


def test_an_unfinished_game_is_not_exported(stack: Stack) -> None:
    game_id = _create(stack, [{"type": "open"}, {"type": "open"}])
    assert export_replay(game_id) == "not over yet"
    assert stack.store.replay(game_id) is None


def test_the_export_also_writes_a_file_when_configured(
    stack: Stack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_REPLAY_DIR", str(tmp_path))
    game_id = _create(stack)
    stack.work()
    path = tmp_path / f"{game_id}.replay.json"
    assert verify(loads(path.read_text())).ok


def test_the_sweeper_re_enqueues_a_lost_bot_turn(stack: Stack) -> None:
    game_id = _create(stack)
    stack.queue("bots").empty()  # the turn job is lost (say, its worker was killed)
    loaded = stack.service.load(game_id)
    to_act = len(loaded.game.awaited_seats(loaded.state))
    sweeper = stack.sweeper(stall=0)
    assert sweeper.tick() == 0  # first sight of the game
    assert sweeper.tick() == to_act  # no progress since: the turns are queued again
    assert sweeper.tick() == 0  # still waiting in its queue: not queued twice
    stack.work()
    assert stack.service.summary(game_id)["status"] == "over"


def test_the_sweeper_leaves_a_game_waiting_for_a_person_alone(stack: Stack) -> None:
    _create(stack, [{"type": "open"}, {"type": "bot", "bot": "random"}])
    stack.work()
    sweeper = stack.sweeper(stall=0)
    assert sweeper.tick() + sweeper.tick() + sweeper.tick() == 0


def test_the_sweeper_expires_a_game_that_never_fills(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_WAITING_TTL", "30")
    game_id = _create(stack, [{"type": "open"}, {"type": "bot", "bot": "random"}])
    stack.sweeper(stall=0, clock=lambda: time.time() + 20).tick()
    assert stack.service.summary(game_id)["status"] == "waiting"  # not due yet
    stack.sweeper(stall=0, clock=lambda: time.time() + 31).tick()
    summary = stack.service.summary(game_id)
    assert summary["status"] == "over" and summary["outcome"]["reason"] == "expired"
    stack.work()  # the replay export
    assert verify(loads(stack.store.replay(game_id) or "")).ok


def _first_bot_turn_by_its_job(stack: Stack) -> tuple[str, str]:
    """A new bots' game whose first turn is played by calling its job (none queued): its id
    and what the job said."""
    game_id = _create(stack)
    stack.queue("bots").empty()
    loaded = stack.service.load(game_id)
    seat = loaded.game.seats_to_act(loaded.state)[0]
    return game_id, play_bot_turn(game_id, seat, loaded.version)


def test_a_bot_job_plays_the_following_bot_turns_itself(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_CHAIN_SECONDS", "5")
    game_id, result = _first_bot_turn_by_its_job(stack)
    assert "more turns" in result
    assert stack.service.summary(game_id)["status"] == "over"
    assert stack.queue("bots").count == 0
    assert [j.func_name for j in stack.queue("replays").jobs] == ["workers.jobs.export_replay"]


def test_a_chain_hands_over_to_the_queue_when_its_time_is_up(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_CHAIN_SECONDS", "0.000001")
    game_id, _ = _first_bot_turn_by_its_job(stack)
    after = stack.service.load(game_id)
    queued = stack.queue("bots").jobs
    assert queued and all(j.args[2] == after.version for j in queued)
    stack.work()
    assert stack.service.summary(game_id)["status"] == "over"


def test_a_chain_never_plays_a_seat_of_another_queue(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_CHAIN_SECONDS", "5")
    seats = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "lowball"}]
    game_id = str(stack.service.create_game("shithead", seats, seed="chain")["id"])
    stack.queue("bots").empty()
    loaded = stack.service.load(game_id)
    play_bot_turn(game_id, 0, loaded.version)
    assert stack.service.summary(game_id)["status"] == "playing"
    assert stack.queue("bot:lowball").count >= 1


@register_bot("waiter")
class WaiterBot:
    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        return dict(WAIT)


def test_a_bot_that_waits_plays_nothing(stack: Stack) -> None:
    game_id = _create(stack, [{"type": "bot", "bot": "waiter"}] * 2)
    loaded = stack.service.load(game_id)
    seat = loaded.game.seats_to_act(loaded.state)[0]
    assert play_bot_turn(game_id, seat, loaded.version).startswith("waits")
    assert stack.service.load(game_id).version == loaded.version


def test_the_sweeper_does_not_rerun_a_bot_that_chose_to_wait(stack: Stack) -> None:
    game_id = _create(stack, [{"type": "bot", "bot": "waiter"}] * 2)
    stack.work()  # both turns run and wait
    sweeper = stack.sweeper(stall=0)
    assert sweeper.tick() + sweeper.tick() + sweeper.tick() == 0
    assert stack.service.summary(game_id)["status"] == "playing"


def test_one_sweeper_is_elected_per_interval(stack: Stack) -> None:
    first = stack.sweeper(stall=0)
    second = stack.sweeper(stall=0)
    assert first.elected() and not second.elected()


def test_the_attack_a_person_sending_the_bot_s_next_key_does_not_stall_it(stack: Stack) -> None:
    """The attack of issue 9: bots' keys are predictable (``bot:<seat>:<version>``)."""
    seats = [{"type": "open"}, {"type": "bot", "bot": "random"}]
    # A fixed game id (from the creation's key) fixes the random bot's choices, so the match
    # lasts long enough for the attack to be tried several times.
    created = stack.service.create_game("sixty_six", seats, seed="attack", idempotency_key="a1")
    game_id = str(created["id"])
    stack.service.join_seat(game_id, 0, "mallory")
    stack.work()
    attacks = 0
    for _ in range(200):
        loaded = stack.service.load(game_id)
        if loaded.over:
            break
        assert 0 in loaded.game.awaited_seats(loaded.state), "the bot's turn stalled"
        view = stack.service.view(game_id, 0)["view"]
        version = loaded.version
        bot_key = f"bot:1:{version + 1}"  # the bot's key right after this action
        stack.service.submit_action(game_id, 0, view["legal_actions"][0], version, bot_key)
        attacks += 1
        stack.work()
    assert attacks > 5
    assert stack.service.summary(game_id)["status"] == "over"


def test_the_sweeper_finishes_a_create_that_crashed_before_its_listing(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(stack.store, "_list_game", lambda meta: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            _create(stack)
    (game_id,) = stack.store.unsettled(before=time.time() + 1)
    assert stack.store.list_games() == [] and stack.queue("bots").count == 0
    monkeypatch.setattr("workers.sweeper.SETTLE_GRACE", 0.0)
    stack.sweeper(stall=0).tick()
    assert [m.id for m in stack.store.list_games()] == [game_id]
    stack.work()
    assert stack.service.summary(game_id)["status"] == "over"
    assert stack.store.unsettled(before=time.time() + 1) == []


def _lose_from_queue(stack: Stack, game_id: str) -> list[str]:
    """Take the game's turn jobs out of the queue, leaving them marked ``queued`` (as a
    worker killed right after popping a job leaves it)."""
    queue = stack.queue("bots")
    lost = [j for j in queue.get_job_ids() if game_id in j]
    for job_id in lost:
        stack.rq.lrem(queue.key, 0, job_id)
    return lost


def test_a_job_popped_by_a_killed_worker_is_queued_again(stack: Stack) -> None:
    from rq.job import Job, JobStatus

    game_id = _create(stack)
    lost = _lose_from_queue(stack, game_id)
    assert lost and all(
        Job.fetch(j, connection=stack.rq).get_status() == JobStatus.QUEUED for j in lost
    )  # RQ still says queued: the sweeper must not trust it
    sweeper = stack.sweeper(stall=0)
    assert sweeper.tick() == 0  # first sight
    assert sweeper.tick() == len(lost)
    stack.work()
    assert stack.service.summary(game_id)["status"] == "over"


def test_the_stall_record_is_shared_by_every_worker_s_sweeper(stack: Stack) -> None:
    game_id = _create(stack)
    lost = _lose_from_queue(stack, game_id)
    assert stack.sweeper(stall=0).tick() == 0  # one worker saw it
    assert stack.sweeper(stall=0).tick() == len(lost)  # another acts


def test_the_sweeper_never_gives_up_and_backs_off(stack: Stack) -> None:
    now = [1000.0]
    game_id = _create(stack)
    sweeper = stack.sweeper(stall=1.0, clock=lambda: now[0])
    lost = len(_lose_from_queue(stack, game_id))
    sweeper.tick()
    requeued = []
    for _ in range(8):  # every re-run is lost again (a worker killed each time)
        now[0] += 0.5
        early = sweeper.tick()
        now[0] += 200
        requeued.append((early, sweeper.tick()))
        assert len(_lose_from_queue(stack, game_id)) == lost
    assert requeued[0] == (0, lost)  # not before the game stalled for 1 s
    assert all(late == lost for _, late in requeued)  # the 8th re-run as the first
    assert all(early == 0 for early, _ in requeued[1:])  # backing off between re-runs
    sweeper.tick()
    now[0] += 200
    assert sweeper.tick() == lost
    stack.work()
    assert stack.service.summary(game_id)["status"] == "over"


def test_a_turn_started_by_a_dead_worker_is_queued_again_not_by_a_live_one(
    stack: Stack,
) -> None:
    from rq.job import Job, JobStatus

    from workers.sweeper import alive_key

    game_id = _create(stack)
    (job_id,) = _lose_from_queue(stack, game_id)
    job = Job.fetch(job_id, connection=stack.rq)
    job.worker_name = "w-1"
    job.set_status(JobStatus.STARTED)
    job.save()
    stack.rq.set(alive_key(NAMESPACE, "w-1"), "1")
    sweeper = stack.sweeper(stall=0)
    assert sweeper.tick() + sweeper.tick() == 0  # its worker is alive: the bot is thinking
    stack.rq.delete(alive_key(NAMESPACE, "w-1"))  # the worker died (its key expired)
    assert sweeper.tick() == 1
    stack.work()
    assert stack.service.summary(game_id)["status"] == "over"


def test_a_game_over_but_listed_as_playing_is_moved_and_exported(stack: Stack) -> None:
    game_id = _create(stack)
    stack.work()
    stack.store._list_game(stack.store.meta(game_id).with_status("playing"))  # type: ignore[union-attr]
    assert [m.id for m in stack.store.list_games(status="playing")] == [game_id]
    stack.client.delete(f"{NAMESPACE}:game:{{{game_id}}}:replay")
    stack.rq.delete(*stack.rq.keys("rq:job:*export*"))
    stack.sweeper(stall=0).tick()
    assert stack.store.list_games(status="playing") == []
    assert [m.id for m in stack.store.list_games(status="over")] == [game_id]
    stack.work()
    assert stack.store.replay(game_id) is not None
def test_a_listing_left_behind_after_the_sweeper_saw_the_game_is_repaired_at_its_next_look(
    stack: Stack,
) -> None:
    game_id = _create(stack, [{"type": "open"}, {"type": "bot", "bot": "random"}])
    sweeper = stack.sweeper(stall=0)
    sweeper.tick()  # seen (the listing read whole once), its next look due
    meta = stack.store.meta(game_id)
    assert meta is not None and meta.status == "waiting"
    stack.client.hset(f"{NAMESPACE}:game:{{{game_id}}}:meta", "status", "playing")  # the
    # status moved by an append whose index update a crash lost: still listed as waiting
    sweeper.tick()
    assert [m.id for m in stack.store.list_games(status="playing")] == [game_id]
    assert stack.store.list_games(status="waiting") == []


def test_a_replay_that_fails_verification_is_not_stored(stack: Stack) -> None:
    game_id = _create(stack)
    stack.work(config.BOTS)
    # History rewritten with a consistent (salted) chain, as by someone with access to Redis:
    # another commitment in event 1. The chain holds, the revealed secret does not match it.
    key = stack.store.key(game_id, "events")
    entries = stack.client.xrange(key)
    stack.client.delete(key)
    prev, salt = GENESIS, salt_of(stack.store.meta(game_id))
    for entry_id, fields in entries:
        event = json.loads(fields["event"])
        if entry_id.startswith("1-"):
            event["commitment"] = "f" * 64
        text = canonical_json(event)
        digest = link_hash_text(prev, text, salt)
        stack.client.xadd(key, {**fields, "event": text, "prev_hash": prev, "hash": digest},
                          id=entry_id)
        prev = digest
    process.use_service(GameService(stack.store, stack.scheduler))  # no cached fold
    with pytest.raises(VerificationFailed):
        export_replay(game_id)
    assert stack.store.replay(game_id) is None


def test_a_sweep_reads_every_live_game_s_version_in_one_store_call(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(5):
        _create(stack, [{"type": "open"}, {"type": "bot", "bot": "random"}])
    calls: list[str] = []
    for name in ("version", "versions"):
        original = getattr(stack.store, name)

        def counted(*args: object, _name: str = name, _original: object = original) -> object:
            calls.append(_name)
            return _original(*args)  # type: ignore[operator]

        monkeypatch.setattr(stack.store, name, counted)
    stack.sweeper().tick()
    assert calls == ["versions"]


SEEN: list[list[dict]] = []  # type: ignore[type-arg]


@register_bot("historian")
class HistorianBot:
    wants_history = True

    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        SEEN.append(view["history"])
        return dict(rng.choice(view["legal_actions"]))


def test_a_bot_that_wants_history_gets_its_seats_redacted_events(stack: Stack) -> None:
    seats = [{"type": "bot", "bot": "historian"}] * 2
    game_id = str(stack.service.create_game("sixty_six", seats, seed="hist")["id"])
    loaded = stack.service.load(game_id)
    seat = loaded.game.awaited_seats(loaded.state)[0]
    SEEN.clear()
    assert play_bot_turn(game_id, seat, loaded.version).startswith("played")
    expected = [e["event"] for e in stack.service.events_after(game_id, 0, seat)["events"]]
    assert SEEN[0] == expected[: loaded.version]
    dealt = {e["seat"]: e["cards"] for e in SEEN[0] if e["type"] == "sixty_six.HandDealt"}
    assert dealt[seat] is not None and dealt[1 - seat] is None  # the other hand stays hidden
