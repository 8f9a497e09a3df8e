"""Actions: a seat plays; the body is the action plus the version it expects."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError

from service.api import bodies, schemas
from service.api.deps import SECURITY, get_service, problems, required_token
from service.errors import Forbidden, InvalidField, InvalidRequest
from service.games import GameService
from service.store import Quota
from service.store.port import MAX_VERSION

blp = Blueprint("actions", __name__, url_prefix="/games", description="Play actions")

IF_MATCH = re.compile(r'^(?:W/)?"?(\d{1,18})"?$')
NOT_ACTION_FIELDS = ("expected_version", "seat")


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 400, 401, 403, 404, 409, 410, 413, 422, 500)
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
        return _play(game_id, body, headers)


def _play(
    game_id: str, body: dict[str, Any], headers: dict[str, Any]
) -> tuple[dict[str, Any], int, dict[str, str]]:
    token = required_token()
    return play(get_service(), game_id, body, token, headers.get("idempotency_key"),
                headers.get("if_match"))  # fmt: skip


def play(
    service: GameService,
    game_id: str,
    body: dict[str, Any],
    token: str,
    idempotency_key: str | None = None,
    if_match: str | None = None,
    quota: Quota | None = None,
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Play the body's action for the seat ``token`` holds: (result, status, headers).
    ``quota``: counted by the action's append (``GameService.submit_action``)."""
    holder = service.claim(game_id, token, body.get("seat"))
    seat = holder.seat
    if body.get("seat", seat) != seat:
        raise Forbidden(f"your token holds seat {seat}, not seat {body['seat']}")
    expected = _expected_version(body.get("expected_version"), if_match)
    action = {k: v for k, v in body.items() if k not in NOT_ACTION_FIELDS}
    result = service.submit_action(game_id, seat, action, expected, idempotency_key, quota,
                                   token_hash=holder.token_hash)  # fmt: skip
    return result, 200, {"ETag": f'"{result["version"]}"'}


# The hot path. flask-smorest documents the operation above (its schemas, problems, security);
# requests are served by ``direct`` below, which loads the body and headers through the same
# schema objects, dumps the result through the same response schema and encodes it as the
# generic path does, without webargs' and flask-smorest's per-request machinery. Anything it
# does not take as it is (no checked JSON object, a field the schemas refuse) goes the
# generic way, so every refusal keeps its one shape.
_BODY = schemas.ActionSchema()
_HEADERS = schemas.ActionHeadersSchema()
_RESULT = schemas.ActionResultSchema()
_HEADER_NAMES = ("Idempotency-Key", "If-Match")


def install_direct(app: Flask) -> None:
    """Serve the documented actions operation through ``direct`` (after the blueprint)."""
    endpoint = f"{blp.name}.{Actions.__name__}"
    generic = cast(Callable[..., ResponseReturnValue], app.view_functions[endpoint])

    def direct(game_id: str) -> ResponseReturnValue:
        data = bodies.parsed_json()
        if not isinstance(data, dict):
            return generic(game_id=game_id)
        sent = {name: request.headers[name] for name in _HEADER_NAMES if name in request.headers}
        try:
            body, headers = _BODY.load(data), _HEADERS.load(sent)
        except ValidationError:
            return generic(game_id=game_id)
        result, status, extra = _play(game_id, body, headers)
        response = jsonify(_RESULT.dump(result))
        response.status_code = status
        response.headers.update(extra)
        return response

    app.view_functions[endpoint] = direct


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
    expected = in_body if in_body is not None else int(from_header)  # type: ignore[arg-type]
    if expected > MAX_VERSION:  # no game gets there; the store could not name the version
        raise InvalidField("expected_version", f"is past any version (at most {MAX_VERSION})")
    return expected
