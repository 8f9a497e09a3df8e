"""Rate limits (Flask-Limiter) on the same Redis as the store: creates per client, actions per seat.

Settings (app config or environment): ``CARDROOM_RATE_LIMITS`` (1 on, 0 off),
``CARDROOM_LIMIT_CREATE`` (``POST /games`` per client address) and ``CARDROOM_LIMIT_BOTS``
(``POST /bots``, new bot accounts, per client address), kept in
``RATELIMIT_STORAGE_URI``: default ``REDIS_URL``, a Redis Cluster's ``redis+cluster://`` URL
included; ``memory://`` for one process), ``CARDROOM_LIMIT_ACTIONS`` (``POST
/games/{id}/actions`` per seat token, else per address, on each game: counted by the event
store beside the game, in the action's own append: ``ActionLimit``),
``CARDROOM_LIMIT_BOT_REQUESTS`` (every request with an HTTP bot account's token, its actions
and reads across all its games together, per account: ``BotLimit``, counted in front of the
app by ``BotRequests``, which sends a refusal after ``CARDROOM_BOT_REFUSAL_PAUSE`` seconds).
A refused request is a 429 problem+json ``rate_limited`` with
``Retry-After`` (whole seconds: for a create, the limit's window, as the refusal reads nothing
from Redis), written by ``problems.render`` wherever it is refused (Flask's handlers, the
action hot path, ``BotRequests``). When the limits' storage is unreachable requests are let
through (logged), not refused.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from service.api import problems
from service.api.security import secured
from service.digests import token_hash
from service.store import Quota, QuotaExceeded, Quotas
from service.store.connect import is_cluster_url

log = logging.getLogger(__name__)

CREATE_ENDPOINT = "games.Games"
BOTS_ENDPOINT = "bots.Bots"  # new bot accounts
FORK_ENDPOINT = "games.Forks"  # a fork is a creation: the same limit, counted on its own
REMATCH_ENDPOINT = "games.Rematch"  # a rematch too (one game per finished game)


def client_key() -> str:
    """A client: its address (behind a proxy, configure the proxy's forwarded address)."""
    return f"ip:{get_remote_address()}"


def seat_key(environ: dict[str, Any]) -> str:
    """A request's seat: the digest of its bearer token, else the client's address (as
    ``client_key``: behind trusted proxies, the forwarded one)."""
    header = environ.get("HTTP_AUTHORIZATION", "")
    if header.lower().startswith("bearer ") and header[7:].strip():
        return token_key(header[7:].strip())
    return f"ip:{environ.get('REMOTE_ADDR') or '127.0.0.1'}"


def token_key(token: str) -> str:
    """The limit key of a seat token."""
    return "seat:" + hashlib.sha256(token.encode()).hexdigest()[:32]


def install(
    app: Flask, quotas: Quotas, account_of: Callable[[str], str | None] | None = None
) -> Limiter:
    """Attach the limiter and its limits to the app's create and action endpoints (the
    actions' counted by ``quotas``: ``ActionLimit``). With ``account_of`` (a token hash -> the
    bot account's name, or None), the bot accounts' limit too (``BotLimit``, in
    ``app.extensions``; ``BotRequests`` counts it in front of the app)."""
    config = app.config
    storage_uri = config.get("RATELIMIT_STORAGE_URI") or ""
    prefix = f"{config['CARDROOM_NAMESPACE']}:limits"
    storage_options: dict[str, Any] = {}
    if not storage_uri and is_cluster_url(config["REDIS_URL"]):
        storage_uri = config["REDIS_URL"]  # limits' own Redis Cluster storage reads it
    elif not storage_uri:  # the store's Redis, whatever its URL scheme (unix:// included)
        storage_uri = "redis://"
        storage_options["connection_pool"] = redis.ConnectionPool.from_url(config["REDIS_URL"])
    limiter = Limiter(
        client_key,
        app=app,
        storage_uri=storage_uri,
        storage_options=storage_options,
        key_prefix=prefix,
        enabled=bool(int(config["CARDROOM_RATE_LIMITS"])),
        swallow_errors=True,
        headers_enabled=False,
    )
    views = app.view_functions
    for endpoint in (CREATE_ENDPOINT, FORK_ENDPOINT, REMATCH_ENDPOINT):
        views[endpoint] = limiter.limit(  # type: ignore[assignment]  # flask typing
            lambda: str(config["CARDROOM_LIMIT_CREATE"]), methods=["POST"], key_func=client_key
        )(views[endpoint])
    if BOTS_ENDPOINT in views:
        views[BOTS_ENDPOINT] = limiter.limit(  # type: ignore[assignment]  # flask typing
            lambda: str(config["CARDROOM_LIMIT_BOTS"]), methods=["POST"], key_func=client_key
        )(views[BOTS_ENDPOINT])
    actions = ActionLimit(limiter, str(config["CARDROOM_LIMIT_ACTIONS"]), quotas)
    app.extensions[ACTION_LIMIT] = actions
    if account_of is not None:
        app.extensions[BOT_LIMIT] = BotLimit(
            limiter, str(config["CARDROOM_LIMIT_BOT_REQUESTS"]), account_of, prefix
        )
    return limiter


ACTION_LIMIT = "cardroom.action_limit"  # app.extensions key of the ActionLimit
BOT_LIMIT = "cardroom.bot_limit"  # app.extensions key of the BotLimit


class ActionsLimited(problems.RateLimited):
    """A seat sent more actions than its limit allows (a 429 rate_limited)."""


class ActionLimit:
    """``CARDROOM_LIMIT_ACTIONS`` per seat token and game, counted by the store with the game
    (``Quota``: fixed windows, in the game's Redis Cluster slot): by the action's own append
    script when it gets that far, so a played action costs no round trip of its own, else by
    one ``count``. Every action request is counted in one place, in front of Flask: the action
    hot path (``service.api.hotpath``), by the append of a plain action it plays, else before
    it hands the request on to Flask. Off when the limiter is; a store that fails
    to count lets the request through (logged), as the limiter's own ``swallow_errors`` does."""

    def __init__(self, limiter: Limiter, limits: str, quotas: Quotas) -> None:
        self.limiter = limiter
        self.items = parse_many(limits)
        self.windows = tuple((item.amount, item.get_expiry() * 1000) for item in self.items)
        self.quotas = quotas

    def quota(self, key: str) -> Quota | None:
        """A fresh count of one request of ``key`` (``seat_key``), or None when limits are off."""
        return Quota(key, self.windows) if self.limiter.enabled else None

    def settle(self, game_id: str, quota: Quota) -> None:
        """Count ``quota``'s request if no append counted it; ActionsLimited past the limit."""
        try:
            self.quotas.count(game_id, quota)
        except QuotaExceeded as exceeded:
            raise self.refusal(exceeded) from None
        except Exception:
            log.exception("the action limit could not be checked; the request goes through")

    def refusal(self, exceeded: QuotaExceeded) -> ActionsLimited:
        """The 429 of a request past its quota."""
        retry_after = max(1, math.ceil(exceeded.retry_after_ms / 1000))
        return ActionsLimited(str(self.items[exceeded.window]), retry_after)

    def outcome(self, game_id: str, quota: Quota, error: Exception) -> Exception:
        """What a request that raised ``error`` answers once counted: its 429 when it is past
        the limit (counted by its append or now), else ``error``."""
        if isinstance(error, QuotaExceeded):
            return self.refusal(error)
        try:
            self.settle(game_id, quota)
        except ActionsLimited as limited:
            return limited
        return error


class BotLimited(problems.RateLimited):
    """A bot account sent more requests than its limit allows (a 429 rate_limited)."""


class BotLimit:
    """``CARDROOM_LIMIT_BOT_REQUESTS`` per HTTP bot account: every request that carries an
    account's token (its actions, views, histories, summaries, stream connections, in all its
    games) counted together, in the limiter's storage (fixed windows, like the creates'), so
    one account's requests cannot take the web processes, the store and the workers from
    everybody else (issue 28 §5). A person's seat token or the operator's token is not counted
    here (their own limits apply).

    Which token is an account's is read from the bot registry (``account_of``, one ``HGET``)
    once per token and process, then remembered (``KNOWN`` tokens at most): a token's account
    never changes (a token is made with its account), and a revoked account's token, still
    counted, holds nothing anyway. Off when the limiter is; storage that fails lets the request
    through (logged), as the limiter's own ``swallow_errors`` does."""

    KNOWN = 10_000

    def __init__(
        self,
        limiter: Limiter,
        limits: str,
        account_of: Callable[[str], str | None],
        prefix: str,
    ) -> None:
        self.limiter, self.account_of, self.prefix = limiter, account_of, prefix
        self.items = parse_many(limits) if limits.strip() else []
        self._known: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def check(self, token: str) -> None:
        """Count one request of ``token`` if it is a bot account's; BotLimited past its limit."""
        if not self.items or not self.limiter.enabled:
            return
        name = self._account(token_hash(token))
        if name is None:
            return
        strategy = self.limiter.limiter
        try:
            passed = [strategy.hit(item, self.prefix, "bot", name) for item in self.items]
        except Exception:
            log.exception("the bot accounts' limit could not be counted; the request goes through")
            return
        if all(passed):
            return
        item = self.items[passed.index(False)]
        raise BotLimited(f"{item} per bot account (its actions and reads in all its games)",
                         self._retry_after(item, name))  # fmt: skip

    def _account(self, digest: str) -> str | None:
        with self._lock:
            if digest in self._known:
                return self._known[digest]
        try:
            name = self.account_of(digest)
        except Exception:  # the registry's Redis: counted again next time
            log.exception("could not tell whether a token is a bot account's")
            return None
        with self._lock:
            if len(self._known) >= self.KNOWN:
                self._known.pop(next(iter(self._known)))  # the oldest
            self._known[digest] = name
        return name

    def _retry_after(self, item: Any, name: str) -> int:
        """Whole seconds until the exceeded window resets (its length if that cannot be read;
        1 for a window of a second, without reading: a refusal costs one round trip)."""
        if item.get_expiry() <= 1:
            return 1
        try:
            reset = self.limiter.limiter.get_window_stats(item, self.prefix, "bot", name)[0]
            seconds = reset - time.time()
        except Exception:
            seconds = item.get_expiry()
        return max(1, math.ceil(seconds))


class BotRequests:
    """WSGI middleware in front of the app (and of its action hot path): counts each request
    with a bearer token against ``BotLimit`` before anything else, and answers one past the
    limit itself (429 problem+json ``rate_limited``, ``Retry-After``, the security headers):
    a refusal costs one count in the limits' storage, no request context.

    A refusal is answered after a pause of ``pause`` seconds (``CARDROOM_BOT_REFUSAL_PAUSE``),
    at most ``HELD`` of them at once per process (the others at once): a client that asks again
    as soon as it is refused then asks a few times a second per connection, not hundreds (each
    refusal still costs the service a count, and that client's machine is often the same as
    the workers'). Under gevent a held refusal is a sleeping greenlet: no CPU, one connection.
    """

    HELD = 100

    def __init__(
        self, app: Callable[..., Iterable[bytes]], limit: BotLimit, pause: float = 0.0
    ) -> None:
        self.app, self.limit, self.pause = app, limit, pause
        self.held = 0
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
        token = token.strip()
        if token and scheme.lower() == "bearer":
            try:
                self.limit.check(token)
            except BotLimited as refused:
                self._hold()
                return self._refuse(refused, environ, start_response)
        return self.app(environ, start_response)

    def _hold(self) -> None:
        """The refusal's pause, unless ``HELD`` refusals are held already."""
        if self.pause <= 0:
            return
        with self._lock:
            if self.held >= self.HELD:
                return
            self.held += 1
        try:
            time.sleep(self.pause)  # gevent's cooperative sleep in a gevent worker
        finally:
            with self._lock:
                self.held -= 1

    @staticmethod
    def _refuse(
        refused: BotLimited, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        """Answered as Flask answers it (``problems.render``, the security headers)."""
        return secured(problems.render(refused))(environ, start_response)
