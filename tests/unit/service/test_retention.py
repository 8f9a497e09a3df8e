"""Retention: a finished game leaves the store for the archive once its time has passed, and
the API serves it as before (summary, events, the spectators' stream, replay, verification,
listings); what needs a seat or a live game answers 410 game_archived."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api.deps import EXTENSION
from service.archive import MemoryArchive
from service.games import GameService
from service.retention import Retention
from service.store.memory import InMemoryEventStore
from tests.support.api import Table, make_app


class Club:
    """An app on an in-memory store and archive, with its retention."""

    def __init__(self, after: float = 60.0) -> None:
        self.store, self.archive = InMemoryEventStore(), MemoryArchive()
        app = make_app(self.store, archive=self.archive)
        self.client: FlaskClient = app.test_client()
        self.service: GameService = app.extensions[EXTENSION]
        self.now = time.time()
        self.retention = Retention(self.service, self.archive, after, clock=lambda: self.now,
                                   retention=self.store)

    def finished(self, seed: str = "retention") -> Table:
        table = Table(self.client, "sixty_six", options={"game_target": 1}, seed=seed)
        rnd = random.Random(seed)
        while table.summary()["status"] != "over":
            seat, action, version = table.random_move(rnd) or pytest.fail("no move")
            assert table.act(seat, action, version).status_code == 200
        return table

    def reads(self, table: Table) -> dict[str, Any]:
        get = self.client.get
        return {
            "summary": get(f"/games/{table.id}").json,
            "events": get(f"/games/{table.id}/events").json,
            "page": get(f"/games/{table.id}/events?after=3&limit=5").json,
            "replay": get(f"/games/{table.id}/replay").text,
            "step": get(f"/games/{table.id}/replay?at=4&as=1").json,
            "verification": get(f"/games/{table.id}/replay/verification").json,
            "over": get("/games?status=over").json,
            "all": get("/games?game=sixty_six").json,
        }


def test_a_finished_game_moves_to_the_archive_and_reads_as_before() -> None:
    club = Club(after=60)
    table = club.finished()
    live = club.client.post("/games", json={"game": "sixty_six", "seats": [{"type": "open"}] * 2})
    before = club.reads(table)
    assert club.retention.run() == []  # not yet: it ended under a minute ago
    club.now += 61
    assert [(m.game_id, m.outcome) for m in club.retention.run()] == [(table.id, "archived")]
    assert club.store.meta(table.id) is None and club.store.version(table.id) == 0
    assert club.store.replay(table.id) is None and club.store.list_games(status="over") == []
    assert club.store.meta(live.json["id"]) is not None  # a live game stays
    assert club.reads(table) == before
    assert before["verification"]["ok"] is True
    assert [g["id"] for g in before["over"]["games"]] == [table.id]


def test_the_rest_of_an_archived_game_answers_410(client_of_archived: tuple[Club, Table]) -> None:
    club, table = client_of_archived
    for response in (
        club.client.get(f"/games/{table.id}/view"),
        club.client.get(f"/games/{table.id}/view", headers=table.headers(0)),
        club.client.post(f"/games/{table.id}/actions", headers=table.headers(0),
                         json={"type": "resign", "expected_version": 1}),
        club.client.post(f"/games/{table.id}/seats/0", json={"name": "late"}),
        club.client.get(f"/games/{table.id}/events", headers=table.headers(1)),
    ):
        assert response.status_code == 410, response.json
        assert response.json["code"] == "game_archived"
    assert club.client.get("/games/nope").json["code"] == "not_found"
    stream = club.client.get(f"/games/{table.id}/stream").get_data(as_text=True)  # spectators'
    assert stream.endswith(f"event: over\ndata: {{\"version\": {table.summary()['version']}}}\n\n")


@pytest.fixture
def client_of_archived() -> tuple[Club, Table]:
    club = Club(after=0)
    table = club.finished()
    club.now += 1
    assert [m.outcome for m in club.retention.run()] == ["archived"]
    return club, table


def test_a_game_still_played_is_never_archived() -> None:
    club = Club(after=0)
    table = Table(club.client, "sixty_six", seed="still")
    club.now += 3600
    assert club.retention.run() == []
    assert club.retention.archive_game(table.id).outcome == "not over"
    assert club.archive.get(table.id) is None


def test_a_replay_that_does_not_verify_keeps_the_game_in_the_store() -> None:
    club = Club(after=0)
    table = club.finished()
    replay = json.loads(club.client.get(f"/games/{table.id}/replay").text)
    replay["batches"][1]["events"][0]["event"]["role"] = "follow"  # one changed field
    club.store.put_replay(table.id, json.dumps(replay))
    club.now += 1
    (moved,) = club.retention.run()
    assert moved.outcome.startswith("refused: its replay does not verify")
    assert club.store.meta(table.id) is not None and club.archive.get(table.id) is None


def test_archiving_again_after_a_crash_before_the_purge_lists_the_game_once() -> None:
    club = Club(after=0)
    table = club.finished()
    club.now += 1
    club.store.purge, real = (lambda game_id: False), club.store.purge  # type: ignore[method-assign]
    club.retention.run()  # kept by the archive, the purge "crashed"
    club.store.purge = real  # type: ignore[method-assign]
    assert [g["id"] for g in club.client.get("/games").json["games"]] == [table.id]
    assert [m.outcome for m in club.retention.run()] == ["archived"]
    assert [g["id"] for g in club.client.get("/games").json["games"]] == [table.id]
    assert club.store.meta(table.id) is None
