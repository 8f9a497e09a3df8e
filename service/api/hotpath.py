"""The action endpoint's hot path: WSGI middleware in front of Flask for a plain action.

``POST /games/{id}/actions`` is the one request a live game makes many times a second. Flask's
per-request machinery (request context, URL matching, hooks, the rate-limit wrapper, context
locals) cost more CPU than the action itself, so a plain action is served here, before Flask:

- plain means: a JSON object body of at most ``MAX_CONTENT_LENGTH`` bytes that the service's
  own checks take as it is (``bodies.json_too_deep``, ``bodies.bad_field``), ``type`` a string,
  ``expected_version`` a whole number >= 0, ``seat`` absent or a whole number, a bearer token,
  no query string, no ``If-Match``, an ``Idempotency-Key`` (if any) of the documented form;
- it is counted against its seat's rate limit (``limits.ActionLimit``) by its own append, in
  the same round trip, or once it ended without one. This is the one place the action limit
  is counted: every other request to the endpoint (whatever Flask then makes of it: an
  If-Match, a body its checks or schemas refuse) is counted here before it is handed on, and
  refused here past the limit (whatever its body);
- it is played holding one of the process's action slots (``CARDROOM_ACTION_SLOTS``, default
  2; ``service.api.slots``): the others wait in the order they came, which keeps the slowest
  actions near the mean under load (docs/decisions.md, "Actions take a slot");
- such a request is played by the same ``actions.play`` the documented view calls, and
  answered by the same ``actions.answer`` (the ``ETag``, the security headers of
  ``service.api.security`` as Flask adds them), timed in the same
  metric; once the answer is written the connection waits a turn of the event loop
  (``Answered``);
- an error raised while playing, and a 429, is answered here by the renderer of Flask's error
  handlers (``problems.render``), with the security headers and timed in the same metric as
  Flask does it; nothing was stored when an error is raised, except as the store's own errors
  say;
- anything else goes to Flask untouched (the body handed on as it came).
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from flask import Flask

from service import metrics
from service.api import bodies, limits, problems
from service.api.actions import answer, play
from service.api.security import HEADERS, secured
from service.api.slots import ActionSlots
from service.games import GameService

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]

PATH = re.compile(r"/games/([A-Za-z0-9_.~-]{1,128})/actions")  # a plain action's
ROUTE_PATH = re.compile(r"/games/([^/]+)/actions")  # any request to the route (Flask's match)
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,200}")
ROUTE = "/games/<game_id>/actions"  # Flask's rule: the route label of the request metric


class ActionHotPath:
    """WSGI middleware: plain actions played here, everything else passed to ``app``."""

    def __init__(self, app: Flask, service: GameService) -> None:
        self.flask: WSGIApp = app.wsgi_app
        self.service = service
        self.slots = ActionSlots(int(app.config.get("CARDROOM_ACTION_SLOTS") or 0))
        self.max_length = int(app.config.get("MAX_CONTENT_LENGTH") or 0)
        self.limit: limits.ActionLimit | None = app.extensions.get(limits.ACTION_LIMIT)
        self.timed = metrics.REQUEST_SECONDS.labels("POST", ROUTE, "200")

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST":
            return self.flask(environ, start_response)
        route = ROUTE_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if route is None:
            return self.flask(environ, start_response)
        started = time.perf_counter()
        plain = None
        if (
            PATH.fullmatch(route.string) is not None
            and not environ.get("QUERY_STRING")
            and "HTTP_IF_MATCH" not in environ
            and environ.get("CONTENT_TYPE") == "application/json"
        ):
            body = self._body(environ)
            plain = None if body is None else _plain(body, environ)
        game_id, limit = route.group(1), self.limit
        if plain is None:
            return self._hand_on(game_id, started, environ, start_response)
        data, token, key = plain
        quota = None if limit is None else limit.quota(limits.token_key(token))
        try:
            with self.slots:
                result, status, headers = play(self.service, game_id, data, token, key, quota=quota)
            if quota is not None and limit is not None and not quota.counted:
                limit.settle(game_id, quota)  # a retry answered without an append
        except Exception as error:
            if quota is not None and limit is not None:
                error = limit.outcome(game_id, quota, error)
            return _refuse(error, started, environ, start_response)
        payload = answer(result)
        start_response(
            f"{status} OK",
            [("Content-Type", "application/json"), ("Content-Length", str(len(payload))),
             *headers.items(), *HEADERS],
        )  # fmt: skip
        self.timed.observe(time.perf_counter() - started)
        return Answered(payload)

    def _hand_on(
        self, game_id: str, started: float, environ: Environ, start_response: StartResponse
    ) -> Iterable[bytes]:
        """Count a request that is not a plain action, then hand it to Flask (or refuse it:
        past the limit)."""
        quota = None if self.limit is None else self.limit.quota(limits.seat_key(environ))
        if quota is not None and self.limit is not None:
            try:
                self.limit.settle(game_id, quota)
            except limits.ActionsLimited as refused:
                return _refuse(refused, started, environ, start_response)
        return self.flask(environ, start_response)

    def _body(self, environ: Environ) -> bytes | None:
        """The body (then also handed on to Flask as it came), or None when not plain."""
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return None
        if not 0 < length <= self.max_length:
            return None
        body: bytes = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(body)
        return body if len(body) == length else None


def _plain(body: bytes, environ: Environ) -> tuple[dict[str, Any], str, str | None] | None:
    """(the body's object, the bearer token, the idempotency key) of a plain action."""
    header = environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    key = environ.get("HTTP_IDEMPOTENCY_KEY")
    if scheme.lower() != "bearer" or not token:
        return None
    if key is not None and IDEMPOTENCY_KEY.fullmatch(key) is None:
        return None
    if bodies.LONG_DIGITS.search(body) or bodies.json_too_deep(body):
        return None
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or bodies.bad_field(data) is not None:
        return None
    if not (isinstance(data.get("type"), str) and _whole(data.get("expected_version"), 0)):
        return None
    if "seat" in data and not _whole(data["seat"], None):
        return None
    return data, token, key


def _whole(value: object, least: int | None) -> bool:
    return type(value) is int and (least is None or value >= least)


def _refuse(
    error: Exception, started: float, environ: Environ, start_response: StartResponse
) -> Iterable[bytes]:
    """``error``'s answer as Flask's error handlers and ``after_request`` hooks make it: the one
    renderer (``problems.render``), the security headers, the request metric (its status)."""
    response = secured(problems.render(error))
    metrics.REQUEST_SECONDS.labels("POST", ROUTE, str(response.status_code)).observe(
        time.perf_counter() - started
    )
    return response(environ, start_response)


class Answered(list[bytes]):
    """An answer's body that gives the event loop a turn once it is written (gunicorn calls
    ``close`` after the last byte, before it reads the connection's next request).

    Under gevent an action often runs start to end without yielding (the kernel runs Redis
    as soon as the request is sent and its reply is there when read), and then so could the
    connection's next request, already sent: one keep-alive connection could be served again
    and again while the requests that did wait for Redis waited for the whole turn, and set
    the tail (docs/decisions.md). With this each connection is served at most once a turn of
    the loop. Without gevent, ``time.sleep(0)`` only yields the CPU."""

    def __init__(self, payload: bytes) -> None:
        super().__init__((payload,))

    def close(self) -> None:
        time.sleep(0)  # gevent's cooperative sleep in a gevent worker: the loop's turn
