"""Actions: a seat plays; the body is the action plus the version it expects."""

from __future__ import annotations

import re
from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas
from service.api.deps import SECURITY, get_service, problems, required_seat
from service.errors import Forbidden, InvalidRequest

blp = Blueprint("actions", __name__, url_prefix="/games", description="Play actions")

IF_MATCH = re.compile(r'^(?:W/)?"?(\d{1,18})"?$')
NOT_ACTION_FIELDS = ("expected_version", "seat")


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 400, 401, 403, 404, 409, 413, 422, 500)
    @blp.arguments(schemas.ActionSchema())
    @blp.arguments(schemas.ActionHeadersSchema(), location="headers")
    @blp.response(200, schemas.ActionResultSchema())
    def post(
        self, body: dict[str, Any], headers: dict[str, Any], game_id: str
    ) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Play one action: returns the new version, your redacted new events and your view.

        Send ``expected_version`` in the body or ``If-Match: "<version>"``; a stale version is
        a 409 ``version_conflict``. Retrying with the same ``Idempotency-Key`` returns the
        first response and plays nothing twice.
        """
        seat = required_seat(game_id, body.get("seat"))
        if body.get("seat", seat) != seat:
            raise Forbidden(f"your token holds seat {seat}, not seat {body['seat']}")
        expected = _expected_version(body.get("expected_version"), headers.get("if_match"))
        action = {k: v for k, v in body.items() if k not in NOT_ACTION_FIELDS}
        result = get_service().submit_action(
            game_id, seat, action, expected, headers.get("idempotency_key")
        )
        return result, 200, {"ETag": f'"{result["version"]}"'}


def _expected_version(in_body: int | None, if_match: str | None) -> int:
    from_header = None
    if if_match is not None:
        match = IF_MATCH.match(if_match.strip())
        if match is None:
            raise InvalidRequest(f'If-Match must be a version like "7", got {if_match!r}')
        from_header = int(match.group(1))
    if in_body is None and from_header is None:
        raise InvalidRequest("send expected_version in the body or an If-Match header")
    if in_body is not None and from_header is not None and in_body != from_header:
        raise InvalidRequest("expected_version and If-Match disagree")
    return in_body if in_body is not None else int(from_header)  # type: ignore[arg-type]
