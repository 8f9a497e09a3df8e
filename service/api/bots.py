"""Bots over HTTP: a bot account with its own token, and its event stream across all its games.

``POST /bots`` makes an account (the token is shown once); a game seats it by name
(``{"type": "bot", "bot": "<name>"}``). ``GET /bots/stream`` (``Authorization: Bearer <bot
token>``) is a server-sent event stream, like lichess's bot stream: ``gameStart``,
``yourTurn`` (game, seat, version) and ``gameFinish`` (with the outcome), each a JSON ``data``
line. The bot acts through the normal ``POST /games/{id}/actions`` with its bot token (which
holds only the seats that name the bot) and reads ``/games/{id}/view`` and ``/events`` the same
way. A connection lasts at most CARDROOM_SSE_SECONDS; on reconnecting, the stream tells the
current state of every unfinished game again (a turn already played is simply stale).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from service.api.deps import bearer_token, get_service, problems
from service.errors import Unauthorized
from service.games import GameService
from service.shapes import token_hash

blp = Blueprint("bots", __name__, url_prefix="/bots", description="Bot accounts over HTTP")

POLL_SECONDS = 0.1


class BotAccountSchema(Schema):
    name = fields.String(required=True, metadata={"description": "the bot's name (seatable)"})


class BotCreatedSchema(Schema):
    name = fields.String()
    token = fields.String(metadata={"description": "the bot's secret; shown once only"})


@blp.route("")
class Bots(MethodView):
    @problems(blp, 400, 409, 422)
    @blp.arguments(BotAccountSchema())
    @blp.response(201, BotCreatedSchema())
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """Create a bot account; games may then seat it by name (409 when the name is taken)."""
        return get_service().create_bot_account(body["name"]), 201


@blp.route("/stream")
class BotStream(MethodView):
    @blp.doc(security=[{"bearerAuth": []}])
    @problems(blp, 401)
    def get(self) -> Response:
        """The bot's events across its games: gameStart, yourTurn, gameFinish (SSE)."""
        service = get_service()
        token = bearer_token()
        name = None
        if token is not None and service.bots is not None:
            name = service.bots.registry.account_of(token_hash(token))
        if name is None:
            raise Unauthorized("this request needs a bot token: Authorization: Bearer <token>")
        config = current_app.config
        stream = bot_events(
            service, name, config["CARDROOM_SSE_SECONDS"], config["CARDROOM_SSE_HEARTBEAT"]
        )
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return Response(stream, mimetype="text/event-stream", headers=headers)


def _message(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"


def bot_events(service: GameService, name: str, seconds: float, heartbeat: float) -> Iterator[str]:
    """Poll the bot's games and tell what changed (one process's view; cheap at bot scale)."""
    assert service.bots is not None
    registry = service.bots.registry
    deadline = time.monotonic() + seconds
    started: set[str] = set()
    finished: set[str] = set()
    told: set[tuple[str, int, int]] = set()
    quiet_since = time.monotonic()
    yield "retry: 1000\n\n"
    while time.monotonic() < deadline:
        registry.heartbeat(name, (), time.time())  # an open stream is a live bot
        sent = False
        for game_id in registry.games(name):
            if game_id in finished:
                continue
            summary = service.summary(game_id)
            seats = [s["seat"] for s in summary["seats"] if s.get("bot") == name]
            if game_id not in started:
                started.add(game_id)
                yield _message("gameStart", {"game": game_id, "seats": seats})
                sent = True
            if summary["status"] == "over":
                finished.add(game_id)
                data = {"game": game_id, "outcome": summary["outcome"]}
                yield _message("gameFinish", data)
                sent = True
                continue
            for seat in seats:
                turn = (game_id, seat, int(summary["version"]))
                if seat in summary["to_act"] and turn not in told:
                    told.add(turn)
                    yield _message(
                        "yourTurn", {"game": game_id, "seat": seat, "version": turn[2]}
                    )
                    sent = True
        now = time.monotonic()
        if sent:
            quiet_since = now
        elif now - quiet_since >= heartbeat:
            quiet_since = now
            yield ": keep-alive\n\n"
        time.sleep(POLL_SECONDS)
