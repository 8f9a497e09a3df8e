"""Verification: the audit of a finished game's replay file, run by the server.

``GET /games/{id}/replay/verification`` runs ``replays.verify.check`` (what ``cardroom replay
verify`` does offline) on the game's replay file and reports the result: the commitment and
seed, the hash chain's head, and whether every batch is what the rules produce.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields

from replays.format import loads
from replays.verify import check
from service.api.deps import get_service, problems

blp = Blueprint(
    "verification", __name__, url_prefix="/games", description="Replay verification"
)


class VerificationSchema(ma.Schema):
    ok = fields.Boolean(metadata={"description": "the replay verifies"})
    summary = fields.String(metadata={"description": "one readable line, as the CLI prints"})
    game = fields.String()
    game_id = fields.String()
    events = fields.Integer()
    batches = fields.Integer()
    head_hash = fields.String(metadata={"description": "hash of the last event of the chain"})
    commitment = fields.String(allow_none=True, metadata={"description": "the deck commitment"})
    seed = fields.String(allow_none=True, metadata={"description": "the revealed seed"})
    explicit_deal = fields.Boolean()
    outcome = fields.Dict(allow_none=True)
    bad_version = fields.Integer(
        allow_none=True, metadata={"description": "the first event found wrong"}
    )
    reason = fields.String()


@blp.route("/<game_id>/replay/verification")
class Verification(MethodView):
    @problems(blp, 403, 404, 409, 500)
    @blp.response(200, VerificationSchema())
    def get(self, game_id: str) -> dict[str, Any]:
        """Verify the replay file of a finished game on the server, as the CLI does offline."""
        replay = loads(get_service().replay_file(game_id))
        report = check(replay)
        header = replay.header
        return {
            "ok": report.ok,
            "summary": report.summary(),
            "game": report.game,
            "game_id": report.game_id,
            "events": report.events,
            "batches": report.batches,
            "head_hash": report.head_hash,
            "commitment": header.commitment,
            "seed": header.seed,
            "explicit_deal": header.explicit_deal,
            "outcome": report.outcome,
            "bad_version": report.bad_version,
            "reason": report.reason,
        }
