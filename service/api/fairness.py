"""Fair dealing's public records: ``GET /fairness/key`` names the key the server signs receipts
with (docs/fairness.md, "Signed receipts"), for ``cardroom replay verify --public-key``;
``GET /fairness/log`` serves the hash-chained log of every game's commitment, its last entry
served signed (docs/fairness.md, "The commitment log")."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields

from service.api.deps import get_service, problems
from service.receipts import described

blp = Blueprint("fairness", __name__, url_prefix="/fairness", description="Fair dealing")


class KeySchema(ma.Schema):
    algorithm = fields.String(metadata={"description": "Ed25519"})
    public_key = fields.String(
        allow_none=True,
        metadata={"description": "the raw 32-byte public key, 64 hex digits; null: no key, "
                  "receipts go unsigned"},
    )  # fmt: skip
    message = fields.String(metadata={"description": "what a receipt's signature is made over"})


class LogQuerySchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=ma.validate.Range(min=0))
    limit = fields.Integer(load_default=100, validate=ma.validate.Range(min=1, max=1000))


class LogEntrySchema(ma.Schema):
    index = fields.Integer()
    game = fields.String()
    commitment = fields.String(metadata={"description": "the game's commitment to its secret"})
    prev = fields.String(metadata={"description": "the hash of the entry before"})
    hash = fields.String(metadata={"description": "SHA-256('cardroom/log/1', prev, game, "
                                   "commitment)"})  # fmt: skip


class LogHeadSchema(ma.Schema):
    index = fields.Integer()
    hash = fields.String()
    signature = fields.String(allow_none=True, metadata={
        "description": "Ed25519 over 'cardroom/log-head/1' 0x00 index 0x00 hash; null: no key"})


class LogSchema(ma.Schema):
    entries = fields.List(fields.Nested(LogEntrySchema))
    head = fields.Nested(LogHeadSchema, allow_none=True, metadata={
        "description": "the last entry served, signed; null when none is"})


@blp.route("/log")
class Log(MethodView):
    @blp.arguments(LogQuerySchema, location="query")
    @blp.response(200, LogSchema())
    def get(self, query: dict[str, int]) -> dict[str, Any]:
        """The public log of every game's commitment, from index ``after`` + 1."""
        return get_service().commitment_log(query["after"], query["limit"])


@blp.route("/log/<game_id>")
class LogEntry(MethodView):
    @problems(blp, 404)
    @blp.response(200, LogEntrySchema())
    def get(self, game_id: str) -> dict[str, Any]:
        """A game's entry in the commitment log (its index, commitment and chain hashes)."""
        return get_service().logged_commitment(game_id)


@blp.route("/key")
class Key(MethodView):
    @blp.response(200, KeySchema())
    def get(self) -> dict[str, Any]:
        """The public key of the server's signed receipts."""
        return described(get_service().signer)
