"""The Flask app factory: ``create_app(config=None, *, store=None, scheduler=None)``.

With no ``store`` it builds the Redis store from REDIS_URL and CARDROOM_NAMESPACE. With no
``scheduler`` it loads CARDROOM_SCHEDULER (``"module:factory"``, called with the app config)
or uses the no-op scheduler. OpenAPI at /openapi.json, docs at /docs, the browser table at /.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from domain.protocol import Game
from service import config as settings
from service import ops, receipts, web
from service.api import (
    all_blueprints,
    bodies,
    hotpath,
    limits,
    problems,
    security,
    typed,
)
from service.api.deps import EXTENSION
from service.api.schemas import ProblemSchema
from service.archive import Archive, FileArchive
from service.bots import BotDirectory, BotRegistry, MemoryBotRegistry, RedisBotRegistry
from service.cache import StateCache
from service.games import GameService, Scheduler
from service.store.port import EventStore
from service.store.redis import RedisEventStore as RedisStore

API_CONFIG: dict[str, Any] = {
    "API_TITLE": "cardroom",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    "OPENAPI_SWAGGER_UI_URL": web.SWAGGER_UI_URL,  # packaged files: /docs works offline
    "OPENAPI_SWAGGER_UI_CONFIG": web.SWAGGER_UI_CONFIG,
}


class CardroomApi(Api):  # type: ignore[misc]
    """flask-smorest's Api documenting our problem+json errors."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        # error responses are documented as application/problem+json, success ones as JSON
        default = self.DEFAULT_RESPONSE_CONTENT_TYPE  # type: ignore[has-type]  # untyped base
        self.DEFAULT_RESPONSE_CONTENT_TYPE = problems.PROBLEM_TYPE
        try:
            super()._register_responses()
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = default


def _signer(config: Mapping[str, Any]) -> receipts.Signer | None:
    """The receipt key of CARDROOM_SIGNING_KEY's file (made on first use), if one is set."""
    path = config["CARDROOM_SIGNING_KEY"]
    return receipts.Signer.from_file(path) if path else None


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    store: EventStore | None = None,
    scheduler: Scheduler | None = None,
    games: Mapping[str, Game[Any]] | None = None,
    archive: Archive | None = None,
) -> Flask:
    """The web app. ``games`` adds games beside the registry's (tests). ``archive``: where
    finished games are kept once they leave the store (default: CARDROOM_ARCHIVE_DIR's
    directory, if set)."""
    app = Flask(__name__)
    app.config.update(API_CONFIG)
    app.config.update(settings.from_env())
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    if store is None:
        store = RedisStore.from_url(
            app.config["REDIS_URL"],
            app.config["CARDROOM_NAMESPACE"],
            float(app.config["CARDROOM_IDEMPOTENCY_TTL"]),
        )
    registry: BotRegistry = MemoryBotRegistry()
    if isinstance(store, RedisStore):
        registry = RedisBotRegistry(store.client, store.namespace)
    app.extensions[EXTENSION] = GameService(
        store,
        scheduler or _load_scheduler(app.config),
        games=games,
        cache=StateCache(int(app.config["CARDROOM_CACHE_SIZE"])),
        bots=BotDirectory(registry, accounts_max=int(app.config["CARDROOM_BOT_ACCOUNTS_MAX"])),
        check_action=typed.check_action,
        bot_pace_ms=int(app.config["CARDROOM_BOT_PACE_MS"]),
        signer=_signer(app.config),
        archive=archive or archive_of(app.config),
    )
    api = CardroomApi(app)  # created per app (flask-smorest keeps state on it)
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    api.spec.components.security_scheme("adminAuth", {"type": "http", "scheme": "bearer",
                                                      "description": "CARDROOM_ADMIN_TOKEN"})
    typed.register(api, games)  # the games' typed schemas, before the blueprints using them
    for blueprint in all_blueprints():
        api.register_blueprint(blueprint)
    typed.finish(api)
    web.register(app)  # the browser table at / and /docs' Swagger UI files
    app.before_request(bodies.read_body)
    app.before_request(bodies.refuse_deep_json)
    app.before_request(bodies.refuse_bad_fields)
    problems.register(app)
    # /healthz /readyz /metrics, request timing, JSON logs
    ops.install(app, store, store, app.extensions[EXTENSION].scheduler)
    limits.install(app, store, registry.account_of)
    security.install(app)  # the security headers of every answer
    install_hot_path(app)  # plain actions served before Flask (service.api.hotpath)
    # each bot account's requests counted before anything else (service.api.limits)
    app.wsgi_app = limits.BotRequests(  # type: ignore[method-assign]
        app.wsgi_app,
        app.extensions[limits.BOT_LIMIT],
        float(app.config["CARDROOM_BOT_REFUSAL_PAUSE"]),
    )
    trust_proxies(app, int(app.config["CARDROOM_TRUSTED_PROXIES"]))  # outermost
    return app


def trust_proxies(app: Flask, hops: int) -> None:
    """Behind ``hops`` proxies the app believes (``CARDROOM_TRUSTED_PROXIES``), take the client
    address and scheme from the last ``hops`` entries of X-Forwarded-For and X-Forwarded-Proto
    (werkzeug's ``ProxyFix``): the rate limits count the real client, not the proxy. 0: none
    (the headers are ignored: anyone could send them)."""
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


def install_hot_path(app: Flask) -> None:
    """Put ``service.api.hotpath`` in front of the app (once the action limit is installed)."""
    app.wsgi_app = hotpath.ActionHotPath(app, app.extensions[EXTENSION])  # type: ignore[method-assign]


def archive_of(config: Mapping[str, Any]) -> Archive | None:
    """The archive the config names (CARDROOM_ARCHIVE_DIR), None without one."""
    directory = str(config.get("CARDROOM_ARCHIVE_DIR") or "")
    return FileArchive(directory) if directory else None


def _load_scheduler(config: Mapping[str, Any]) -> Scheduler | None:
    path = config.get("CARDROOM_SCHEDULER") or ""
    if not path:
        return None
    module_name, _, attr = path.partition(":")
    factory = getattr(importlib.import_module(module_name), attr or "from_config")
    scheduler: Scheduler = factory(config)
    return scheduler
