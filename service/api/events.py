"""Events: the caller's redacted events (the full log once over), and a live SSE stream."""

from __future__ import annotations

import json
import logging
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields, validate

from service import metrics
from service.access import Reader
from service.api import schemas
from service.api.deps import SECURITY, get_service, problems, reader, required_token
from service.errors import InvalidRequest, SeatLeft, Unauthorized
from service.games import GameService
from service.store.redis import OUTAGES

log = logging.getLogger(__name__)

blp = Blueprint("events", __name__, url_prefix="/games", description="Event logs and live streams")

STREAM_DOC = {
    "200": {
        "description": "text/event-stream: `id` = version, `event: event` per event, "
        "`event: over` at the end; reconnect with Last-Event-ID",
        "content": {
            "text/event-stream": {
                "schema": {
                    "type": "object",
                    "description": "one server-sent event; data is the JSON of an events item",
                    "properties": {
                        "id": {"type": "string"},
                        "event": {"type": "string", "enum": ["event", "over"]},
                        "data": {"type": "string"},
                    },
                }
            }
        },
    }
}


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404, 410, 422, 500)
    @blp.arguments(schemas.EventsPageQuerySchema(), location="query")
    @blp.response(200, schemas.EventsSchema())
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Your redacted events after version ``after``; every stored field once it is over.

        Paginated: at most ``limit`` events per response (default 200, at most 1000). The
        cursor is a version: while ``next_after`` is not null, ask again with
        ``after=<next_after>``; ``version`` is the game's current version.
        """
        return get_service().events_for(game_id, query["after"], reader(), query["limit"])


class StreamQuerySchema(schemas.EventsQuerySchema):
    ticket = fields.String(
        validate=validate.Length(1, 100),
        metadata={"description": "a stream ticket (POST .../stream-tickets): that seat's stream"},
    )


class StreamTicketSchema(schemas.ma.Schema):  # type: ignore[name-defined,misc]
    ticket = fields.String(required=True)
    expires_in = fields.Integer(required=True, metadata={"description": "seconds"})


@blp.route("/<game_id>/stream-tickets")
class StreamTickets(MethodView):
    @blp.doc(security=[{"bearerAuth": []}])
    @problems(blp, 401, 403, 404, 410)
    @blp.response(201, StreamTicketSchema())
    def post(self, game_id: str) -> dict[str, Any]:
        """A short-lived ticket to follow your seat's stream without your token in a URL.

        ``GET /games/{id}/stream?ticket=T`` (an EventSource) then streams your seat's view;
        reconnects may reuse the ticket until it expires, or until the seat changes hands
        (then 401: ask for a new one). For a person's seat: a bot account's token gets 403
        (it streams with its token).
        """
        seconds = int(current_app.config["CARDROOM_STREAM_TICKET_SECONDS"])
        return get_service().stream_ticket(game_id, required_token(), seconds)


@blp.route("/<game_id>/stream")
class Stream(MethodView):
    @blp.doc(security=SECURITY, responses=STREAM_DOC)
    @problems(blp, 400, 401, 403, 404, 410, 422, 500)
    @blp.arguments(StreamQuerySchema(), location="query")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Server-sent events of the game, from ``Last-Event-ID`` (or ``after``) on.

        A seat's own stream with its token (Authorization) or a stream ticket (``ticket``);
        the spectators' stream with neither. Each connection lasts between half of
        CARDROOM_SSE_SECONDS and all of it; clients reconnect (``retry:``, between
        CARDROOM_SSE_RETRY_MS and twice it) with Last-Event-ID and lose nothing.
        """
        service = get_service()
        who = reader()
        if "ticket" in query:
            if who.token is not None:
                raise InvalidRequest("send a seat token or a stream ticket, not both")
            who = Reader(ticket=query["ticket"])
        after = _resume_from(query["after"])
        # 401/403/404 before the stream opens. Shared: streams of the game resuming from the same
        # version at the same time (a crowd reconnecting, followers moving on to the next game)
        # read the store once between them; each checks its own seat against that read.
        first = service.events_for(game_id, after, who, shared=True)
        config = current_app.config
        stream = _sse(
            service,
            game_id,
            who,
            first,
            lifetime(config["CARDROOM_SSE_SECONDS"]),
            config["CARDROOM_SSE_RETRY_MS"],
            config["CARDROOM_SSE_HEARTBEAT"],
        )
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        stream = metrics.streaming(stream)
        return Response(stream, mimetype="text/event-stream", headers=headers)


