"""The one place where errors become HTTP: ``application/problem+json`` (RFC 9457).

Every problem has ``type``, ``title``, ``status``, ``detail`` and a stable machine ``code``;
some add ``reason`` (which rule), ``current_version`` or ``errors`` (field -> messages).

``render`` is the one renderer: an error -> its answer (status, headers, body), the renderer of
the nearest class of the error's in ``RENDERERS``, as Flask picks an error handler. Flask's
error handlers are ``render`` (``register``); the action hot path in front of Flask
(``service.api.hotpath``) and the bot accounts' limit (``service.api.limits.BotRequests``)
answer with it too, outside any request context. What Flask adds to every answer (the security
headers, the request's timing) they add themselves, with the same functions.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response
from flask_limiter import RateLimitExceeded
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from domain.errors import DomainError
from service.api.excerpts import excerpted
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
    "invalid_field": (422, "Invalid field"),
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
    "fork_sealed": (403, "Fork sealed"),
    "game_playing": (409, "Game being played"),
    "game_archived": (410, "Game archived"),
    "version_conflict": (409, "Version conflict"),
    "seat_taken": (409, "Seat taken"),
    "entropy_not_awaited": (409, "Entropy not awaited"),
    "entropy_posted": (409, "Entropy sent already"),
    "game_exists": (409, "Game exists"),
    "unauthorized": (401, "Unauthorized"),
    "forbidden": (403, "Forbidden"),
    "seat_left": (403, "Seat left"),
    "not_found": (404, "Not found"),
    "method_not_allowed": (405, "Method not allowed"),
    "not_acceptable": (406, "Not acceptable"),
    "payload_too_large": (413, "Payload too large"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "idempotency_key_reused": (422, "Idempotency key reused"),
    "unknown_bot": (422, "Unknown bot"),
    "bot_unavailable": (422, "Bot unavailable"),
    "bot_exists": (409, "Bot name taken"),
    "bot_accounts_full": (409, "No more bot accounts"),
    "rate_limited": (429, "Too many requests"),
    "uri_too_long": (414, "URI too long"),
    "expectation_failed": (417, "Expectation failed"),
    "headers_too_large": (431, "Request header fields too large"),
    "not_implemented": (501, "Not implemented"),
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
    """A problem+json response for a code (quoting at most excerpts of the input): its headers
    are Content-Type, Content-Length, then ``headers``; its body is encoded by the standard
    library (as ``flask.json`` encodes it: the app keeps keys in order)."""
    body = problem_body(code, detail, status)
    body.update({k: v for k, v in extra.items() if v is not None})
    body = excerpted(body)
    response = Response(json.dumps(body), status=body["status"], mimetype=PROBLEM_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


# code -> when it happens (the page each problem's ``type`` URI resolves to)
DESCRIPTIONS: dict[str, str] = {
    "invalid_request": "The request is malformed: not JSON, nested too deeply, missing the "
    "expected version, or not matching the operation's schema (then `errors` names the fields).",
    "invalid_field": "One field (named in `field`) holds what no field may: an unpaired "
    "surrogate or a control character in a string (keys included), a JSON integer of more "
    "than 4,300 digits, or an expected version past 2^53 - 1.",
    "unknown_game": "The game name is not one this server plays (see GET /catalogue).",
    "invalid_options": "An option is unknown, of the wrong type or out of range for the game.",
    "invalid_setup": "The seats or dealer do not fit the game (player count, dealer seat).",
    "invalid_deal": "An explicit deal names unknown zones or cards, repeats a card or has a "
    "wrong seat count or zone size, or holds a match state that cannot be (then `field` names "
    "it, e.g. deal.extra.match_points[0]).",
    "invalid_card": "A card is not a card code of this game's deck; the detail says the shape.",
    "invalid_action": "The action's shape is wrong (unknown type, missing or extra fields); "
    "the detail says what to send.",
    "illegal_action": "The rules refuse this action now; `reason` names the rule.",
    "not_your_turn": "Another seat is to act.",
    "game_over": "The game has ended: no more actions.",
    "game_not_over": "The game has not ended yet: its replay exists once it does.",
    "fork_sealed": "A seat's fork of a game still being played: until that game ends only "
    "the seat that forked it reads it (with its token); its summary, views, events, replay, "
    "review and forks are refused to anyone else, and it is not listed.",
    "game_archived": "The game is over and was moved to the archive: its summary, events, "
    "replay and verification are still served, its views, streams, seats and actions are not.",
    "version_conflict": "The game moved on: `current_version` is where it is now; read the "
    "view and send again with that version.",
    "seat_taken": "The seat was joined already or belongs to a bot.",
    "game_exists": "A game with this id exists already.",
    "unauthorized": "The request needs a seat token (Authorization: Bearer <token>), or the "
    "token is unknown.",
    "forbidden": "The token holds another seat than the one the request acts for.",
    "seat_left": "The token's holder left the seat (a leave): the token acts for nobody now.",
    "not_found": "No such game, seat or path.",
    "idempotency_key_reused": "The Idempotency-Key was used before with another request body.",
    "payload_too_large": "The body is larger than the server accepts.",
    "uri_too_long": "The request line is longer than the server accepts.",
    "headers_too_large": "A header, or the headers together, are larger than the server "
    "accepts.",
    "integrity_error": "The stored history of the game failed its hash-chain check.",
    "internal_error": "A bug: the server logged it.",
}


def problem_page(code: str) -> Response:
    """``GET /problems/<code>``: the page a problem's ``type`` URI resolves to."""
    if code not in CODES:
        return problem("not_found", f"no problem code {code!r}")
    status, title = CODES[code]
    described = DESCRIPTIONS.get(code, f"{title} (HTTP {status}).")
    page = (
        f"<!doctype html><html><head><meta charset=\"utf-8\"><title>{escape(title)}</title>"
        f"</head><body><h1>{escape(title)}</h1><p>code <code>{escape(code)}</code>, HTTP "
        f"{status}</p><p>{escape(described)}</p></body></html>"
    )
    return Response(page, mimetype="text/html")


