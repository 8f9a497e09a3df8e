"""A bot's pace: in a game with people every bot turn makes its move ``bot_pace_ms`` after its
turn started, whatever the cards; a person's ten out of turn (Shithead's ten_out_of_turn) in that
time makes the bot's move stale. The job chooses and hands the move to a timer (it holds no
worker for the pace), so most tests hand the bot a timer of their own that notes how long it was
asked to wait and makes the move at once."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest
from rq import SimpleWorker

from domain.games.shithead import Shithead
from tests.support.wall import Wall
from tests.unit.workers.conftest import Stack
from workers import config, jobs
from workers.jobs import play_bot_turn

RANDOM = {"type": "bot", "bot": "random"}
START = 1_700_000_000.0


@pytest.fixture
def asked(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """How long each bot turn asked to wait (nobody moves meanwhile), and, last, when the
    service was asked to make its move (``_move_time``); in games created with the served
    default pace (CARDROOM_BOT_PACE_MS)."""
    stack.rebuild_service(bot_pace_ms=1500)
    waits: list[float] = []
    submit = stack.service.submit_action

    def submitted(*args: Any, **kwargs: Any) -> Any:
        MOVED.append(time.monotonic())
        return submit(*args, **kwargs)

    monkeypatch.setattr(jobs, "start_timer", lambda t, move: waits.append(t) or move())
    monkeypatch.setattr(stack.service, "submit_action", submitted)
    return waits


MOVED: list[float] = []


def _move_time(asked: list[float], game_id: str, version: int) -> float:
    """When the bot's move comes after its job starts, to the 0.1 s, had each wait it asked
    for lasted (a spectator times the public stream)."""
    asked.clear()
    MOVED.clear()
    started = time.monotonic()
    result = play_bot_turn(game_id, 1, version)
    assert result == "played" or (result.startswith("paced") and asked), result
    return round(MOVED[-1] - started + sum(asked), 1)


def _game(stack: Stack, person_hand: list[str], *, queued: bool = False, **options: Any) -> str:
    deal = {"seats": [{"hand": person_hand, "face_up": ["9C", "9D", "9H"],
                       "face_down": ["JC", "JD", "JH"]},
                      {"hand": ["4C", "6D", "7S"], "face_up": ["8C", "8D", "8H"],
                       "face_down": ["QC", "QD", "QH"]}]}  # fmt: skip
    created = stack.service.create_game("shithead", [{"type": "open"}, RANDOM], deal=deal,
                                        options={"ten_out_of_turn": True, **options})  # fmt: skip
    game_id = str(created["id"])
    stack.service.join_seat(game_id, 0, "ann")
    stack.work()
    loaded = stack.service.load(game_id)
    for action in ({"type": "ready"}, {"type": "play", "cards": ["3C"]}):
        if action in loaded.game.legal_actions(loaded.state, 0):
            stack.service.submit_action(game_id, 0, action, loaded.version)
            loaded = stack.service.load(game_id)
    if not queued:
        stack.queue("bots").empty()  # the bot's turn is played by hand below
    return game_id


def test_a_persons_ten_out_of_turn_during_the_bots_pace_makes_its_turn_stale(
    stack: Stack, monkeypatch: pytest.MonkeyPatch, asked: list[float], caplog: Any
) -> None:
    game_id = _game(stack, ["3C", "TH", "5D"])
    loaded = stack.service.load(game_id)
    assert loaded.game.awaited_seats(loaded.state) == (1,)
    ten = {"type": "play", "cards": ["TH"]}
    assert ten in loaded.game.legal_actions(loaded.state, 0)
    waited: list[float] = []

    def person_plays_meanwhile(timeout: float, move: Any) -> None:
        waited.append(timeout)
        stack.service.submit_action(game_id, 0, ten, loaded.version)
        move()

    monkeypatch.setattr(jobs, "start_timer", person_plays_meanwhile)
    with caplog.at_level("INFO", logger="cardroom.jobs"):
        result = play_bot_turn(game_id, 1, loaded.version)
    assert len(waited) == 1 and 1.0 < waited[0] <= 1.5 and result.startswith("paced")
    assert [r.getMessage() for r in caplog.records] == [f"game {game_id} seat 1: stale: "
                                                         "someone else moved first"]  # fmt: skip
    events = stack.service.events_after(game_id, loaded.version, 0)["events"]
    assert events[0]["event"]["type"] == "shithead.CardsPlayed"
    assert events[0]["event"]["seat"] == 0


@pytest.mark.parametrize("hand", [["3C", "TH", "5D"], ["3C", "KH", "5D"]])
def test_a_bot_waits_its_pace_whether_or_not_the_person_holds_a_ten(
    stack: Stack, asked: list[float], hand: list[str]
) -> None:
    game_id = _game(stack, hand, bot_pace_ms=800)
    loaded = stack.service.load(game_id)
    assert 0.8 <= _move_time(asked, game_id, loaded.version) < 1.0


def test_a_game_created_with_the_older_rights_grace_ms_keeps_it_as_its_pace(
    stack: Stack, asked: list[float]
) -> None:
    game_id = _game(stack, ["3C", "KH", "5D"], rights_grace_ms=700)
    loaded = stack.service.load(game_id)
    assert 0.7 <= _move_time(asked, game_id, loaded.version) < 0.9


def test_bots_among_themselves_never_wait(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    stack.rebuild_service(bot_pace_ms=1500)
    monkeypatch.setattr(jobs, "start_timer", lambda *a: pytest.fail("a bot waited"))
    created = stack.service.create_game("shithead", [RANDOM, RANDOM], seed="bots",
                                        options={"ten_out_of_turn": True, "bot_pace_ms": 900})
    game_id = str(created["id"])
    for _ in range(10):
        loaded = stack.service.load(game_id)
        seat = loaded.game.awaited_seats(loaded.state)[0]
        assert play_bot_turn(game_id, seat, loaded.version) == "played"


def test_the_served_pace_is_written_into_the_options_of_games_with_people(
    stack: Stack, asked: list[float]
) -> None:
    with_people = stack.service.create_game("shithead", [{"type": "open"}, RANDOM])
    bots_only = stack.service.create_game("shithead", [RANDOM, RANDOM])
    chosen = stack.service.create_game("shithead", [{"type": "open"}, RANDOM],
                                       options={"bot_pace_ms": 0})  # fmt: skip
    options = [stack.service.summary(str(g["id"]))["options"]
               for g in (with_people, bots_only, chosen)]  # fmt: skip
    assert [o.get("bot_pace_ms") for o in options] == [1500, None, None]


@pytest.mark.parametrize(("turn_seconds", "pace_ms"), [(1, 500), (2, 1000), (10, 1500)])
def test_the_served_pace_leaves_a_bot_on_the_clock_its_time(
    stack: Stack, asked: list[float], turn_seconds: int, pace_ms: int
) -> None:
    """At most half a turn: with the served 1500 ms a 1 s clock timed out every bot turn (a
    forfeit lost the bot the game at its first)."""
    created = stack.service.create_game("sixty_six", [{"type": "open"}, RANDOM], dealer=0,
                                        options={"turn_seconds": turn_seconds})  # fmt: skip
    game_id = str(created["id"])
    assert stack.service.summary(game_id)["options"]["bot_pace_ms"] == pace_ms
    stack.service.join_seat(game_id, 0, "ann")
    stack.queue("bots").empty()  # the bot's turn (it leads) is played by hand below
    loaded = stack.service.load(game_id)
    assert loaded.game.awaited_seats(loaded.state) == (1,)
    assert _move_time(asked, game_id, loaded.version) < turn_seconds


def _waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """How long each paced turn asks its timer to wait (the move is made at once)."""
    waits: list[float] = []
    monkeypatch.setattr(jobs, "start_timer", lambda t, move: waits.append(t) or move())
    return waits


def test_a_turn_job_that_starts_late_still_moves_a_pace_after_its_turn_began(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The queue's delay is inside the pace: the job, queued by the append that made the
    bot's turn, starts 0.74 s later and waits the pace's rest (it waited a whole pace)."""
    late = 0.0
    stack.rebuild_service(bot_pace_ms=1500, clock=lambda: time.time() + late)
    game_id = _game(stack, ["3C", "KH", "5D"], queued=True)
    version = stack.service.load(game_id).version
    waits = _waits(monkeypatch)
    late = 0.74  # the worker comes to each job (the next turns' too) 0.74 s after its queueing
    stack.work(config.BOTS)
    assert stack.service.load(game_id).version > version
    # at most the pace's rest (less the time the worker took to start; none left: no wait)
    assert all(0 < w <= 0.76 for w in waits), waits


