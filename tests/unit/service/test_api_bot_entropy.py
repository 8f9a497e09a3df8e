"""An HTTP bot's own entropy (issue 30): a bot account's seat is seated at creation, its
entropy awaited; its stream asks for it (``entropyWanted``), ``POST
/games/{id}/seats/{seat}/entropy`` with the bot's token records it (``source: "client"``), the
deal waits for it, and the replay audit re-runs it. Bad or second posts change nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.chain import link_hash
from domain.fairness import chain_salt
from replays import Replay, build_replay, dumps, loads
from replays.format import Batch, RecordedEvent
from replays.verify import check
from service.api.deps import EXTENSION
from service.games import GameService
from service.store import InMemoryEventStore
from tests.support.api import bearer, make_app

ME = {"type": "bot", "bot": "mybot"}
OPEN = {"type": "open"}
OWN, OTHER = "ab" * 32, "cd" * 32


@pytest.fixture
def client() -> FlaskClient:
    return make_app(InMemoryEventStore()).test_client()


def _service(client: FlaskClient) -> GameService:
    return client.application.extensions[EXTENSION]  # type: ignore[no-any-return]


def _account(client: FlaskClient, name: str = "mybot") -> str:
    return str(client.post("/bots", json={"name": name}).json["token"])


def _game(client: FlaskClient, seats: list[dict[str, Any]], **options: Any) -> str:
    body = {"game": "sixty_six", "seats": seats, "options": {"game_target": 1, **options}}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    return str(response.json["id"])


def _post(client: FlaskClient, token: str | None, game_id: str, seat: int, value: Any) -> Any:
    headers = bearer(token) if token else {}
    return client.post(f"/games/{game_id}/seats/{seat}/entropy", json={"entropy": value},
                       headers=headers)  # fmt: skip


def _events(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    page = client.get(f"/games/{game_id}/events?after=0").json
    return [item["event"] for item in page["events"]]


def _messages(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    text = client.get("/bots/stream", headers=bearer(token)).get_data(as_text=True)
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def test_the_deal_waits_for_the_bot_s_entropy_and_its_stream_asks_for_it(
    client: FlaskClient,
) -> None:
    token = _account(client)
    game_id = _game(client, [OPEN, ME])
    awaited = [e for e in _events(client, game_id) if e["type"] == "lifecycle.EntropyAwaited"]
    assert [e["seat"] for e in awaited] == [1]
    client.post(f"/games/{game_id}/seats/0", json={"name": "ann", "entropy": "12" * 32})
    summary = client.get(f"/games/{game_id}").json  # every person sat: listed as playing
    assert summary["awaiting_entropy"] == [1] and summary["version"] == 3  # no deal yet
    assert summary["to_act"] == [] and summary["seats"][1]["bot"] == "mybot"
    assert client.get(f"/games/{game_id}/view?seat=1", headers=bearer(token)).json["view"][
        "awaiting_entropy"] == [1]  # fmt: skip
    told = [m for m in _messages(client, token) if m.get("game") == game_id]
    assert told[:2] == [{"type": "gameStart", "game": game_id, "seats": [1]},
                        {"type": "entropyWanted", "game": game_id, "seat": 1}]  # fmt: skip
    assert not any(m["type"] == "yourTurn" for m in told)

    answer = _post(client, token, game_id, 1, OWN)
    assert answer.status_code == 200, answer.json
    assert answer.json["entropy"] == OWN and answer.json["source"] == "client"
    assert answer.json["dealt"] is True and answer.json["head_hash"]
    filled = [e for e in _events(client, game_id) if e["type"] == "lifecycle.SeatFilled"]
    assert {"seat": 1, "entropy": OWN, "source": "client"}.items() <= filled[-1].items()
    summary = client.get(f"/games/{game_id}").json
    assert summary["status"] == "playing" and summary["awaiting_entropy"] == []
    assert summary["to_act"], "dealt: someone is to act"
    again = [m for m in _messages(client, token) if m.get("game") == game_id]
    assert not any(m["type"] == "entropyWanted" for m in again)


def test_the_same_value_again_is_answered_and_another_is_refused(client: FlaskClient) -> None:
    token = _account(client)
    game_id = _game(client, [OPEN, ME])
    first = _post(client, token, game_id, 1, OWN)
    assert first.status_code == 200 and first.json["dealt"] is False  # a person is still to sit
    version = first.json["version"]
    again = _post(client, token, game_id, 1, OWN)
    assert again.status_code == 200 and again.json == first.json
    other = _post(client, token, game_id, 1, OTHER)
    assert other.status_code == 409 and other.json["code"] == "entropy_posted"
    assert other.headers["Content-Type"] == "application/problem+json"
    assert client.get(f"/games/{game_id}").json["version"] == version  # nothing recorded


def test_bad_input_and_the_wrong_token_change_nothing(client: FlaskClient) -> None:
    token = _account(client)
    other = _account(client, "otherbot")
    game_id = _game(client, [OPEN, ME, {"type": "bot", "bot": "heuristic"}][:2])
    person = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).json["token"]
    version = client.get(f"/games/{game_id}").json["version"]
    refusals = [
        (_post(client, token, game_id, 1, "xyz"), 422),  # not 64 lowercase hex digits
        (_post(client, token, game_id, 1, OWN.upper()), 422),
        (client.post(f"/games/{game_id}/seats/1/entropy", json={}, headers=bearer(token)), 422),
        (_post(client, None, game_id, 1, OWN), 401),  # no token
        (_post(client, other, game_id, 1, OWN), 401),  # a bot the game does not seat
        (_post(client, person, game_id, 1, OWN), 403),  # a person's token, the bot's seat
        (_post(client, token, game_id, 0, OWN), 403),  # the bot's token, the person's seat
        (_post(client, person, game_id, 0, OWN), 409),  # a person's seat awaits no entropy
        (_post(client, token, game_id, 7, OWN), 404),
        (_post(client, token, "nogame", 1, OWN), 404),
    ]
    for answer, status in refusals:
        assert answer.status_code == status, (status, answer.json)
        assert answer.headers["Content-Type"] == "application/problem+json"
        assert answer.json["code"]
    assert refusals[7][0].json["code"] == "entropy_not_awaited"
    assert client.get(f"/games/{game_id}").json["version"] == version


def test_only_a_bot_account_s_seat_awaits_its_entropy(client: FlaskClient) -> None:
    _account(client)
    game_id = _game(client, [{"type": "bot", "bot": "heuristic"}, ME])
    summary = client.get(f"/games/{game_id}").json
    assert summary["awaiting_entropy"] == [1] and summary["to_act"] == []
    filled = [e for e in _events(client, game_id) if e["type"] == "lifecycle.SeatFilled"]
    assert [(e["seat"], e["source"]) for e in filled] == [(0, "server")]  # the built-in bot's
    plain = _game(client, [{"type": "bot", "bot": "heuristic"}, {"type": "bot", "bot": "random"}])
    assert client.get(f"/games/{plain}").json["awaiting_entropy"] == []
    assert client.get(f"/games/{plain}").json["to_act"] != []


def _replay(client: FlaskClient, game_id: str) -> Any:
    service = _service(client)
    loaded = service.load(game_id)
    seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
    return build_replay(game_id, service.store.entries(game_id), game=loaded.meta.game,
                        seats=seats, outcome=loaded.game.outcome(loaded.state))  # fmt: skip


def _finish(client: FlaskClient, game_id: str, person: str) -> None:
    """The person resigns: the game ends and the secret is revealed."""
    version = client.get(f"/games/{game_id}").json["version"]
    body = {"type": "resign", "expected_version": version}
    assert client.post(f"/games/{game_id}/actions", json=body,
                       headers=bearer(person)).status_code == 200  # fmt: skip


def _over_with_the_bots_own_entropy(client: FlaskClient) -> Replay:
    """The replay of a game whose bot seat sent its own entropy, over once its person resigned."""
    token = _account(client)
    game_id = _game(client, [OPEN, ME])
    person = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).json["token"]
    _post(client, token, game_id, 1, OWN)
    _finish(client, game_id, person)
    return _replay(client, game_id)


def test_the_replay_proves_the_bot_s_entropy_is_in_the_seed(client: FlaskClient) -> None:
    replay = _over_with_the_bots_own_entropy(client)
    report = check(replay)
    assert report.ok, report
    batches = [b.command for b in replay.batches]
    assert {"kind": "entropy", "seat": 1, "entropy": OWN} in batches
    assert check(loads(dumps(replay))).ok


def _forged(replay: Replay, change: Any) -> Replay:
    """The replay with ``change(command, events)`` applied to every batch and its salted chain
    made consistent again (a forger who knows the secret: the operator)."""
    salt = chain_salt(str(replay.header.secret))
    prev, built = replay.batches[0].events[0].prev_hash, []
    for batch in replay.batches:
        command, events = change(dict(batch.command), [dict(e.event) for e in batch.events])
        recorded = []
        for event, old in zip(events, batch.events, strict=True):
            digest = link_hash(prev, event, salt)
            recorded.append(RecordedEvent(version=old.version, event=event, prev_hash=prev,
                                          hash=digest))  # fmt: skip
            prev = digest
        built.append(Batch(command=command, events=tuple(recorded)))
    return replace(replay, header=replace(replay.header, head_hash=prev), batches=tuple(built))


def test_the_audit_refuses_a_bot_s_entropy_that_is_not_the_one_in_the_seed_or_not_its_own(
    client: FlaskClient,
) -> None:
    replay = _over_with_the_bots_own_entropy(client)
    assert check(_forged(replay, lambda c, e: (c, e))).ok  # the forger's rechaining is sound

    def other_value(command: dict[str, Any], events: list[dict[str, Any]]) -> Any:
        if command["kind"] == "entropy":  # another value than the one the deal was made from
            command["entropy"] = OTHER
            events[0] = {**events[0], "entropy": OTHER}
        return command, events

    def server_s(command: dict[str, Any], events: list[dict[str, Any]]) -> Any:
        if command["kind"] == "entropy":  # the bot's seat said to be filled by the server
            command = {"kind": "join", "seat": 1, "entropy": OWN, "source": "server"}
            events[0] = {**events[0], "source": "server"}
        return command, events

    def source_only(command: dict[str, Any], events: list[dict[str, Any]]) -> Any:
        if command["kind"] == "entropy":
            events[0] = {**events[0], "source": "server"}
        return command, events

    deal = next(b for b in replay.batches if b.command["kind"] == "entropy").events[0].version
    for change in (other_value, server_s, source_only):
        report = check(_forged(replay, change))
        assert not report.ok and report.bad_version is not None, change.__name__
        assert report.bad_version >= deal, report.reason


def test_a_bot_that_never_sends_gets_the_fallback_fixed_at_creation(client: FlaskClient) -> None:
    _account(client)
    game_id = _game(client, [OPEN, ME])
    person = client.post(f"/games/{game_id}/seats/0", json={"name": "ann"}).json["token"]
    fallback = next(e["fallback"] for e in _events(client, game_id)
                    if e["type"] == "lifecycle.EntropyAwaited")  # fmt: skip
    service = _service(client)
    assert service.move_on_idle(game_id, service.load(game_id).version) == [1]
    filled = [e for e in _events(client, game_id) if e["type"] == "lifecycle.SeatFilled"]
    assert {"seat": 1, "entropy": fallback, "source": "server"}.items() <= filled[-1].items()
    summary = client.get(f"/games/{game_id}").json
    assert summary["status"] == "playing" and summary["awaiting_entropy"] == []
    _finish(client, game_id, person)
    assert check(_replay(client, game_id)).ok
