"""Replays: the replay file of a finished game, and the table at any of its steps.

``GET /games/{id}/replay`` returns the replay file (docs/replay-format.md) exported by the
worker when the game ended, or builds it from the stream when the export has not run yet, or
the archived one once the game left Redis (``service.archived``).
``?at=N`` returns the table after event N as JSON, ``&as=SEAT`` as that seat saw it.
"""

from __future__ import annotations

import json
from typing import Any

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields, validate

from replays.format import loads
from replays.show import table_at
from service.api.deps import get_service, problems
from service.errors import InvalidRequest

blp = Blueprint("replays", __name__, url_prefix="/games", description="Replay files")

FILE_DOC = {
    "200": {
        "description": "the replay file (without `at`), or the table at step `at` as JSON",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


class ReplayQuerySchema(ma.Schema):
    at = fields.Integer(
        validate=validate.Range(min=1), metadata={"description": "show the table after event N"}
    )
    as_seat = fields.Integer(
        data_key="as",
        validate=validate.Range(min=0),
        metadata={"description": "with `at`: as this seat saw it (default: everything open)"},
    )


@blp.route("/<game_id>/replay")
class ReplayFile(MethodView):
    @blp.doc(responses=FILE_DOC)
    @problems(blp, 403, 404, 409, 410, 422)
    @blp.arguments(ReplayQuerySchema, location="query")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The replay file of a finished game, or (``at``) the table at one of its steps."""
        text = get_service().replay_file(game_id)
        if "at" not in query:
            disposition = f'inline; filename="{game_id}.replay.json"'
            headers = {"Content-Disposition": disposition, "Cache-Control": "public, max-age=3600"}
            return Response(text, mimetype="application/json", headers=headers)
        replay = loads(text)
        if "as_seat" in query and query["as_seat"] >= replay.header.players:
            raise InvalidRequest(f"seat must be between 0 and {replay.header.players - 1}")
        try:
            rules = get_service().rules(replay.header.game)
            data = table_at(replay, query["at"], query.get("as_seat"), rules)
        except ValueError as err:
            raise InvalidRequest(str(err)) from None
        return Response(json.dumps(data), mimetype="application/json")