def _clocked(stack: Stack, wall: Wall, turn_seconds: int, pace_ms: int) -> tuple[str, int]:
    """A Sixty-six game on a clock whose bot (seat 1, it leads) is to move: (id, version)."""
    stack.rebuild_service(bot_pace_ms=1500, clock=wall)
    options = {"turn_seconds": turn_seconds, "bot_pace_ms": pace_ms}
    created = stack.service.create_game("sixty_six", [{"type": "open"}, RANDOM], dealer=0,
                                        options=options)  # fmt: skip
    game_id = str(created["id"])
    stack.service.join_seat(game_id, 0, "ann")
    stack.queue(config.BOTS).empty()  # the bot's turn is played by hand below
    loaded = stack.service.load(game_id)
    assert loaded.game.awaited_seats(loaded.state) == (1,)
    return game_id, loaded.version


def test_on_a_clock_a_late_turn_job_moves_a_pace_after_the_turn_the_clock_started(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = Wall(START)
    game_id, version = _clocked(stack, wall, turn_seconds=10, pace_ms=1500)
    waits = _waits(monkeypatch)
    wall.now += 0.74
    assert play_bot_turn(game_id, 1, version).startswith("paced")
    assert len(waits) == 1 and 0.26 < waits[0] <= 0.76, waits  # less the search (no load: ms)


@pytest.mark.parametrize(("turn_seconds", "margin"), [(1, 0.1), (5, 0.5)])
def test_on_a_clock_a_bot_moves_a_margin_before_its_deadline_however_long_its_pace(
    stack: Stack, monkeypatch: pytest.MonkeyPatch, turn_seconds: int, margin: float
) -> None:
    """A creator's own pace longer than the turn: the bot moves max(100 ms, 10 % of a turn)
    before its deadline (it timed out, and lost the game under ``forfeit``)."""
    wall = Wall(START)
    game_id, version = _clocked(stack, wall, turn_seconds, pace_ms=10_000)
    waits = _waits(monkeypatch)
    wall.now += 0.2
    assert play_bot_turn(game_id, 1, version).startswith("paced")
    due = turn_seconds - margin - 0.2
    assert len(waits) == 1 and due - 0.5 < waits[0] <= due, waits  # less the search
    assert stack.service.load(game_id).version > version


def _bot_delays(stack: Stack, asked: list[float], moves: int) -> list[tuple[bool, float]]:
    """(the person held a ten to play out of turn, the bot's pause) for each bot move, over
    games of a person playing at random (keeping its tens) against a random bot."""
    rng, seen, number = random.Random(7), [], 0
    while len(seen) < moves:  # at most 40 bot moves of each game: many deals, not one long one
        number, start = number + 1, len(seen)
        created = stack.service.create_game("shithead", [{"type": "open"}, RANDOM],
                                            seed=f"pace-{number}",
                                            idempotency_key=f"pace-game-{number}",  # its id
                                            options={"ten_out_of_turn": True})  # fmt: skip
        game_id = str(created["id"])
        stack.service.join_seat(game_id, 0, "ann")
        loaded = stack.service.load(game_id)
        while not loaded.over and len(seen) < min(moves, start + 40):
            stack.queue("bots").empty()
            awaited = loaded.game.awaited_seats(loaded.state)
            if 0 in awaited:
                legal = loaded.game.legal_actions(loaded.state, 0)
                keeping = [a for a in legal if not any(c[0] == "T" for c in a.get("cards", []))]
                action = rng.choice(keeping or legal)  # the person keeps tens when it can
                stack.service.submit_action(game_id, 0, action, loaded.version)
            else:
                held = Shithead().holds_optional_right(loaded.state.inner, 0)
                seen.append((held, _move_time(asked, game_id, loaded.version)))
            loaded = stack.service.load(game_id)
    return seen


def test_a_bot_that_thinks_long_moves_at_the_same_time_as_one_that_does_not(
    stack: Stack, asked: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = _game(stack, ["3C", "KH", "5D"], bot_pace_ms=800)
    loaded = stack.service.load(game_id)
    get_bot = jobs.get_bot

    class Slow:  # a search whose length depends on the bot's own hidden cards, say
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def choose(self, view: Any, rng: Any) -> Any:
            time.sleep(0.3)
            return self.bot.choose(view, rng)

    monkeypatch.setattr(jobs, "get_bot", lambda *a: Slow(get_bot(*a)))
    assert 0.8 <= _move_time(asked, game_id, loaded.version) < 1.0  # thinking inside the pace


@pytest.mark.slow  # a statistical test over many timed turns
def test_a_spectator_timing_the_bots_does_no_better_than_chance_at_telling_a_hidden_ten(
    stack: Stack, asked: list[float]
) -> None:
    seen = _bot_delays(stack, asked, moves=200)
    n, held = len(seen), sum(h for h, _ in seen)
    assert 20 <= held <= n - 20, f"{held} of {n} moves with a ten: too few to tell anything"
    chance = max(held, n - held) / n  # always guessing the commoner answer
    best = 0.0  # the best threshold on the pause, either way round, fitted on the data itself
    for threshold in sorted({d for _, d in seen}):
        right = sum((d >= threshold) == h for h, d in seen) / n
        best = max(best, right, 1 - right)
    assert best <= chance + 1.96 * math.sqrt(chance * (1 - chance) / n), (
        f"the pause tells a hidden ten: {best:.0%} right, chance {chance:.0%}"
    )


def test_paced_turns_of_two_games_run_side_by_side_on_one_worker(stack: Stack) -> None:
    """The pace holds no worker: one worker runs both games' turn jobs at once (neither game
    has moved when it is done), and each move comes a pace after its own turn started, not
    one pace after the other (on a worker held for each pace, the second came after two)."""
    pace = 0.8
    games = [_game(stack, ["3C", "KH", "5D"], bot_pace_ms=int(pace * 1000)) for _ in range(2)]
    versions = [stack.service.load(g).version for g in games]
    for game_id, version in zip(games, versions, strict=True):
        stack.scheduler.enqueue_turn(game_id, 1, version, "random", attempt=1)
    started = time.monotonic()
    stack.work(config.BOTS)
    worked = time.monotonic() - started
    assert [stack.service.load(g).version for g in games] == versions, (
        f"the worker was held {worked:.1f} s: the pace took it"
    )
    moved: dict[str, float] = {}
    while len(moved) < len(games) and time.monotonic() - started < 10 * pace:
        for game_id, version in zip(games, versions, strict=True):
            if game_id not in moved and stack.service.load(game_id).version > version:
                moved[game_id] = time.monotonic() - started
        time.sleep(0.02)
    assert len(moved) == 2 and all(pace <= t for t in moved.values()), moved
    assert max(moved.values()) < 1.75 * pace, f"one after the other: {moved}"


def test_in_a_forked_horse_the_job_waits_out_its_pace_itself(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forking worker's child ends with its job (and its timers): there the job waits."""
    game_id = _game(stack, ["3C", "KH", "5D"], bot_pace_ms=800)
    version = stack.service.load(game_id).version
    monkeypatch.setattr(jobs, "start_timer", lambda *a: pytest.fail("a timer in a horse"))
    waited: list[float] = []
    monkeypatch.setattr(stack.service, "wait", lambda _g, _v, t: waited.append(t) or False)

    class Horse(SimpleWorker):
        def play(self) -> str:
            self._is_horse = True  # as rq's main_work_horse sets it in the forked child
            return play_bot_turn(game_id, 1, version)

    assert Horse([stack.queue(config.BOTS)], connection=stack.rq).play() == "played"
    assert len(waited) == 1 and 0.5 < waited[0] <= 0.8
    assert stack.service.load(game_id).version > version
