"""A client generated from ``/openapi.json`` (openapi-python-client) plays a whole game with
its typed models: Sixty-Six between two people, from creation to the match's outcome.

The generator runs in a subprocess into ``tmp_path``; the client talks to the app in this
process through httpx's WSGI transport (no server, no port).
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from flask.testing import FlaskClient

PACKAGE = "cardroom_client"


def _generate(spec: dict[str, Any], where: Path) -> None:
    (where / "openapi.json").write_text(json.dumps(spec))
    (where / "config.yml").write_text("post_hooks: []\n")  # no formatter needed to import it
    generator = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [str(generator), "generate", "--path", str(where / "openapi.json"), "--meta", "none",
         "--output-path", str(where / PACKAGE), "--config", str(where / "config.yml"),
         "--fail-on-warning"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def _import(where: Path) -> dict[str, Any]:
    sys.path.insert(0, str(where))
    try:
        names = {
            "root": PACKAGE,
            "post_games": f"{PACKAGE}.api.games.post_games",
            "summary": f"{PACKAGE}.api.games.get_games_game_id",
            "join": f"{PACKAGE}.api.seats.post_games_game_id_seats_seat",
            "view": f"{PACKAGE}.api.views.get_games_game_id_view",
            "act": f"{PACKAGE}.api.actions.post_games_game_id_actions",
            "models": f"{PACKAGE}.models",
        }
        return {key: importlib.import_module(name) for key, name in names.items()}
    finally:
        sys.path.remove(str(where))


@pytest.mark.slow  # generates the client with openapi-python-client
def test_a_generated_client_plays_a_whole_sixty_six_match(
    client: FlaskClient, tmp_path: Path
) -> None:
    _generate(client.get("/openapi.json").json, tmp_path)
    try:
        _play(_import(tmp_path), client)
    finally:
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _play(m: dict[str, Any], flask_client: FlaskClient) -> None:
    models = m["models"]
    transport = httpx.WSGITransport(app=flask_client.application)
    args = {"base_url": "http://cardroom.test", "httpx_args": {"transport": transport}}
    anyone = m["root"].Client(**args)
    open_seat = models.SeatSpec(type_=models.SeatSpecType.OPEN)
    created = m["post_games"].sync(client=anyone, body=models.CreateGame(
        game="sixty_six", seats=[open_seat, open_seat]))
    assert isinstance(created, models.Created), created
    game = created.id
    seats = []
    for seat, name in enumerate(("ada", "bob")):
        joined = m["join"].sync(game, seat, client=anyone, body=models.JoinSeat(name=name))
        assert isinstance(joined, models.Joined), joined
        seats.append(m["root"].AuthenticatedClient(token=joined.token, **args))
    rnd = random.Random(7)
    played = 0
    while (summary := m["summary"].sync(game, client=anyone)).status != "over":
        assert played < 2000, "the match never ended"
        for seat, seat_client in enumerate(seats):
            response = m["view"].sync(game, client=seat_client)
            assert isinstance(response, models.View), response
            view = response.view
            assert isinstance(view, models.SixtySixView)
            assert view.names == ["ada", "bob"]
            if seat not in view.to_act:
                continue
            legal = view.legal_actions
            assert legal and all(type(a).__name__.startswith("SixtySix") for a in legal)
            choice = rnd.choice(legal)
            result = m["act"].sync(game, client=seat_client, body=choice,
                                   if_match=f'"{response.version}"')
            assert isinstance(result, models.ActionResult), result
            assert isinstance(result.view, models.SixtySixView)
            played += 1
    outcome = summary.outcome
    assert isinstance(outcome, models.SixtySixOutcome), outcome
    assert outcome.reason == "finished" and len(outcome.winners) == 1
    assert max(outcome.game_points) >= 7 and played > 0
