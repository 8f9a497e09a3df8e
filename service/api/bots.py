"""Bots over HTTP: a bot account with its own token, and its event stream across all its games.

``POST /bots`` makes an account (the token is shown once); a game seats it by name
(``{"type": "bot", "bot": "<name>"}``). ``GET /bots/stream`` (``Authorization: Bearer <bot
token>``) is a server-sent event stream, like lichess's bot stream: ``gameStart``,
``entropyWanted`` (game, seat: the deal awaits the bot's own entropy, ``POST
/games/{id}/seats/{seat}/entropy``), ``yourTurn`` (game, seat, version) and ``gameFinish``
(with the outcome), each a JSON ``data`` line. The bot acts through the normal ``POST
/games/{id}/actions`` with its bot token (which holds only the seats that name the bot) and
reads ``/games/{id}/view`` and ``/events`` the same way. A connection lasts between half of
CARDROOM_SSE_SECONDS and all of it (drawn anew for each, as a game stream's is: bots connected
together do not all reconnect together); on reconnecting, the stream tells the current state of
every unfinished game again (a turn already played is simply stale, an entropy already sent
answers as recorded), and a finished game only after the cursor the bot resumes from: every
``gameFinish`` carries an SSE ``id`` (a cursor), sent back as ``Last-Event-ID`` (EventSource
does it) or ``?since=``.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from service.api.deps import bearer_token, get_service, problems
from service.api.events import lifetime
from service.api.limits import BotLimited
from service.bots import valid_cursor
from service.digests import token_hash
from service.errors import InvalidField, NotFound, Unauthorized
from service.games import GameService
from service.store.port import UnknownGameId

blp = Blueprint("bots", __name__, url_prefix="/bots", description="Bot accounts over HTTP")

# how long an open stream waits on its games before it looks at the registry again (the games
# new to the bot, and those it saw finish elsewhere): three reads (its games, their versions,
# its finished ones); a game that moves wakes the stream at once
LOOK_SECONDS = 0.25
# open streams of one bot account in one web process, at most (a bot needs one): each looks
# at the registry four times a second, so a bot opening more costs the web process more,
# whatever its rate of requests (CARDROOM_LIMIT_BOT_REQUESTS counts a stream once)
STREAMS_MOST = 2
# how often an open stream checks its account still holds the name (it ends once revoked)
# and refreshes the bot's heartbeat
REVOKED_CHECK_SECONDS = 1.0


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
    @problems(blp, 401, 422)
    def get(self) -> Response:
        """The bot's events across its games: gameStart, entropyWanted, yourTurn, gameFinish
        (SSE).

        At most two streams of one account are open at once per web process (a 429 with
        ``Retry-After`` past them).

        ``?since=<cursor>`` (or the ``Last-Event-ID`` header): also the games finished after
        that cursor, each ``gameFinish`` carrying its cursor as the SSE ``id``; without one,
        only the games that finish from now on."""
        service = get_service()
        token = bearer_token()
        name = digest = None
        if token is not None and service.bots is not None:
            digest = token_hash(token)
            name = service.bots.registry.account_of(digest)
        if name is None:
            raise Unauthorized("this request needs a bot token: Authorization: Bearer <token>")
        since = request.args.get("since") or request.headers.get("Last-Event-ID") or None
        if since is not None and not valid_cursor(since):
            raise InvalidField("since", "must be a cursor the stream sent (an event id)")
        config = current_app.config
        streams: OpenStreams = current_app.extensions.setdefault(OPEN_STREAMS, OpenStreams())
        if not streams.take(name):
            raise BotLimited(f"{STREAMS_MOST} open streams per bot account and web process", 1)
        stream = bot_events(
            service, name, lifetime(config["CARDROOM_SSE_SECONDS"]),
            config["CARDROOM_SSE_HEARTBEAT"], since, digest,
        )
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        response = Response(stream, mimetype="text/event-stream", headers=headers)
        response.call_on_close(lambda: streams.give_back(name))  # however the stream ends
        return response


OPEN_STREAMS = "cardroom.bot_streams"  # app.extensions key of the process's OpenStreams


class OpenStreams:
    """The bot streams open in this web process, by account: at most ``STREAMS_MOST`` each."""

    def __init__(self) -> None:
        self.open: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, name: str) -> bool:
        with self._lock:
            if self.open.get(name, 0) >= STREAMS_MOST:
                return False
            self.open[name] = self.open.get(name, 0) + 1
            return True

    def give_back(self, name: str) -> None:
        with self._lock:
            left = self.open.get(name, 0) - 1
            if left > 0:
                self.open[name] = left
            else:
                self.open.pop(name, None)


def _message(kind: str, data: dict[str, Any], event_id: str | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"


def bot_events(service: GameService, name: str, seconds: float, heartbeat: float,
               since: str | None = None, digest: str | None = None) -> Iterator[str]:
    """Tell the bot what changed in its active games and its finished ones after the cursor
    (one process's view). The stream waits on its games' event streams (the process's one
    shared reader, ``GameService.wait_any``): a move wakes it at once, and only the games
    whose version moved are read again; at least every ``LOOK_SECONDS`` it looks at the
    registry for the games new to it and those finished. With the token's ``digest``, the
    stream ends within a second of the account's revocation."""
    assert service.bots is not None
    registry = service.bots.registry
    deadline = time.monotonic() + seconds
    cursor = since if since is not None else registry.finished_cursor(name)
    started: set[str] = set()
    told: set[tuple[str, int, int]] = set()
    read: dict[str, int] = {}  # each live game's version when its summary was last read
    quiet_since, checked = time.monotonic(), -math.inf
    yield "retry: 1000\n\n"
    while time.monotonic() < deadline:
        if time.monotonic() - checked >= REVOKED_CHECK_SECONDS:
            checked = time.monotonic()
            if digest is not None and registry.account_of(digest) != name:
                return  # revoked: the token holds nothing, the name is no live bot's
            registry.heartbeat(name, (), time.time())  # an open stream is a live bot
        sent = False
        active = registry.active(name)
        versions = service.versions(active) if active else {}
        read = {g: v for g, v in read.items() if g in versions}
        for game_id in active:
            if game_id in read and read[game_id] == versions[game_id]:
                continue  # unmoved since its summary was read: nothing new to tell
            read.pop(game_id, None)
            try:
                summary = service.summary(game_id)
            except (NotFound, UnknownGameId):  # gone from the store: it finishes here too
                registry.finish_game(name, game_id)
                continue
            if summary["status"] == "over":
                registry.finish_game(name, game_id)  # told below, from the history
                continue
            read[game_id] = int(summary["version"])
            seats = [s["seat"] for s in summary["seats"] if s.get("bot") == name]
            if game_id not in started:
                started.add(game_id)
                yield _message("gameStart", {"game": game_id, "seats": seats})
                sent = True
            for seat in seats:
                wanted = (game_id, seat, -1)  # told once per connection, before any turn
                if seat in summary.get("awaiting_entropy", ()) and wanted not in told:
                    told.add(wanted)
                    yield _message("entropyWanted", {"game": game_id, "seat": seat})
                    sent = True
                turn = (game_id, seat, int(summary["version"]))
                if seat in summary["to_act"] and turn not in told:
                    told.add(turn)
                    yield _message(
                        "yourTurn", {"game": game_id, "seat": seat, "version": turn[2]}
                    )
                    sent = True
        for entry, game_id in registry.finished_since(name, cursor):
            cursor = entry
            try:
                outcome = service.summary(game_id)["outcome"]
            except (NotFound, UnknownGameId):
                outcome = None
            yield _message("gameFinish", {"game": game_id, "outcome": outcome}, entry)
            sent = True
        now = time.monotonic()
        if sent:
            quiet_since = now
        elif now - quiet_since >= heartbeat:
            quiet_since = now
            yield ": keep-alive\n\n"
        service.wait_any(read, max(0.0, min(LOOK_SECONDS, deadline - now)))
