"""The table's server side: the page and its files, /docs' Swagger UI served from the
package (no CDN), and GET /games/{id}/replay/verification."""

from __future__ import annotations

import html
import json
import random
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from replays.format import dumps, loads
from service.web import STATIC
from tests.support.api import Table, make_app

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def client() -> FlaskClient:
    return make_app().test_client()


def finished(client: FlaskClient) -> Table:
    table = Table(client, "sixty_six", options={"game_target": 1}, seed="web-verify")
    rnd = random.Random(3)
    while table.summary()["status"] != "over":
        move = table.random_move(rnd)
        assert move is not None
        seat, action, version = move
        assert table.act(seat, action, version).status_code == 200
    return table


def test_the_page_and_its_modules_are_served(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert '<script type="module" src="/table/app.js">' in page.text
    assert "http://" not in page.text and "https://" not in page.text
    for name in ("app.js", "api.js", "lobby.js", "play.js", "replay.js", "cards.js", "tables.js",
                 "style.css", "favicon.svg"):
        response = client.get(f"/table/{name}")
        assert response.status_code == 200, name
    assert client.get("/table/app.js").mimetype in ("text/javascript", "application/javascript")
    assert client.get("/table/../app.py").status_code == 404


def test_docs_load_swagger_ui_from_this_server(client: FlaskClient) -> None:
    docs = client.get("/docs").text
    assert "http://" not in docs and "https://" not in docs  # no CDN
    config = re.search(r'data-config="([^"]*)"', docs)
    assert config is not None and json.loads(html.unescape(config.group(1)))["validatorUrl"] is None
    for name in ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"):
        assert f"/swagger-ui/{name}" in docs
        assert client.get(f"/swagger-ui/{name}").status_code == 200, name


def test_the_static_files_are_package_data() -> None:
    # a non-editable install ships only what package-data names
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["service.web"]
    files = [p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert files
    for name in files:
        assert any(fnmatch(name, pattern) for pattern in patterns), name


def test_verification_reports_a_finished_game(client: FlaskClient) -> None:
    table = finished(client)
    report = client.get(f"/games/{table.id}/replay/verification")
    assert report.status_code == 200, report.json
    summary = table.summary()
    assert report.json["ok"] is True and report.json["bad_version"] is None
    assert report.json["events"] == summary["version"]
    assert report.json["commitment"] == summary["commitment"]
    assert report.json["head_hash"] == summary["head_hash"]
    assert report.json["seed"] == "web-verify"
    assert report.json["summary"].startswith("OK sixty_six")


def test_verification_names_the_first_bad_event(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = finished(client)
    text = client.get(f"/games/{table.id}/replay").text
    replay = json.loads(dumps(loads(text)))
    played = replay["batches"][1]["events"][0]
    played["event"]["role"] = "follow"  # one changed field in the first action's event
    tampered = json.dumps(replay)
    service = client.application.extensions["cardroom"]
    monkeypatch.setattr(service, "replay_file", lambda game_id: tampered)
    report = client.get(f"/games/{table.id}/replay/verification")
    assert report.status_code == 200
    assert report.json["ok"] is False
    assert report.json["bad_version"] == played["version"]
    assert report.json["summary"].startswith("FAILED")


def test_verification_of_a_game_in_play_is_refused(client: FlaskClient) -> None:
    table = Table(client, "sixty_six", seed="web-verify-open")
    response = client.get(f"/games/{table.id}/replay/verification")
    assert response.status_code == 409 and response.json["code"] == "game_not_over"
    assert client.get("/games/nope/replay/verification").json["code"] == "not_found"
