"""The operator's endpoints under ``/admin/``, behind ``CARDROOM_ADMIN_TOKEN``.

No default token: without one set, every ``/admin/`` request is a 403 (admin is off). With one,
a request without ``Authorization: Bearer <token>`` is a 401, with another token a 403. Every
admin request is logged (logger ``service.admin``: the act, its target, the status, the client
address), and each change once more by the use case itself.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

import redis
from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service import backlog
from service.api.deps import bearer_token, get_service, problems
from service.errors import Forbidden, NotFound, Unauthorized
from service.store.port import STATUSES

log = logging.getLogger("service.admin")

blp = Blueprint(
    "admin", __name__, url_prefix="/admin",
    description="The operator's tools (Authorization: Bearer $CARDROOM_ADMIN_TOKEN)",
)  # fmt: skip
SECURITY: list[dict[str, list[str]]] = [{"adminAuth": []}]


def require_admin() -> None:
    """Refuse a request without the operator's token (403 when admin is off)."""
    configured = str(current_app.config.get("CARDROOM_ADMIN_TOKEN") or "")
    if not configured:
        raise Forbidden("admin is off on this service: set CARDROOM_ADMIN_TOKEN to use it")
    token = bearer_token()
    if token is None:
        raise Unauthorized("this request needs the admin token: Authorization: Bearer <token>")
    if not hmac.compare_digest(token.encode(), configured.encode()):
        raise Forbidden("the token is not the admin token")


def logged(response: Response) -> Response:
    """Every admin request, whatever its answer (a refused one too)."""
    log.warning("admin %s %s -> %s from %s", request.method, request.full_path.rstrip("?"),
                response.status_code, request.remote_addr)  # fmt: skip
    return response


blp.before_request(require_admin)
blp.after_request(logged)


class GameListArgs(Schema):
    game = fields.String(metadata={"description": "only this game (e.g. shithead)"})
    status = fields.String(validate=validate.OneOf(STATUSES))
    creator = fields.String(metadata={"description": "only games created from this address"})
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 10_000))


class AdminGameSchema(Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    players = fields.Integer()
    seats = fields.List(fields.Dict())
    created = fields.Float()
    creator = fields.String(metadata={"description": "the creating client's address"})


class AdminGameListSchema(Schema):
    games = fields.List(fields.Nested(AdminGameSchema))


class StopSchema(Schema):
    reason = fields.String(
        required=True, validate=validate.Length(1, 500),
        metadata={"description": "why the operator ends it (recorded)"},
    )  # fmt: skip


class StoppedSchema(Schema):
    id = fields.String()
    version = fields.Integer()
    outcome = fields.Dict()


class PurgedSchema(Schema):
    id = fields.String()
    status = fields.String(metadata={"description": "the status it had"})
    purged = fields.Boolean()


@blp.route("/games")
class AdminGames(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 422)
    @blp.arguments(GameListArgs(), location="query")
    @blp.response(200, AdminGameListSchema())
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """Games newest first, with their creator's address; filter by game, status, creator."""
        return {"games": get_service().admin_games(**args)}


@blp.route("/games/<game_id>")
class AdminGame(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404, 409)
    @blp.response(200, PurgedSchema())
    def delete(self, game_id: str) -> dict[str, Any]:
        """Purge a game nobody plays (waiting or over) from the store; 409 for a game being
        played (end it first). An archived copy stays in the archive."""
        return get_service().purge_game(game_id)


@blp.route("/games/<game_id>/end")
class AdminEnd(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404, 409, 410, 422)
    @blp.arguments(StopSchema())
    @blp.response(200, StoppedSchema())
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """End a game that is not over, recorded as ``lifecycle.GameStopped`` with the reason:
        nobody wins or loses, the secret is revealed, the replay verifies."""
        return get_service().stop_game(game_id, body["reason"])


class BotNameSchema(Schema):
    name = fields.String()
    kind = fields.String(metadata={"description": "operator, account or revoked"})
    last_seen = fields.Float(allow_none=True, metadata={"description": "last heartbeat"})


class BotNamesSchema(Schema):
    bots = fields.List(fields.Nested(BotNameSchema))


class BotAddedSchema(Schema):
    name = fields.String()
    kind = fields.String()


class BotRevokedSchema(Schema):
    name = fields.String()
    was = fields.String(metadata={"description": "operator, account or revoked"})
    live_games = fields.List(fields.String(), metadata={"description": "games seating it"})


@blp.route("/bots")
class AdminBots(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403)
    @blp.response(200, BotNamesSchema())
    def get(self) -> dict[str, Any]:
        """Every bot name held: the operator's, the HTTP accounts', the revoked ones."""
        return {"bots": get_service().bot_names()}


@blp.route("/bots/<name>")
class AdminBot(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 400, 401, 403, 409)
    @blp.response(200, BotAddedSchema())
    def put(self, name: str) -> dict[str, Any]:
        """Hold a name for the operator's own bot (``cardroom worker --bot NAME`` does it
        too when it starts): no HTTP account can take it. 409 when an account holds it."""
        return get_service().add_operator_bot(name)

    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404)
    @blp.response(200, BotRevokedSchema())
    def delete(self, name: str) -> dict[str, Any]:
        """Revoke a bot name (an account's token stops working); only the operator may hold
        it again. Answers the live games that seat it."""
        return get_service().revoke_bot(name)


class QueuesArgs(Schema):
    older = fields.Float(load_default=10.0, validate=validate.Range(0, 86_400), metadata={
        "description": "stalled: seen by the sweeper at one version this many seconds"})


class QueueSchema(Schema):
    queue = fields.String()
    waiting = fields.Integer()
    started = fields.Integer()


class StalledSchema(Schema):
    game = fields.String()
    version = fields.Integer()
    stalled_seconds = fields.Float()
    seats = fields.List(fields.Dict(), metadata={"description": "the awaited bots' seats"})


class BacklogSchema(Schema):
    queues = fields.List(fields.Nested(QueueSchema))
    stalled = fields.List(fields.Nested(StalledSchema))


@blp.route("/queues")
class AdminQueues(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404, 422)
    @blp.arguments(QueuesArgs(), location="query")
    @blp.response(200, BacklogSchema())
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """RQ's queues of this service (waiting and running jobs) and the live games stalled
        on a bot's turn (as the sweeper saw them). 404 when bots are not scheduled on RQ."""
        service = get_service()
        rq = getattr(service.scheduler, "connection", None)
        if not isinstance(rq, redis.Redis):
            raise NotFound("this service schedules no bot turns on RQ (CARDROOM_SCHEDULER)")
        namespace = current_app.config["CARDROOM_NAMESPACE"]
        stalled = backlog.stalled_turns(service, rq, namespace, args["older"])
        return {"queues": backlog.queue_depths(rq, namespace), "stalled": stalled}
