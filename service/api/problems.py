"""The one place where errors become HTTP: ``application/problem+json`` (RFC 9457).

Every problem has ``type``, ``title``, ``status``, ``detail`` and a stable machine ``code``;
some add ``reason`` (which rule), ``current_version`` or ``errors`` (field -> messages).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from domain.errors import DomainError
from service.errors import ServiceError
from service.store.port import (
    ChainBroken,
    GameExists,
    IdempotencyKeyReused,
    SeatTaken,
    StoreError,
    UnknownGameId,
    VersionConflict,
)
from service.store.redis import OUTAGES

log = logging.getLogger(__name__)

PROBLEM_TYPE = "application/problem+json"

# code -> (HTTP status, title)
CODES: dict[str, tuple[int, str]] = {
    "invalid_request": (400, "Invalid request"),
    "unknown_game": (422, "Unknown game"),
    "invalid_options": (422, "Invalid options"),
    "invalid_setup": (422, "Invalid setup"),
    "invalid_deal": (422, "Invalid deal"),
    "invalid_card": (422, "Invalid card"),
    "invalid_action": (422, "Invalid action"),
    "illegal_action": (422, "Illegal action"),
    "domain_error": (422, "Refused by the rules"),
    "not_your_turn": (409, "Not your turn"),
    "game_over": (409, "Game over"),
    "game_not_over": (409, "Game not over"),
    "version_conflict": (409, "Version conflict"),
    "seat_taken": (409, "Seat taken"),
    "game_exists": (409, "Game exists"),
    "unauthorized": (401, "Unauthorized"),
    "forbidden": (403, "Forbidden"),
    "not_found": (404, "Not found"),
    "method_not_allowed": (405, "Method not allowed"),
    "not_acceptable": (406, "Not acceptable"),
    "payload_too_large": (413, "Payload too large"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "idempotency_key_reused": (422, "Idempotency key reused"),
    "unknown_bot": (422, "Unknown bot"),
    "bot_exists": (409, "Bot name taken"),
    "rate_limited": (429, "Too many requests"),
    "integrity_error": (500, "Stored history failed its integrity check"),
    "internal_error": (500, "Internal error"),
    "store_unavailable": (503, "Store unavailable"),
}

RETRY_AFTER_SECONDS = 2  # Retry-After of store_unavailable

HTTP_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
}

STORE_CODES: dict[type[StoreError], str] = {
    VersionConflict: "version_conflict",
    IdempotencyKeyReused: "idempotency_key_reused",
    UnknownGameId: "not_found",
    SeatTaken: "seat_taken",
    GameExists: "game_exists",
    ChainBroken: "integrity_error",
}


def problem(
    code: str,
    detail: str,
    *,
    status: int | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A problem+json response for a code."""
    default_status, title = CODES.get(code, (status or 500, code.replace("_", " ").capitalize()))
    status = status or default_status
    body = {
        "type": f"/problems/{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def from_domain(err: DomainError) -> Response:
    """A rule or input refused by a game."""
    reason = err.reason if err.reason != err.code else None
    return problem(err.code, err.message, reason=reason)


def from_service(err: ServiceError) -> Response:
    """A request refused by the service layer."""
    headers = {"WWW-Authenticate": 'Bearer realm="cardroom"'} if err.code == "unauthorized" else {}
    return problem(err.code, err.message, headers=headers, **err.extra)


def from_store(err: StoreError) -> Response:
    """A storage outcome the caller must hear about (conflicts, reused keys)."""
    code = next((c for t, c in STORE_CODES.items() if isinstance(err, t)), "internal_error")
    if code == "integrity_error":
        log.error("integrity check failed: %s", err)
    if isinstance(err, VersionConflict):
        return problem(
            code,
            f"the game is at version {err.current}, not {err.expected}",
            current_version=err.current,
        )
    return problem(code, str(err))


def from_http(err: HTTPException) -> Response:
    """Werkzeug/flask-smorest errors: routing, body size, schema validation (``data``)."""
    status = err.code or 500
    code = HTTP_CODES.get(status, "internal_error" if status >= 500 else f"http_{status}")
    data = getattr(err, "data", None) or {}
    errors = _plain(data.get("errors") or data.get("messages"))
    detail = data.get("message") or err.description or err.name
    if isinstance(errors, list) and errors and all(isinstance(e, str) for e in errors):
        detail = "; ".join(errors)
    elif errors:
        detail = "the request does not match the schema"
    headers = {k: v for k, v in err.get_headers() if k.lower() != "content-type"}
    headers.update(data.get("headers") or {})  # flask-smorest may pass headers=None
    if status >= 500:
        log.error("HTTP %s: %s", status, detail)
    return problem(
        code, str(detail), status=status, headers=headers, errors=errors or None
    )


def from_outage(err: Exception) -> Response:
    """The event store cannot be reached: nothing was changed; retry shortly."""
    log.warning("store unavailable: %s", err)
    return problem(
        "store_unavailable",
        "the event store is unreachable; nothing was changed, retry shortly",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def from_unexpected(err: Exception) -> Response:
    """A bug: logged, answered as a problem (never an HTML page)."""
    log.exception("unhandled error", exc_info=err)
    return problem("internal_error", "an unexpected error occurred")


def _plain(errors: Any) -> Any:
    """webargs nests errors by location (``{"json": {...}}``); flatten that one level."""
    if isinstance(errors, Mapping) and len(errors) == 1:
        ((location, inner),) = errors.items()
        if location in ("json", "query", "headers", "view_args", "form") and inner:
            return inner
    return errors


def register(app: Flask) -> None:
    """Install the handlers (after flask-smorest's Api, so ours win)."""
    app.register_error_handler(DomainError, from_domain)
    app.register_error_handler(ServiceError, from_service)
    app.register_error_handler(StoreError, from_store)
    app.register_error_handler(HTTPException, from_http)
    for outage in OUTAGES:
        app.register_error_handler(outage, from_outage)
    app.register_error_handler(Exception, from_unexpected)
