"""Clocks on a real Redis: enforcers racing each other (jobs, timers, sweepers in several
processes) record a timeout once; a person's move racing the timeout wins or loses whole."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from service.api.deps import EXTENSION
from service.games import GameService
from tests.support.api import make_app
from tests.support.redis_server import delete_namespace, redis_url, unique_namespace
from tests.support.threads import in_parallel

pytestmark = pytest.mark.integration

PROCESSES = 6
LATER = 1_700_000_100.0  # a wall time long past any clock of these games


@pytest.fixture
def services() -> Iterator[list[GameService]]:
    namespace = unique_namespace("it-clock")
    config = {"REDIS_URL": redis_url(), "CARDROOM_NAMESPACE": namespace}
    apps = [make_app(redis=True, **config) for _ in range(PROCESSES)]
    for app in apps:
        app.extensions[EXTENSION]._clock = lambda: 1_700_000_000.0
    yield [app.extensions[EXTENSION] for app in apps]
    delete_namespace(redis.Redis.from_url(redis_url()), namespace)


def clocked(service: GameService, on_timeout: str) -> tuple[str, list[str]]:
    options = {"turn_seconds": 5, "on_timeout": on_timeout}
    game_id = service.create_game("sixty_six", [{"type": "open"}] * 2, options=options)["id"]
    return game_id, [service.join_seat(game_id, s, f"p{s}")["token"] for s in (0, 1)]


@pytest.mark.parametrize("on_timeout", ["move", "forfeit"])
def test_enforcers_in_every_process_record_one_timeout(
    services: list[GameService], on_timeout: str
) -> None:
    game_id, _ = clocked(services[0], on_timeout)
    version = services[0].load(game_id).version
    for service in services:
        service.load(game_id)  # every process has the game cached at this version
        service._clock = lambda: LATER
    results = in_parallel(PROCESSES, lambda i: services[i].enforce_clock(game_id))
    assert sum(r.startswith("timed out") for r in results) == 1, results
    events = [s.event for s in services[0].store.read(game_id) if s.version > version]
    assert [e["type"] for e in events].count("lifecycle.TimedOut") == 1


def test_a_move_racing_the_timeout_wins_or_loses_whole(services: list[GameService]) -> None:
    game_id, _ = clocked(services[0], "move")
    service = services[0]
    seat = service.summary(game_id)["to_act"][0]
    view = service.view(game_id, seat)
    action = view["view"]["legal_actions"][0]
    services[1]._clock = lambda: LATER

    def work(i: int) -> str:
        if i == 0:
            try:
                service.submit_action(game_id, seat, action, view["version"])
                return "moved"
            except Exception as err:  # the timeout won: a version conflict, nothing appended
                return type(err).__name__
        # the job of that version: the timeout of that version's seat, not of the next one
        return services[1].enforce_clock(game_id, expected_version=view["version"])

    moved, enforced = in_parallel(2, work)
    assert (moved == "moved") != enforced.startswith("timed out"), (moved, enforced)
    history = [s.event["type"] for s in service.store.read(game_id)]
    assert history.count("lifecycle.TimedOut") == (0 if moved == "moved" else 1)
