"""Fair dealing's public key: ``GET /fairness/key`` names the key the server signs receipts with
(docs/fairness.md, "Signed receipts"), for ``cardroom replay verify --public-key``."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields

from service.api.deps import get_service
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


@blp.route("/key")
class Key(MethodView):
    @blp.response(200, KeySchema())
    def get(self) -> dict[str, Any]:
        """The public key of the server's signed receipts."""
        return described(get_service().signer)
