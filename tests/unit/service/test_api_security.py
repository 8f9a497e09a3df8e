"""What a browser is told about every answer (a Content-Security-Policy allowing the service's
own scripts and styles only, no framing, no sniffing, no referrer), and how little of bad input
an error body quotes."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api.excerpts import LONGEST
from tests.support.api import Table, bearer

SECURITY = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
BIG = "Z" * 20_000
OPEN2 = [{"type": "open"}] * 2


def _answers(client: FlaskClient) -> dict[str, Any]:
    table = Table(client, game="sixty_six", players=2)
    version = table.view(0)["version"]
    return {
        "the table": client.get("/"),
        "a table file": client.get("/table/app.js"),
        "/docs": client.get("/docs"),
        "a Swagger UI file": client.get("/swagger-ui/swagger-ui.css"),
        "the spec": client.get("/openapi.json"),
        "a listing": client.get("/games"),
        "a view": client.get(f"/games/{table.id}/view", headers=table.headers(0)),
        "an action (hot path)": table.act(0, {"type": "abort"}, version=version),
        "a refused action": table.act(0, {"type": "abort"}, version=version),
        "a problem": client.get("/games/nope"),
        "a stream": client.get(f"/games/{table.id}/stream"),
    }


def test_every_answer_carries_the_security_headers(client: FlaskClient) -> None:
    for name, answer in _answers(client).items():
        for header, value in SECURITY.items():
            assert answer.headers.get(header) == value, (name, header)
        policy = answer.headers["Content-Security-Policy"]
        for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'",
                          "frame-ancestors 'none'", "object-src 'none'"):
            assert directive in policy, (name, directive)


def test_docs_run_no_inline_script(client: FlaskClient) -> None:
    page = client.get("/docs").get_data(as_text=True)
    assert "<script>" not in page and "<style" not in page and " style=" not in page
    assert '<script src="/table/docs.js" defer></script>' in page
    assert client.get("/table/docs.js").status_code == 200


def _bad_inputs(client: FlaskClient) -> dict[str, Any]:
    table = Table(client, game="sixty_six", players=2)
    auth, version = table.headers(0), table.view(0)["version"]
    act = {"expected_version": version}
    return {
        "game": client.post("/games", json={"game": BIG, "seats": OPEN2}),
        "option": client.post("/games", json={"game": "sixty_six", "seats": OPEN2,
                                              "options": {BIG: 1}}),
        "option value": client.post("/games", json={"game": "sixty_six", "seats": OPEN2,
                                                    "options": {"on_leave": BIG}}),
        "field": client.post("/games", json={"game": "sixty_six", "seats": OPEN2, BIG: 1}),
        "fields": client.post("/games", json={"game": "sixty_six", "seats": OPEN2,
                                              **{f"{BIG[:900]}{i}": 1 for i in range(60)}}),
        "deal": client.post("/games", json={"game": "sixty_six", "seats": OPEN2,
                                            "deal": {"seats": [{"hand": [BIG]}, {"hand": []}],
                                                     "stock": []}}),
        "action": client.post(f"/games/{table.id}/actions", headers=auth,
                              json={"type": BIG, **act}),
        "card": client.post(f"/games/{table.id}/actions", headers=auth,
                            json={"type": "play", "cards": [BIG], **act}),
        "If-Match": client.post(f"/games/{table.id}/actions", json={"type": "abort"},
                                headers={**auth, "If-Match": BIG[:4000]}),
        "game id": client.get(f"/games/{BIG[:4000]}"),
        "Last-Event-ID": client.get(f"/games/{table.id}/stream",
                                    headers={"Last-Event-ID": BIG[:4000]}),
        "bot name": client.post("/bots", json={"name": BIG}),
        "token": client.get(f"/games/{table.id}/view", headers=bearer(BIG[:4000])),
    }


@pytest.mark.parametrize("spaced", [False, True])
def test_an_error_body_quotes_at_most_an_excerpt_of_bad_input(
    client: FlaskClient, spaced: bool
) -> None:
    global BIG
    BIG = ("Z " if spaced else "Z") * 10_000
    try:
        answers = _bad_inputs(client)
    finally:
        BIG = "Z" * 20_000
    for name, answer in answers.items():
        assert 400 <= answer.status_code < 500, (name, answer.status_code)
        body = answer.get_data(as_text=True)
        assert len(body) <= 2 * LONGEST + 400, (name, len(body))
        assert "Z" * 64 not in body and body.count("Z") <= LONGEST, name
