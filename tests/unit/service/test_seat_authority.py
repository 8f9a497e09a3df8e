"""Who holds a seat is the store's word at the moment it matters, never a web process's cached
fold: two apps (two web processes, each with its own cache) on one store; the seat changes hands
through one while the other holds a fold of the game from before."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app
from tests.unit.service.test_api_games import problem_of

REFUSED = {401, 403}


class Process:
    """One web process: its own app, and so its own cache of folds."""

    def __init__(self, store: InMemoryEventStore) -> None:
        self.client: FlaskClient = make_app(store).test_client()

    def view(self, game_id: str, token: str) -> Any:
        return self.client.get(f"/games/{game_id}/view", headers=bearer(token))

    def act(self, game_id: str, token: str, action: dict[str, Any], version: int) -> Any:
        return self.client.post(f"/games/{game_id}/actions", headers=bearer(token),
                                json={**action, "expected_version": version})  # fmt: skip

    def version(self, game_id: str) -> int:
        return int(self.client.get(f"/games/{game_id}").json["version"])

    def reads(self, game_id: str, token: str) -> dict[str, Any]:
        url, auth = f"/games/{game_id}", bearer(token)
        return {
            "view": self.view(game_id, token),
            "events": self.client.get(f"{url}/events", headers=auth),
            "events page": self.client.get(f"{url}/events?after=0&limit=5", headers=auth),
            "stream": self.client.get(f"{url}/stream", headers=auth),
            "stream ticket": self.client.post(f"{url}/stream-tickets", headers=auth),
        }


@pytest.fixture
def processes() -> tuple[Process, Process]:
    store = InMemoryEventStore()
    return Process(store), Process(store)


def _seated(first: Process, second: Process, on_leave: str) -> tuple[str, str, str]:
    """A dealt 2-seat Sixty-Six both processes have cached: (game id, alice's and bob's tokens)."""
    body = {"game": "sixty_six", "seats": [{"type": "open"}] * 2, "seed": "authority",
            "options": {"on_leave": on_leave}}  # fmt: skip
    game_id = first.client.post("/games", json=body).json["id"]
    alice, bob = (first.client.post(f"/games/{game_id}/seats/{s}", json={"name": n}).json["token"]
                  for s, n in ((0, "alice"), (1, "bob")))  # fmt: skip
    for process in (first, second):
        assert process.view(game_id, alice).status_code == 200
    return game_id, alice, bob


def _refused_everywhere(stale: Process, fresh: Process, game_id: str, token: str) -> None:
    """``token`` refused by ``stale`` for every action and read (the current version read from
    ``fresh``: a read of ``stale`` would bring its fold up to date first)."""
    version = fresh.version(game_id)
    for action in ({"type": "resign"}, {"type": "abort"}, {"type": "leave"}):
        answer = stale.act(game_id, token, action, version)
        assert answer.status_code in REFUSED, (action, answer.json)
    for name, answer in stale.reads(game_id, token).items():
        assert answer.status_code in REFUSED, (name, answer.status_code)
    assert fresh.version(game_id) == version


@pytest.mark.parametrize("on_leave", ["open", "bot"])
def test_a_process_that_cached_the_game_before_a_leave_refuses_the_leaver_s_token(
    processes: tuple[Process, Process], on_leave: str
) -> None:
    first, second = processes
    game_id, alice, _ = _seated(first, second, on_leave)
    left = first.act(game_id, alice, {"type": "leave"}, first.version(game_id))
    assert left.status_code == 200, left.json
    if on_leave == "open":
        assert first.client.post(f"/games/{game_id}/seats/0", json={"name": "carol"}).status_code \
            == 201  # fmt: skip
    _refused_everywhere(second, first, game_id, alice)
    problem_of(second.view(game_id, alice), 403, "seat_left")


def test_a_process_that_cached_the_game_before_a_join_accepts_the_new_holder(
    processes: tuple[Process, Process],
) -> None:
    first, second = processes
    game_id, alice, _ = _seated(first, second, "open")
    assert first.act(game_id, alice, {"type": "leave"}, first.version(game_id)).status_code == 200
    assert second.client.get(f"/games/{game_id}").status_code == 200  # cached: seat 0 open
    carol = first.client.post(f"/games/{game_id}/seats/0", json={"name": "carol"}).json["token"]
    for name, answer in second.reads(game_id, carol).items():
        assert answer.status_code in (200, 201), (name, answer.json)
    assert second.view(game_id, carol).json["seat"] == 0
    abort = second.act(game_id, carol, {"type": "abort"}, second.version(game_id))
    assert abort.status_code == 200, abort.json
    _refused_everywhere(second, first, game_id, alice)


def test_a_stream_ticket_stops_working_once_its_seat_changes_hands(
    processes: tuple[Process, Process],
) -> None:
    first, second = processes
    game_id, alice, _ = _seated(first, second, "open")
    ticket = second.client.post(f"/games/{game_id}/stream-tickets", headers=bearer(alice))
    assert ticket.status_code == 201
    url = f"/games/{game_id}/stream?ticket={ticket.json['ticket']}"
    assert second.client.get(url).status_code == 200
    assert first.act(game_id, alice, {"type": "leave"}, first.version(game_id)).status_code == 200
    problem_of(second.client.get(url), 401, "unauthorized")
    first.client.post(f"/games/{game_id}/seats/0", json={"name": "carol"})
    problem_of(second.client.get(url), 401, "unauthorized")


def test_a_seat_s_open_stream_ends_once_the_seat_changes_hands() -> None:
    store = InMemoryEventStore()
    first, second = Process(store), Process(store)
    second.client = make_app(store, CARDROOM_SSE_SECONDS=5).test_client()
    game_id, alice, _ = _seated(first, second, "open")
    leave = threading.Timer(0.3, lambda: first.act(game_id, alice, {"type": "leave"},
                                                   first.version(game_id)))  # fmt: skip
    started = time.monotonic()
    leave.start()
    stream = second.client.get(f"/games/{game_id}/stream", headers=bearer(alice))
    body = b"".join(stream.response)  # type: ignore[arg-type]  # (the stream, to its end)
    leave.join()
    assert time.monotonic() - started < 4  # ended by the leave, not by CARDROOM_SSE_SECONDS
    assert b"lifecycle.SeatLeft" not in body  # nothing after the seat changed hands
