"""The service layer without HTTP: the scheduler hook, the state cache, integrity on read."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from domain.errors import InvalidAction
from domain.events import canonical_json
from service.games import GameService, NoScheduler
from service.store import ChainBroken, InMemoryEventStore, VersionConflict
from tests.support.api import make_app
from tests.support.fakegame import GAMES

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
BOTS = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy"}]
DEALT = 5  # GameCreated, a SeatFilled per bot, the fake game's start and deal: one batch


class RecordingScheduler:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def after_append(
        self, game_id: str, version: int, *, game: str, seats: Sequence[Mapping[str, Any]],
        to_act: Sequence[int], over: bool,
    ) -> None:
        self.calls.append({"game_id": game_id, "version": version, "game": game,
                           "seats": list(seats), "to_act": list(to_act), "over": over})


class CountingStore(InMemoryEventStore):
    """Counts the store calls a use case makes (each is one round trip on Redis)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def fetch(self, game_id: str, after: int, idempotency_key: str | None = None) -> Any:
        self.calls.append(("fetch", after))
        return super().fetch(game_id, after, idempotency_key)

    def append(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(("append", args[1]))
        return super().append(*args, **kwargs)

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> Any:
        self.calls.append(("read", after))
        return super().read(game_id, after, upto)

    def fetch_latest(self, game_id: str, idempotency_key: str | None = None) -> Any:
        self.calls.append(("fetch_latest", 0))
        return super().fetch_latest(game_id, idempotency_key)

    def meta(self, game_id: str) -> Any:
        self.calls.append(("meta", 0))
        return super().meta(game_id)


def new_game(service: GameService) -> str:
    created = service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s")
    return str(created["id"])


def test_the_scheduler_hears_of_every_append_with_what_bots_need() -> None:
    scheduler = RecordingScheduler()
    service = GameService(InMemoryEventStore(), scheduler, games=GAMES)
    game_id = new_game(service)
    service.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    first, second = scheduler.calls
    assert first == {
        "game_id": game_id, "version": DEALT, "game": "fake", "to_act": [0], "over": False,
        "seats": [{"seat": 0, "type": "bot", "name": "random", "bot": "random"},
                  {"seat": 1, "type": "bot", "name": "greedy", "bot": "greedy"}],
    }
    assert second["version"] == DEALT + 1 and second["to_act"] == [1]


def test_the_scheduler_hears_that_a_game_is_over() -> None:
    scheduler = RecordingScheduler()
    service = GameService(InMemoryEventStore(), scheduler, games=GAMES)
    game_id = new_game(service)
    for step, (seat, card) in enumerate(((0, "AS"), (1, "KD"), (0, "9H"), (1, "TC"))):
        service.submit_action(game_id, seat, {"type": "play", "card": card}, DEALT + step)
    assert scheduler.calls[-1]["over"] is True and scheduler.calls[-1]["to_act"] == []


def test_a_failing_scheduler_does_not_undo_the_action() -> None:
    class Broken(NoScheduler):
        def after_append(self, *args: Any, **kwargs: Any) -> None:
            raise RuntimeError("queue down")

    service = GameService(InMemoryEventStore(), Broken(), games=GAMES)
    game_id = new_game(service)
    result = service.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert result["version"] == DEALT + 1


def test_an_action_on_a_current_fold_costs_one_append() -> None:
    store = CountingStore()
    service = GameService(store, games=GAMES)
    game_id = new_game(service)
    service.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert store.calls == [("append", DEALT)]


def test_an_action_on_a_cold_process_costs_one_fetch_and_one_append() -> None:
    store = CountingStore()
    game_id = new_game(GameService(store, games=GAMES))
    store.calls.clear()
    cold = GameService(store, games=GAMES)
    cold.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert store.calls == [("fetch_latest", 0), ("append", DEALT)]


def stale_second_process() -> tuple[CountingStore, GameService, str]:
    """A game, a process whose fold is one action behind (the other process played it)."""
    store = CountingStore()
    one, two = GameService(store, games=GAMES), GameService(store, games=GAMES)
    game_id = new_game(one)
    two.view(game_id, 0)
    one.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    store.calls.clear()
    return store, two, game_id


def test_a_seats_first_action_on_a_cold_process_costs_one_read_and_one_append() -> None:
    store = CountingStore()
    one = GameService(store, games=GAMES)
    seats = [{"type": "open"}, {"type": "bot", "bot": "greedy"}]
    game_id = one.create_game("fake", seats, deal=DEAL, dealer=1, seed="s")["id"]
    token = one.join_seat(game_id, 0, "ann")["token"]
    version = one.view(game_id, 0)["version"]
    store.calls.clear()
    cold = GameService(store, games=GAMES)
    seat = cold.seat_for_token(game_id, token)  # the read that checks the token warms the fold
    cold.submit_action(game_id, seat, {"type": "play", "card": "AS"}, version)
    assert store.calls == [("fetch_latest", 0), ("append", version)]


def test_a_conflict_on_a_stale_fold_catches_the_fold_up_in_the_same_round_trip() -> None:
    store, two, game_id = stale_second_process()
    with pytest.raises(VersionConflict) as err:
        two.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert err.value.current == DEALT + 1 and store.calls == [("append", DEALT)]
    assert two.submit_action(game_id, 1, {"type": "play", "card": "KD"}, DEALT + 1)["version"]
    assert store.calls == [("append", DEALT), ("append", DEALT + 1)]  # no fetch: caught up


def test_a_stale_fold_of_a_settled_game_catches_up_with_one_read_of_the_newer_events() -> None:
    store, two, game_id = stale_second_process()
    assert two.submit_action(game_id, 1, {"type": "play", "card": "KD"}, DEALT + 1)["version"]
    assert store.calls == [("read", DEALT), ("append", DEALT + 1)]  # no fetch of the meta


def test_another_process_folds_only_the_events_it_has_not_seen() -> None:
    store = CountingStore()
    writer = GameService(store, games=GAMES)
    reader = GameService(store, games=GAMES)
    game_id = new_game(writer)
    assert reader.view(game_id, 0)["version"] == DEALT
    writer.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    store.calls.clear()
    assert reader.view(game_id, 1)["version"] == DEALT + 1
    assert store.calls == [("fetch", DEALT)]


def test_a_stale_cache_still_detects_a_version_conflict() -> None:
    store = InMemoryEventStore()
    one, two = GameService(store, games=GAMES), GameService(store, games=GAMES)
    game_id = new_game(one)
    two.view(game_id, 0)
    one.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    with pytest.raises(VersionConflict) as err:
        two.submit_action(game_id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert err.value.current == DEALT + 1


def test_a_tampered_event_is_detected_when_the_game_is_read() -> None:
    store = InMemoryEventStore()
    service = GameService(store, games=GAMES)
    game_id = new_game(service)
    forged = {"type": "fake.CardsDealt", "schema": 1, "hands": [["AS", "KD"], ["9H", "TC"]]}
    store.tamper(game_id, DEALT, {"event": canonical_json(forged)})
    assert not store.verify_chain(game_id).ok
    with pytest.raises(ChainBroken):
        GameService(store, games=GAMES).view(game_id, 0)


def test_a_tampered_stream_is_an_integrity_problem_over_http() -> None:
    store = InMemoryEventStore()
    game_id = new_game(GameService(store, games=GAMES))
    store.tamper(game_id, 1, {"prev_hash": "f" * 64})
    response = make_app(store).test_client().get(f"/games/{game_id}")
    assert response.status_code == 500 and response.json["code"] == "integrity_error"


class CrashingFake(type(GAMES["fake"])):  # type: ignore[misc]
    """The fake game with bugs: decide and start crash on some inputs."""

    def decide(self, state: Any, seat: int, action: Any) -> Any:
        if action.get("card") == "9H" or "boom" in action:
            raise KeyError("bug")
        return super().decide(state, seat, action)

    def start(self, setup: Any) -> Any:
        if setup.options.get("hand_size") == 5:
            raise TypeError("bug")
        return super().start(setup)


def test_a_rules_crash_on_a_malformed_action_is_refused_as_invalid() -> None:
    service = GameService(InMemoryEventStore(), games={"fake": CrashingFake()})
    game_id = new_game(service)
    with pytest.raises(InvalidAction):
        service.submit_action(game_id, 0, {"type": "play", "card": "AS", "boom": 1}, DEALT)
    with pytest.raises(KeyError):  # a legal action that crashes is a bug, not the caller's
        service.submit_action(game_id, 0, {"type": "play", "card": "9H"}, DEALT)
    with pytest.raises(TypeError):  # a crash in start is a bug too: not an invalid setup
        service.create_game("fake", BOTS, options={"hand_size": 5})


def test_a_crash_in_start_is_a_logged_500_and_creates_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = InMemoryEventStore()
    app = make_app(store)
    app.extensions["cardroom"].rulebook.games = {"fake": CrashingFake()}
    seats = [{"type": "bot", "bot": "random"}] * 2
    body = {"game": "fake", "seats": seats, "options": {"hand_size": 5}}
    with caplog.at_level(logging.ERROR):
        response = app.test_client().post("/games", json=body)
    assert response.status_code == 500 and response.json["code"] == "internal_error"
    assert any(r.exc_info and isinstance(r.exc_info[1], TypeError) for r in caplog.records)
    assert store.list_games() == []
    fine = app.test_client().post("/games", json={**body, "options": {"hand_size": 3}})
    assert fine.status_code == 201, fine.json


def test_bots_are_asked_only_for_the_seat_the_game_waits_on_not_for_optional_moves() -> None:
    # Sixty-Six with any-time declaring: both seats may act (the other may declare out),
    # but only the seat whose turn it is is awaited; the public summary says the same.
    from domain.registry import all_games

    scheduler = RecordingScheduler()
    service = GameService(InMemoryEventStore(), scheduler, games=all_games())
    created = service.create_game("sixty_six", BOTS, seed="s", dealer=0)
    loaded = service.load(created["id"])
    assert loaded.game.seats_to_act(loaded.state) == (0, 1)
    assert scheduler.calls[-1]["to_act"] == [1]  # the non-dealer leads
    assert created["to_act"] == [1]
    assert service.summary(created["id"])["to_act"] == [1]


class FlakyScheduler(RecordingScheduler):
    """Fails its first ``failures`` calls, as a Redis outage would."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    def after_append(self, game_id: str, version: int, **kwargs: Any) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("injected: the queue is unreachable")
        super().after_append(game_id, version, **kwargs)


def test_a_create_retried_after_a_crash_before_its_listing_lists_and_schedules_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, scheduler = InMemoryEventStore(), RecordingScheduler()
    service = GameService(store, scheduler, games=GAMES)
    with monkeypatch.context() as patch:
        patch.setattr(store, "_list_game", lambda meta: (_ for _ in ()).throw(OSError("crash")))
        with pytest.raises(OSError):
            service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s", idempotency_key="k")
    assert store.list_games() == [] and scheduler.calls == []  # half done: unlisted, idle
    again = service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s", idempotency_key="k")
    assert [m.id for m in store.list_games()] == [again["id"]]
    assert [(c["game_id"], c["version"], c["to_act"]) for c in scheduler.calls] == [
        (again["id"], DEALT, [0])
    ]
    assert store.unsettled(before=1e12) == []
    service.create_game("fake", BOTS, deal=DEAL, dealer=1, seed="s", idempotency_key="k")
    assert len(scheduler.calls) == 1  # a settled create is not scheduled again


def test_a_create_whose_first_scheduling_failed_stays_unsettled_until_completed() -> None:
    store, scheduler = InMemoryEventStore(), FlakyScheduler(failures=1)
    service = GameService(store, scheduler, games=GAMES)
    game_id = new_game(service)  # listed, but its first bot turn was never queued
    assert [m.id for m in store.list_games()] == [game_id] and scheduler.calls == []
    assert store.unsettled(before=1e12) == [game_id]
    assert service.complete_create(game_id)  # what the sweeper does
    assert [c["version"] for c in scheduler.calls] == [DEALT]
    assert store.unsettled(before=1e12) == [] and not service.complete_create(game_id)


def test_a_fold_cached_between_a_join_and_its_token_record_answers_with_the_seat_s_name() -> None:
    """Another process may fold a game after a join's append and before the seat's token and
    name are recorded; while its cached metadata shows a seat open, it reads the metadata again
    before it answers, rather than name the seat from what it cached."""
    store = InMemoryEventStore()
    one, two = GameService(store, games=GAMES), GameService(store, games=GAMES)
    seats = [{"type": "open"}, {"type": "bot", "bot": "greedy"}]
    game_id = one.create_game("fake", seats, deal=DEAL, dealer=1, seed="s")["id"]
    record = store.join

    def join_seen_midway(*args: Any, **kwargs: Any) -> Any:
        two.view(game_id, 1)  # the other process folds the game between the two steps
        return record(*args, **kwargs)

    store.join = join_seen_midway  # type: ignore[method-assign]
    one.join_seat(game_id, 0, "ann")
    version = one.view(game_id, 0)["version"]
    answered = two.submit_action(game_id, 0, {"type": "play", "card": "AS"}, version)
    assert answered["view"]["names"][0] == "ann"
    assert two.view(game_id, 0)["view"]["names"][0] == "ann"
