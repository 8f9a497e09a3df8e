"""No string field takes an unpaired surrogate or a control character and no integer field
takes more digits than Python parses: each is a 422 ``invalid_field`` naming the field (these
were 500s), and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.api import Table, make_app

SURROGATE = "\\ud800"  # as written in the JSON text: an unpaired high surrogate
HUGE = "9" * 4301

OPEN2 = '[{"type":"open"},{"type":"open"}]'


@pytest.fixture
def client() -> FlaskClient:
    return make_app().test_client()


def post_raw(client: FlaskClient, path: str, text: str, headers: Any = None) -> Any:
    return client.post(path, data=text, content_type="application/json", headers=headers or {})


def assert_refused(response: Any, field: str) -> None:
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "invalid_field"
    assert response.json["field"] == field
    assert response.json["detail"].startswith(field)


CREATE_CASES = [
    ("seed", f'{{"game":"fake","seats":{OPEN2},"seed":"{SURROGATE}"}}'),
    ("seed", f'{{"game":"fake","seats":{OPEN2},"seed":"a\\u0001b"}}'),
    ("game", f'{{"game":"{SURROGATE}","seats":{OPEN2}}}'),
    ("seats[0].bot", f'{{"game":"fake","seats":[{{"type":"bot","bot":"{SURROGATE}"}}]}}'),
    (
        "seats[1].name",
        f'{{"game":"fake","seats":[{{"type":"open"}},{{"type":"bot","bot":"random",'
        f'"name":"x{SURROGATE}"}}]}}',
    ),
    ("options.\\ud800", f'{{"game":"fake","seats":{OPEN2},"options":{{"{SURROGATE}":1}}}}'),
    ("options.rounds", f'{{"game":"fake","seats":{OPEN2},"options":{{"rounds":"\\u007f"}}}}'),
    (
        "deal.seats[0].hand[1]",
        f'{{"game":"fake","seats":{OPEN2},"deal":{{"seats":[{{"hand":["AS","{SURROGATE}"]}},'
        f'{{"hand":["KD","TC"]}}]}}}}',
    ),
    ("dealer", f'{{"game":"fake","seats":{OPEN2},"dealer":{HUGE}}}'),
    ("options.rounds", f'{{"game":"fake","seats":{OPEN2},"options":{{"rounds":-{HUGE}}}}}'),
]


@pytest.mark.parametrize(("field", "text"), CREATE_CASES, ids=[f"{c[0]}-{i}" for i, c in
                                                               enumerate(CREATE_CASES)])
def test_create_refuses_a_bad_field_by_name(client: FlaskClient, field: str, text: str) -> None:
    assert_refused(post_raw(client, "/games", text), field)
    assert client.get("/games").json["games"] == []


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("type", f'{{"type":"{SURROGATE}","expected_version":1}}'),
        ("card", f'{{"type":"play","card":"A{SURROGATE}","expected_version":1}}'),
        ("type", '{"type":"pl\\u0000ay","expected_version":1}'),
        ("expected_version", f'{{"type":"play","expected_version":{HUGE}}}'),
        ("cards[0]", '{"type":"play","cards":["\\u0085"],"expected_version":1}'),
    ],
)
def test_an_action_refuses_a_bad_field_by_name(client: FlaskClient, field: str, text: str) -> None:
    table = Table(client)
    before = table.summary()["version"]
    assert_refused(post_raw(client, f"/games/{table.id}/actions", text, table.headers(0)), field)
    assert table.summary()["version"] == before


@pytest.mark.parametrize("name", [SURROGATE, "a\\u0007b", "tab\\there"])
def test_a_join_refuses_a_bad_name(client: FlaskClient, name: str) -> None:
    created = client.post("/games", json={"game": "fake", "seats": [{"type": "open"}] * 2})
    game_id = created.json["id"]
    assert_refused(post_raw(client, f"/games/{game_id}/seats/0", f'{{"name":"{name}"}}'), "name")
    assert client.get(f"/games/{game_id}").json["seats"][0]["type"] == "open"


def test_a_query_parameter_with_a_control_character_is_refused(client: FlaskClient) -> None:
    assert_refused(client.get("/games?game=fa%01ke"), "game")


def test_clean_text_still_passes(client: FlaskClient) -> None:
    body = {"game": "fake", "seats": [{"type": "open"}] * 2, "seed": "ümlaut é 🂡 ok"}
    assert client.post("/games", json=body).status_code == 201


def test_every_problem_type_uri_resolves_to_a_page_describing_it(client: FlaskClient) -> None:
    from service.api.problems import CODES

    for code, (status, title) in CODES.items():
        page = client.get(f"/problems/{code}")
        assert page.status_code == 200 and page.mimetype == "text/html", code
        text = page.get_data(as_text=True)
        assert title in text and f"HTTP {status}" in text and code in text
    refused = post_raw(client, "/games", '{"game":"fake","seats":[],"seed":"\\u0001"}')
    assert client.get(refused.json["type"]).status_code == 200
    missing = client.get("/problems/no_such_code")
    assert missing.status_code == 404 and missing.json["code"] == "not_found"
