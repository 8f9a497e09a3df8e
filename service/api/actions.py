"""Actions: a seat plays; the body is the action plus the version it expects.

The endpoint: the body parsed (the documented schemas), one call (``play``), the result
serialised (``answer``), an error answered by the one renderer (``problems.render``). A plain
action is served before Flask by ``service.api.hotpath`` with the same ``play``, ``answer`` and
renderer; the view below serves every other request of the operation."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import marshmallow as ma
import orjson
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields

from service.api import schemas
from service.api.deps import SECURITY, get_service, problems, required_token
from service.errors import Forbidden, InvalidField, InvalidRequest
from service.games import GameService
from service.responses import ActionResponse
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
    def post(self, body: dict[str, Any], headers: dict[str, Any], game_id: str) -> Response:
        """Play one action: returns the new version, your redacted new events and your view.

        Send ``expected_version`` in the body or ``If-Match: "<version>"``; a stale version is
        a 409 ``version_conflict``. Retrying with the same ``Idempotency-Key`` returns the
        first response and plays nothing twice.
        """
        key, if_match = headers.get("idempotency_key"), headers.get("if_match")
        result, status, extra = play(get_service(), game_id, body, required_token(), key, if_match)
        return Response(answer(result), status, extra, content_type="application/json")


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


def dump_order(schema: ma.Schema) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """What ``schema.dump`` makes of data it passes through unchanged (every field plain,
    ``Nested`` or a ``List`` of ``Nested``): the same keys, in the schema's order."""
    plan: list[tuple[str, Callable[[Any], Any] | None, bool]] = []
    for name, field in schema.dump_fields.items():
        inner = field.inner if isinstance(field, fields.List) else field
        nested = dump_order(inner.schema) if isinstance(inner, fields.Nested) else None
        plan.append((field.data_key or name, nested, inner is not field))

    def ordered(data: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, nested, many in plan:
            if key in data:
                value = data[key]
                if nested is not None:
                    value = [nested(v) for v in value] if many else nested(value)
                out[key] = value
        return out

    return ordered


RESULT_ORDER = dump_order(schemas.ActionResultSchema())


def answer(result: dict[str, Any]) -> bytes:
    """An action's result as JSON, in the response schema's order and encoded as ``jsonify``
    encodes every other answer of the API. The events and the view of an ``ActionResponse`` are
    written as they were encoded when it was made (not encoded again)."""
    if isinstance(result, ActionResponse):
        out = _ascii(orjson.dumps(RESULT_ORDER(result.fragments())))
        if out is not None:
            return out
    return encode(RESULT_ORDER(result))


def encode(result: dict[str, Any]) -> bytes:
    """What ``flask.jsonify`` makes of ``result`` (compact, ASCII, in order, a newline)."""
    try:
        out = _ascii(orjson.dumps(result))
    except TypeError:  # an integer past 64 bits: the standard encoder takes it
        out = None
    if out is not None:
        return out
    return (json.dumps(result, separators=(",", ":")) + "\n").encode()


def _ascii(out: bytes) -> bytes | None:
    """orjson's text with jsonify's newline when it is the standard encoder's too (no character
    it would escape: past ASCII, or DEL, which orjson does not escape)."""
    return out + b"\n" if out.isascii() and b"\x7f" not in out else None
