"""The action endpoint's hot path (WSGI before Flask, ``service.api.hotpath``) answers exactly
what the documented flask-smorest view does, and hands whatever it does not take as it is to
that view."""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any

import pytest
from werkzeug.test import EnvironBuilder

from service import app as app_module
from service import narration, responses
from service.api import actions, hotpath, schemas
from service.api.deps import EXTENSION
from service.json_ready import json_ready
from service.store import InMemoryEventStore
from service.store.records import salt_of
from tests.support.api import Table, make_app
from tests.support.threads import in_parallel

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
DEALT = 5
HEX = re.compile("[0-9a-f]{64}")


def two_tables(monkeypatch: pytest.MonkeyPatch) -> tuple[Table, Table]:
    direct = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)
    with monkeypatch.context() as patch:
        patch.setattr(app_module, "install_hot_path", lambda app: None)  # the view only
        generic = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)
    return direct, generic


def same_answer(one: Any, two: Any) -> None:
    assert one.status_code == two.status_code
    assert one.headers.get("ETag") == two.headers.get("ETag")
    assert one.headers["Content-Type"] == two.headers["Content-Type"]
    # each game has its own secret: its own commitment and head hashes
    first, second = (HEX.sub("<hex>", r.get_data(as_text=True)) for r in (one, two))
    assert first == second


def test_the_hot_path_answers_byte_for_byte_as_the_documented_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    direct, generic = two_tables(monkeypatch)
    plays: list[tuple[int, dict[str, Any], int, dict[str, str]]] = [
        (0, {"type": "play", "card": "AS"}, DEALT, {"Idempotency-Key": "k1"}),
        (0, {"type": "play", "card": "AS"}, DEALT, {"Idempotency-Key": "k1"}),  # retried
        (1, {"type": "play", "card": "KD"}, DEALT, {}),  # stale: 409
        (1, {"type": "play", "card": "QQ"}, DEALT + 1, {}),  # refused by the rules
        (1, {"type": "play", "card": "KD", "seat": 1}, DEALT + 1, {"If-Match": '"6"'}),
    ]
    for seat, action, version, headers in plays:
        same_answer(direct.act(seat, action, version, **headers),
                    generic.act(seat, action, version, **headers))  # fmt: skip


@pytest.mark.parametrize(
    "body",
    [
        {"type": 7, "expected_version": DEALT},
        {"type": "play", "card": "AS", "expected_version": -1},
        {"type": "play", "card": "AS", "expected_version": "5"},
        {"type": "play", "card": "AS", "expected_version": True},
        {"type": "play", "card": "AS", "expected_version": DEALT, "seat": False},
        {"type": "play", "card": "AS", "expected_version": DEALT, "seat": 1},
        {"type": "play", "card": "A\u0000S", "expected_version": DEALT},
        {"type": "play", "card": "AS", "expected_version": 10**30},
        ["not", "an", "object"],
    ],
)
def test_what_the_schemas_refuse_is_refused_as_the_documented_view_does(
    monkeypatch: pytest.MonkeyPatch, body: Any
) -> None:
    direct, generic = two_tables(monkeypatch)
    headers = [{"Authorization": f"Bearer {t.tokens[0]}"} for t in (direct, generic)]
    same_answer(
        direct.client.post(f"/games/{direct.id}/actions", json=body, headers=headers[0]),
        generic.client.post(f"/games/{generic.id}/actions", json=body, headers=headers[1]),
    )