def lifetime(seconds: float) -> float:
    """One connection's lifetime: between half of ``seconds`` and all of it, drawn anew for each.

    Streams opened together (a page load, a restart, a crowd arriving) would otherwise all end
    and reconnect together every ``seconds``: a reconnect storm that stalls the actions served
    beside them (bench_streams). A random share spreads their ends over half the period.
    """
    return seconds * (1.0 - 0.5 * random.random())


def retry_after(ms: int) -> int:
    """The ``retry:`` one connection sends: between ``ms`` and twice it, drawn anew for each.

    Streams cut together (a restart, a network failure, a proxy's timeout, spectators of a
    finished game moving on) reconnect ``retry`` later: with one value for all they would all
    come back in the same instant, each with its request and first read, and stall the actions
    served beside them (bench_streams' followers: 25 reconnects a web worker at once). A random
    share spreads them over one more ``ms``.
    """
    return int(ms * (1.0 + random.random()))


def _resume_from(after: int) -> int:
    last = request.headers.get("Last-Event-ID")
    if last is None:
        return after
    if not last.strip().isdigit() or len(last.strip()) > 18:
        raise InvalidRequest(f"Last-Event-ID must be a version number, got {last!r}")
    return int(last.strip())


def _sse(
    service: GameService,
    game_id: str,
    who: Reader,
    first: dict[str, Any],
    seconds: float,
    retry_ms: int,
    heartbeat: float,
) -> Iterator[str]:
    """The stream's lines: events, a comment every ``heartbeat`` seconds while idle, ``over``.

    It ends after ``seconds`` (the client reconnects with Last-Event-ID), quietly when the
    store becomes unreachable (the reconnect then gets 503 until it is back), and when the
    reader's seat changes hands (each batch is read as the seat's holder now; the reconnect
    gets 401 or 403).
    """
    deadline = time.monotonic() + seconds
    yield f"retry: {retry_after(retry_ms)}\n\n"
    batch = first
    spectator = who.token is None and who.ticket is None
    watching = Watching(service, game_id, heartbeat) if spectator else None
    try:
        while True:
            if watching is not None and not batch["over"]:
                watching.beat()
            if batch["events"]:  # one write for the batch, not one per event
                yield "".join(
                    f"id: {item['version']}\nevent: event\ndata: {json.dumps(item)}\n\n"
                    for item in batch["events"]
                )
            last = batch["version"]
            if batch["over"]:
                yield f"id: {last}\nevent: over\ndata: {json.dumps({'version': last})}\n\n"
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if not service.wait(game_id, last, min(remaining, heartbeat)):
                yield ": keep-alive\n\n"
            batch = service.events_for(game_id, last, who, shared=True)
    except OUTAGES as err:
        log.warning("stream of game %s ended: the store is unreachable (%s)", game_id, err)
    except (SeatLeft, Unauthorized):
        return  # the seat changed hands: nothing more for this reader
    finally:
        if watching is not None:
            watching.stop()


class Watching:
    """A spectator stream counted among the game's watchers while it is open (docs/service.md,
    "Spectators"): its expiry is pushed on at most once a ``heartbeat`` (the stream's loop comes
    round at least that often) to three heartbeats ahead, so a stream whose process died stops
    counting within three heartbeats; a stream that closes says so at once."""

    def __init__(self, service: GameService, game_id: str, heartbeat: float) -> None:
        self.service, self.game_id, self.heartbeat = service, game_id, heartbeat
        self.watcher = secrets.token_hex(8)
        self.beaten: float | None = None

    def beat(self) -> None:
        now = time.monotonic()
        if self.beaten is None or now - self.beaten >= self.heartbeat:
            self.beaten = now
            self.service.watch(self.game_id, self.watcher, 3 * self.heartbeat)

    def stop(self) -> None:
        if self.beaten is None:
            return
        try:
            self.service.unwatch(self.game_id, self.watcher)
        except OUTAGES as err:  # its expiry drops it
            log.warning("stream of game %s: could not stop counting it (%s)", self.game_id, err)
