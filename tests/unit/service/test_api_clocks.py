"""Clocks through the API (docs/service.md, "Clocks"): options on every game, clock events in
the stream, views with the time left, timeouts that move or forfeit once, audited replays."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.lifecycle import Lifecycle
from replays import build_replay
from replays.show import show
from replays.verify import check
from service.api.deps import EXTENSION
from service.games import GameService
from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app
from tests.support.wall import Wall
from tests.unit.service.test_api_games import problem_of

OPEN2 = [{"type": "open"}, {"type": "open"}]
START = 1_700_000_000.0


@pytest.fixture
def wall() -> Wall:
    return Wall(START)


@pytest.fixture
def app(store: InMemoryEventStore, wall: Wall) -> Flask:
    app = make_app(store)
    app.extensions[EXTENSION]._clock = wall
    return app


@pytest.fixture
def service(app: Flask) -> GameService:
    svc: GameService = app.extensions[EXTENSION]
    return svc


@pytest.fixture
def client(app: Flask) -> FlaskClient:  # type: ignore[override]
    return app.test_client()


def clocked_game(client: FlaskClient, game: str = "sixty_six", **options: Any) -> tuple[str, list]:
    body = {"game": game, "seats": OPEN2, "options": {"turn_seconds": 10, **options}}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    tokens = [
        client.post(f"/games/{game_id}/seats/{s}", json={"name": f"p{s}"}).json["token"]
        for s in (0, 1)
    ]
    return game_id, tokens


def view(client: FlaskClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = bearer(token) if token else {}
    return dict(client.get(f"/games/{game_id}/view", headers=headers).json)


def types(store: InMemoryEventStore, game_id: str, after: int = 0) -> list[str]:
    return [s.event["type"] for s in store.read(game_id) if s.version > after]


def replay_of(service: GameService, game_id: str) -> Any:
    loaded = service.load(game_id)
    seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
    outcome = loaded.game.outcome(loaded.state)
    return build_replay(game_id, service.store.entries(game_id), game=loaded.meta.game,
                        seats=seats, outcome=outcome)  # fmt: skip


def test_every_game_lists_the_clock_options_in_the_catalogue(client: FlaskClient) -> None:
    games = client.get("/catalogue").json["games"]
    for game in games:
        options = {o["name"]: o for o in game["options"]}
        assert options["turn_seconds"]["default"] == 0, game["name"]
        assert options["on_timeout"]["choices"] == ["move", "forfeit"]
        assert {"bank_seconds", "increment_seconds"} <= set(options)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"turn_seconds": -1}, "turn_seconds"),
        ({"turn_seconds": "10"}, "turn_seconds"),
        ({"turn_seconds": 5, "bank_seconds": 1.5}, "bank_seconds"),
        ({"turn_seconds": 5, "on_timeout": "wait"}, "on_timeout"),
        ({"bank_seconds": 60}, "bank_seconds"),  # a bank needs a clock
        ({"increment_seconds": 2}, "increment_seconds"),
    ],
)
@pytest.mark.parametrize("game", ["shithead", "sixty_six", "sheepshead"])
def test_bad_clock_options_are_a_problem_naming_the_option(
    client: FlaskClient, store: InMemoryEventStore, game: str, options: dict, field: str
) -> None:
    seats = [{"type": "open"}] * (5 if game == "sheepshead" else 2)
    response = client.post("/games", json={"game": game, "seats": seats, "options": options})
    body = problem_of(response, 422, "invalid_options")
    assert field in body["detail"]
    assert client.get("/games").json["games"] == []


def test_a_table_without_clock_options_has_no_clock(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    created = client.post("/games", json={"game": "sixty_six", "seats": OPEN2}).json
    for s in (0, 1):
        client.post(f"/games/{created['id']}/seats/{s}", json={"name": f"p{s}"})
    assert "clock" not in view(client, created["id"])["view"]
    assert not any(t.startswith("lifecycle.Clock") for t in types(store, created["id"]))
    assert "turn_seconds" not in client.get(f"/games/{created['id']}").json["options"]


def test_the_deal_starts_the_clock_of_the_seat_to_act_and_views_show_the_time_left(
    client: FlaskClient, store: InMemoryEventStore, wall: Wall
) -> None:
    game_id, tokens = clocked_game(client, bank_seconds=30)
    clock_set = store.read(game_id)[-1].event
    assert clock_set["type"] == "lifecycle.ClockSet"
    to_act = client.get(f"/games/{game_id}").json["to_act"]
    assert len(to_act) == 1
    seat = to_act[0]
    start = int(START * 1000)
    assert clock_set["deadlines"][seat] == start + 10_000
    assert clock_set["deadlines"][1 - seat] is None and clock_set["banks"] == [30_000, 30_000]
    wall.now += 4
    shown = view(client, game_id, tokens[1 - seat])["view"]["clock"]
    assert shown["remaining_ms"][seat] == 36_000 and shown["remaining_ms"][1 - seat] == 30_000
    assert client.get(f"/games/{game_id}").json["clock"]["remaining_ms"][seat] == 36_000


def test_a_late_move_is_paid_from_the_bank_and_earns_the_increment(
    client: FlaskClient, store: InMemoryEventStore, wall: Wall
) -> None:
    game_id, tokens = clocked_game(client, bank_seconds=30, increment_seconds=2)
    seat = client.get(f"/games/{game_id}").json["to_act"][0]
    current = view(client, game_id, tokens[seat])
    wall.now += 13  # 3 s past the turn's 10
    action = {**current["view"]["legal_actions"][0], "expected_version": current["version"]}
    moved = client.post(f"/games/{game_id}/actions", json=action, headers=bearer(tokens[seat]))
    assert moved.status_code == 200, moved.json
    last = [s.event for s in store.read(game_id) if s.event["type"] == "lifecycle.ClockSet"][-1]
    assert last["banks"][seat] == 30_000 - 3_000 + 2_000
    assert last["at"] == int(wall.now * 1000)
    # the clock event reaches the seats' own event lists (lifecycle events are public)
    seen = client.get(f"/games/{game_id}/events?after=0", headers=bearer(tokens[1 - seat])).json
    assert any(e["event"] == last for e in seen["events"])


def test_a_timeout_moves_for_the_seat_once_and_the_replay_audit_re_derives_the_move(
    client: FlaskClient, service: GameService, store: InMemoryEventStore, wall: Wall
) -> None:
    game_id, _tokens = clocked_game(client)
    seat = client.get(f"/games/{game_id}").json["to_act"][0]
    version = service.load(game_id).version
    wall.now += 9.9
    assert service.enforce_clock(game_id).startswith("not due")
    assert service.load(game_id).version == version
    wall.now += 0.1
    assert service.enforce_clock(game_id).startswith(f"timed out seat {seat}")
    assert types(store, game_id, version)[0] == "lifecycle.TimedOut"
    assert types(store, game_id, version)[1].startswith("sixty_six.")
    again = service.enforce_clock(game_id, expected_version=version)
    assert again.startswith("moved on") and service.load(game_id).version > version
    timed = [s.event for s in store.read(game_id) if s.event["type"] == "lifecycle.TimedOut"]
    assert len(timed) == 1 and timed[0]["seat"] == seat
    while not service.load(game_id).over:  # nobody ever moves: the clock plays the game out
        wall.now += 11
        assert service.enforce_clock(game_id).startswith("timed out")
    replay = replay_of(service, game_id)
    assert check(replay).ok  # the audit re-derives every default move, with no bot
    commands = [b.command for b in replay.batches if b.command["kind"] == "timeout"]
    assert commands and all(c["rule"] == 1 for c in commands)
    step = next(s.version for s in store.read(game_id) if s.event["type"] == "lifecycle.TimedOut")
    assert f"seat {seat} ran out of time" in show(replay, step)  # replays show the timeout


def test_a_forged_timeout_move_fails_the_audit(
    client: FlaskClient,
    service: GameService,
    store: InMemoryEventStore,
    wall: Wall,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def another_play(rules: Lifecycle[Any], state: Any, seat: int, *rest: Any) -> Any:
        chosen = real(rules, state, seat, *rest)
        legal = rules.legal_actions(state, seat)
        return next(a for a in legal if a != chosen and a["type"] == "play")

    real = Lifecycle.default_move
    game_id, tokens = clocked_game(client)
    version = service.load(game_id).version
    wall.now += 10
    monkeypatch.setattr(Lifecycle, "default_move", another_play)
    assert service.enforce_clock(game_id).startswith("timed out")
    monkeypatch.undo()
    forged = store.read(game_id)[version + 1]  # after TimedOut: a move the rule did not make
    assert forged.event["type"] == "sixty_six.CardPlayed"
    now = service.load(game_id).version
    resign = {"type": "resign", "expected_version": now}
    assert client.post(f"/games/{game_id}/actions", json=resign,
                       headers=bearer(tokens[0])).status_code == 200  # fmt: skip
    report = check(replay_of(service, game_id))
    assert not report.ok
    assert report.bad_version == forged.version and "CardPlayed" in report.reason


def test_on_timeout_forfeit_ends_the_game_scored_as_a_resignation(
    client: FlaskClient, service: GameService, store: InMemoryEventStore, wall: Wall
) -> None:
    game_id, _tokens = clocked_game(client, game="shithead", on_timeout="forfeit")
    to_act = client.get(f"/games/{game_id}").json["to_act"]
    wall.now += 10
    result = service.enforce_clock(game_id)
    seat = min(to_act)
    assert result.startswith(f"timed out seat {seat}")
    summary = client.get(f"/games/{game_id}").json
    assert summary["status"] == "over" and "clock" not in summary  # no time runs any more
    assert "remaining_ms" not in view(client, game_id)["view"]["clock"]
    outcome = summary["outcome"]
    assert outcome == {"reason": "timed_out", "timed_out": seat,
                       "winners": [1 - seat], "losers": [seat]}  # fmt: skip
    assert types(store, game_id)[-2:] == ["lifecycle.TimedOut", "lifecycle.SecretRevealed"]
    assert check(replay_of(service, game_id)).ok
    assert service.enforce_clock(game_id) == "no clock runs"


ACTION_LIMIT = 3000


@pytest.mark.parametrize(("game", "players"), [("shithead", 3), ("sixty_six", 2),
                                               ("sheepshead", 5)])  # fmt: skip
def test_a_table_nobody_plays_is_played_to_its_end_by_the_clock_and_audits(
    game: str, players: int
) -> None:
    """Whatever the deal: default moves may go round long enough (Shithead's pile picked up
    again and again: over 3,000 moves in about one deal in ten of three seats) for the game's
    action limit, a bound every game has, to end it."""
    wall = Wall(START)
    service = GameService(InMemoryEventStore(), clock=wall)
    seats = [{"type": "open"}] * players
    options = {"turn_seconds": 5, "action_limit": ACTION_LIMIT}
    game_id = service.create_game(game, seats, options=options)["id"]
    for seat in range(players):
        service.join_seat(game_id, seat, f"p{seat}")
    for _ in range(ACTION_LIMIT):  # each timeout is an action at least
        if service.load(game_id).over:
            break
        wall.now += 5
        assert service.enforce_clock(game_id).startswith("timed out")
    assert service.summary(game_id)["outcome"]["reason"] in ("finished", "action_limit")
    assert check(replay_of(service, game_id)).ok