def test_a_plain_action_does_not_go_through_the_generic_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)

    def generic(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the generic view served a plain action")

    monkeypatch.setattr(actions.Actions, "post", generic)
    response = table.act(0, {"type": "play", "card": "AS"}, DEALT, key="k1")
    assert response.status_code == 200 and response.json["version"] == DEALT + 1


def test_the_documented_view_serialises_with_the_endpoint_s_one_encoder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # no second serialiser to keep in step: the view answers with actions.answer, as the hot
    # path does, instead of dumping through the response schema and jsonify
    def no_dump(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the action's result was dumped through the response schema")

    monkeypatch.setattr(app_module, "install_hot_path", lambda app: None)  # the view only
    monkeypatch.setattr(schemas.ActionResultSchema, "dump", no_dump)
    table = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)
    response = table.act(0, {"type": "play", "card": "AS"}, DEALT, **{"If-Match": f'"{DEALT}"'})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_data() == actions.answer(response.json)
    assert response.headers["ETag"] == f'"{DEALT + 1}"'


@pytest.mark.parametrize("limits", [0, 1], ids=["unlimited", "rate-limited"])
def test_a_plain_action_is_played_before_flask(
    monkeypatch: pytest.MonkeyPatch, limits: int
) -> None:
    app = make_app(InMemoryEventStore(), CARDROOM_RATE_LIMITS=limits)
    table = Table(app.test_client(), deal=DEAL, dealer=1)
    hot = app.wsgi_app.app  # behind the bot accounts' limit (limits.BotRequests)
    assert isinstance(hot, hotpath.ActionHotPath)

    def flask(environ: Any, start_response: Any) -> Any:
        raise AssertionError("Flask served a plain action")

    monkeypatch.setattr(hot, "flask", flask)
    response = table.act(0, {"type": "play", "card": "AS"}, DEALT, key="k1")
    assert response.status_code == 200 and response.json["version"] == DEALT + 1
    assert response.headers["ETag"] == f'"{DEALT + 1}"'


def test_names_json_escapes_are_escaped_as_flask_does(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = []
    for hot in (True, False):
        with monkeypatch.context() as patch:
            if not hot:
                patch.setattr(app_module, "install_hot_path", lambda app: None)
            client = make_app(InMemoryEventStore()).test_client()
        body = {"game": "fake", "seats": [{"type": "open"}] * 2, "deal": DEAL, "dealer": 1}
        game = client.post("/games", json=body).json["id"]
        tokens = [client.post(f"/games/{game}/seats/{s}", json={"name": name}).json["token"]
                  for s, name in enumerate(["Zoë", "\u2603 snow"])]  # fmt: skip
        answers.append(client.post(f"/games/{game}/actions",
                                   json={"type": "play", "card": "AS", "expected_version": DEALT},
                                   headers={"Authorization": f"Bearer {tokens[0]}"}))  # fmt: skip
    assert "\\u00eb" in answers[0].get_data(as_text=True)  # the names are in the view
    same_answer(*answers)


def test_the_encoding_is_jsonify_s() -> None:
    from flask import Flask, jsonify

    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    samples = [{"b": 1, "a": ["x", "Zoë", "\x7f", "\u2603", 'q"\\'], "n": None, "t": True},
               {"big": 2**70, "neg": -(2**63)}]  # fmt: skip
    with app.app_context():
        for sample in samples:
            assert actions.encode(sample) == jsonify(sample).get_data()


def test_an_action_s_events_and_view_are_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Encoding the response for the answer again would write each part as orjson writes it,
    # not as it was encoded when the response was made: the spaces below would be gone.
    result = responses.ActionResponse(5, "h" * 64, [(b'{"card": "AS"}', {"card": "AS"})],
                                      (b'{"hand": ["9H"]}', {"hand": ["9H"]}))  # fmt: skip
    assert result == {"version": 6, "head_hash": "h" * 64,
                      "events": [{"version": 6, "event": {"card": "AS"}}],
                      "view": {"hand": ["9H"]}}  # fmt: skip
    answer = actions.answer(result)
    assert b'"event":{"card": "AS"}' in answer and answer.endswith(b'"view":{"hand": ["9H"]}}\n')
    # the rest in the schema's order, as jsonify writes it
    assert answer.startswith(b'{"version":6,"head_hash":"' + b"h" * 64 + b'","events":[{"version')
    dumps = []
    monkeypatch.setattr(hotpath.orjson, "dumps", lambda *a, **k: dumps.append(a) or b"{}")
    actions.answer(result)
    assert len(dumps) == 1  # the response around the parts, once
    # past ASCII (jsonify escapes it, orjson does not), the standard encoder's way instead
    monkeypatch.undo()
    names = responses.ActionResponse(0, None, [], ('{"name":"Zoë"}'.encode(), {"name": "Zoë"}))
    assert actions.answer(names) == b'{"version":0,"events":[],"view":{"name":"Zo\\u00eb"}}\n'


def test_an_action_response_is_what_json_ready_makes_of_it() -> None:
    table = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)
    service = table.client.application.extensions[EXTENSION]
    result = service.submit_action(table.id, 0, {"type": "play", "card": "AS"}, DEALT)
    assert isinstance(result, responses.ActionResponse)
    loaded = service.load(table.id)
    rules, salted = loaded.game, bool(salt_of(loaded.meta))
    made = json_ready({
        "version": loaded.version,
        **({"head_hash": loaded.head_hash} if salted else {}),
        "events": [{"version": s.version, "event": rules.redact(rules.codec.decode(s.event), 0)}
                   for s in service.store.read(table.id, DEALT, loaded.version)],
        "view": narration.for_people(rules.view(loaded.state, 0), loaded.meta),
    })  # fmt: skip
    assert result["events"] and result == made
    assert json.dumps(result) == json.dumps(made)  # keys in the same order too
    assert responses.render_action(service.store, loaded, 0, loaded.version) == made  # a retry


def test_a_plain_action_s_connection_waits_a_turn_of_the_event_loop_once_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server writes the body, then closes it: only then does the hot path yield (a
    gevent worker's ``time.sleep(0)``), so one connection is served at most once a turn of the
    event loop (docs/decisions.md)."""
    app = make_app(InMemoryEventStore())
    table = Table(app.test_client(), deal=DEAL, dealer=1)
    environ = EnvironBuilder(
        path=f"/games/{table.id}/actions", method="POST", headers=table.headers(0),
        json={"type": "play", "card": "AS", "expected_version": DEALT},
    ).get_environ()  # fmt: skip
    slept: list[float] = []
    monkeypatch.setattr(hotpath.time, "sleep", slept.append)
    started: list[str] = []
    body = app.wsgi_app(environ, lambda status, headers: started.append(status))
    assert started == ["200 OK"] and slept == []
    assert json.loads(b"".join(body))["version"] == DEALT + 1 and slept == []
    body.close()  # type: ignore[attr-defined]  # as the server does once it wrote the body
    assert slept == [0]


@pytest.mark.parametrize(("slots", "most"), [(0, 4), (1, 1), (2, 2)])
def test_a_web_process_plays_at_most_its_slots_of_actions_at_once(
    monkeypatch: pytest.MonkeyPatch, slots: int, most: int
) -> None:
    """Four plain actions on four games at once: with ``CARDROOM_ACTION_SLOTS`` N at most N
    are played together, the others wait for a slot; every one is answered."""
    app = make_app(InMemoryEventStore(), CARDROOM_ACTION_SLOTS=slots)
    tables = [Table(app.test_client(), deal=DEAL, dealer=1) for _ in range(4)]
    lock, playing, seen = threading.Lock(), [0], [0]
    real = hotpath.play

    def play(*args: Any, **kwargs: Any) -> Any:
        with lock:
            playing[0] += 1
            seen[0] = max(seen[0], playing[0])
        time.sleep(0.05)
        try:
            return real(*args, **kwargs)
        finally:
            with lock:
                playing[0] -= 1

    monkeypatch.setattr(hotpath, "play", play)
    answers = in_parallel(
        4, lambda i: tables[i].act(0, {"type": "play", "card": "AS"}, DEALT).status_code
    )
    assert answers == [200] * 4
    assert seen[0] == most