def problem_body(code: str, detail: str, status: int | None = None) -> dict[str, Any]:
    """The members every problem has."""
    default_status, title = CODES.get(code, (status or 500, code.replace("_", " ").capitalize()))
    status = status or default_status
    return {
        "type": f"/problems/{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }


def from_domain(err: DomainError) -> Response:
    """A rule or input refused by a game."""
    reason = err.reason if err.reason != err.code else None
    return problem(err.code, err.message, reason=reason, field=getattr(err, "field", None))


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


class RateLimited(Exception):
    """A request past a limit (``service.api.limits`` raises its kinds): a 429 ``rate_limited``
    naming the limit, with ``Retry-After`` in whole seconds."""

    def __init__(self, limit: str, retry_after: int) -> None:
        super().__init__(limit)
        self.limit, self.retry_after = limit, retry_after


def from_rate_limit(err: RateLimited) -> Response:
    """A request past a limit: retry after ``err.retry_after`` seconds."""
    return problem(
        "rate_limited",
        f"too many requests: at most {err.limit}; retry after {err.retry_after} s",
        headers={"Retry-After": str(err.retry_after)},
    )


def from_limiter(err: RateLimitExceeded) -> Response:
    """Flask-Limiter's refusal (creates, new bot accounts): retry after the window's length,
    read from nothing (the refusal is decided, and a Redis read here, the window's reset time,
    would turn it into a 500 when Redis just went away)."""
    retry_after = max(1, math.ceil(err.limit.limit.get_expiry()))
    return from_rate_limit(RateLimited(str(err.description), retry_after))


def _plain(errors: Any) -> Any:
    """webargs nests errors by location (``{"json": {...}}``); flatten that one level."""
    if isinstance(errors, Mapping) and len(errors) == 1:
        ((location, inner),) = errors.items()
        if location in ("json", "query", "headers", "view_args", "form") and inner:
            return inner
    return errors


# error class -> its renderer; an error is rendered by its nearest class's (``render``)
RENDERERS: dict[type[Exception], Callable[[Any], Response]] = {
    DomainError: from_domain,
    ServiceError: from_service,
    StoreError: from_store,
    RateLimited: from_rate_limit,
    RateLimitExceeded: from_limiter,
    HTTPException: from_http,
    **dict.fromkeys(OUTAGES, from_outage),
    Exception: from_unexpected,
}


def render(error: Exception) -> Response:
    """The problem+json answer to ``error``: the renderer of the first class of its MRO that
    has one, as Flask picks a handler (``Exception``'s at the latest)."""
    kind = next(k for k in type(error).__mro__ if k in RENDERERS)  # Exception: every error's
    return RENDERERS[kind](error)


def register(app: Flask) -> None:
    """Install ``render`` as the handler of every class of ``RENDERERS`` (after flask-smorest's
    Api, so it wins over the Api's own), and the problem pages."""
    app.add_url_rule("/problems/<code>", "problem_page", problem_page, methods=["GET"])
    for kind in RENDERERS:
        app.register_error_handler(kind, render)
