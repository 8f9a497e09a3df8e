"""Seats: join an open seat and receive its token (once)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas
from service.api.deps import SECURITY, bearer_token, get_service, problems, required_token

blp = Blueprint("seats", __name__, url_prefix="/games", description="Join open seats")


@blp.route("/<game_id>/seats/<int:seat>")
class Seat(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 400, 401, 403, 404, 409, 410, 413, 422)
    @blp.arguments(schemas.JoinSeatSchema())
    @blp.arguments(schemas.IdempotencyHeadersSchema(), location="headers")
    @blp.response(201, schemas.JoinedSchema())
    def post(
        self, body: dict[str, Any], headers: dict[str, Any], game_id: str, seat: int
    ) -> dict[str, Any]:
        """Fill an open seat with your entropy; the response holds the seat's token.

        The token is shown once, except to a retry of the same request (name and ``entropy``)
        with the same ``Idempotency-Key``, which gets the same token: such a key is a secret of
        at least 22 random characters, sent with your own ``entropy`` (400 otherwise). The join
        that fills the last seat deals (docs/fairness.md). The seat of a sealed fork (a seat's
        fork of a game still played) is taken with the token of that seat of that game.
        """
        return get_service().join_seat(
            game_id, seat, body["name"], body.get("entropy"), headers.get("idempotency_key"),
            token=bearer_token(),
        )  # fmt: skip


@blp.route("/<game_id>/seats/<int:seat>/entropy")
class SeatEntropy(MethodView):
    @blp.doc(security=[{"bearerAuth": []}])
    @problems(blp, 400, 401, 403, 404, 409, 410, 413, 422)
    @blp.arguments(schemas.SeatEntropySchema())
    @blp.response(200, schemas.EntropyRecordedSchema())
    def post(self, body: dict[str, Any], game_id: str, seat: int) -> dict[str, Any]:
        """A bot account's own entropy for its seat, which the deal awaits (docs/bots.md).

        With the bot's token. The bot stream's ``entropyWanted`` asks for it; the deal waits
        for every such seat (or, after ``CARDROOM_ENTROPY_SECONDS``, 30 s by default and at
        most the game's ``idle_seconds``, fills it with the fallback published at creation).
        The same value again answers as the first time; another value is a 409
        ``entropy_posted``, a seat that awaits no entropy (a person's, a built-in bot's, one
        filled already) a 409 ``entropy_not_awaited``.
        """
        return get_service().post_entropy(game_id, seat, required_token(), body["entropy"])
