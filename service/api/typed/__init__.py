"""Typed schemas of each game: actions, views, events, options and outcomes (marshmallow).

These are the one description of the games' shapes on the HTTP side: the action endpoint loads
every action with ``check_action`` (its game's union), and ``register`` documents the same
schemas in the OpenAPI spec as per-game discriminated unions (``oneOf`` + ``discriminator``):

- ``<Game>Action``: the game's actions and the lifecycle's (discriminator ``type``);
- ``GameView``: one view per game (discriminator ``game``), each with its typed
  ``legal_actions``, ``options`` and ``outcome``;
- ``<Game>Event`` and ``GameEvent``: every stored event (discriminator ``type``), generated from the
  event dataclasses;
- ``<Game>Options`` (from each game's ``Option`` tuple) and ``<Game>Outcome``.

Lifecycle actions and events are read from ``domain.lifecycle``'s registries when the spec is
built, so actions or options another part adds appear without a change here.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import marshmallow as ma

from domain.registry import all_games
from service.api.typed import actions, events, outcomes, views
from service.api.typed.actions import check_action
from service.api.typed.options import options_schema
from service.api.typed.union import Members, union2properties, union_schema

GAMES = ("shithead", "sixty_six", "sheepshead")  # the games with hand-written schemas

__all__ = ["GAMES", "all_events", "all_views", "check_action", "finish", "register"]


def camel(name: str) -> str:
    """``sixty_six`` -> ``SixtySix``."""
    return "".join(p.capitalize() for p in name.split("_"))


def _games(games: Mapping[str, Any] | None) -> dict[str, Any]:
    return {**all_games(), **(games or {})}


def all_views(games: Mapping[str, Any] | None = None) -> Members:
    """Game name -> view schema (every registered game, and ``games``)."""
    return {name: views.view_schema(rules) for name, rules in _games(games).items()}


def all_events(games: Mapping[str, Any] | None = None) -> Members:
    """Stored type -> event schema, over every game and the lifecycle."""
    out: dict[str, type[ma.Schema]] = {}
    for rules in _games(games).values():
        out.update(events.game_events(rules))
    out.update(events.lifecycle_events())
    return out


def _schema_name(schema: type[ma.Schema]) -> str:
    name = schema.__name__
    return name[: -len("Schema")] if name.endswith("Schema") else name


def register(api: Any, games: Mapping[str, Any] | None = None) -> None:
    """Teach the spec our field types and add the union components (before the blueprints);
    ``games``: the app's games besides the registry's.

    Converting the schemas is most of building an app, and gives the same components for the
    same inputs: the first app of a process converts them, later ones with the same inputs get
    copies of those components and the marshmallow plugin's schema -> name map (so the
    blueprints' ``$ref`` to them resolve to the same names)."""
    plugin = api.ma_plugin
    plugin.converter.add_attribute_function(union2properties)
    plugin.converter.add_attribute_function(events.cards_or_count2properties)
    components = api.spec.components
    refs: dict[Any, str] = plugin.converter.refs
    key = _inputs(api, _games(games))
    made = _made.get(key)
    if made is None:
        schemas_before, refs_before = set(components.schemas), set(refs)
        _convert(api, _games(games))
        made = (
            [(n, copy.deepcopy(s)) for n, s in components.schemas.items()
             if n not in schemas_before],
            {k: n for k, n in refs.items() if k not in refs_before},
        )
        if len(_made) >= 16:  # a few sets of games a process (tests add their own)
            _made.clear()
        _made[key] = made
        return
    converted, names = made
    for name, schema in converted:
        components.schema(name, schema)  # apispec copies it
    refs.update(names)


# the inputs of _convert -> (the components it added, in order; the schema -> name map it added)
_made: dict[tuple[Any, ...], tuple[list[tuple[str, dict[str, Any]]], dict[Any, str]]] = {}


def _inputs(api: Any, every: Mapping[str, Any]) -> tuple[Any, ...]:
    """Everything ``_convert`` reads: the schema classes it converts (from the registries as
    they are now), the spec's version and what the spec already holds."""
    return (
        str(api.spec.openapi_version),
        tuple(api.spec.components.schemas),
        tuple(api.ma_plugin.converter.refs.items()),
        tuple((
            game,
            tuple(actions.sendable(game).items()),
            tuple(events.game_events(rules).items()),
            options_schema(rules),
            outcomes.outcome_schema(game),
        ) for game, rules in every.items()),
        tuple(events.lifecycle_events().items()),
        tuple(all_views(every).items()),
    )


def _convert(api: Any, every: Mapping[str, Any]) -> None:
    """Add the union components and the schemas they name to the spec."""
    components = api.spec.components
    converter = api.ma_plugin.converter

    def ensure(schema: type[ma.Schema]) -> None:
        if _schema_name(schema) not in components.schemas:
            components.schema(_schema_name(schema), schema=schema)

    def union(name: str, members: Members, discriminator: str | None) -> None:
        for schema in members.values():
            ensure(schema)
        components.schema(name, union_schema(converter, members, discriminator))

    for game, rules in every.items():
        typed = game in actions.GAME_ACTIONS
        union(f"{camel(game)}Action", actions.sendable(game), "type" if typed else None)
        union(f"{camel(game)}Event", events.game_events(rules), "type")
        ensure(options_schema(rules))
        ensure(outcomes.outcome_schema(game))
    union("LifecycleEvent", events.lifecycle_events(), "type")
    union("GameView", all_views(every), "game")
    union("GameEvent", all_events(every), "type")
    # anyOf: the same outcome, options or action may fit several games' schemas
    components.schema("GameOutcome", {"anyOf": union_schema(
        converter, outcomes.any_outcome(every), None)["oneOf"]})
    components.schema("GameOptions", {"anyOf": union_schema(
        converter, {g: options_schema(r) for g, r in every.items()}, None)["oneOf"]})
    components.schema("GameAction", {"anyOf": [
        {"$ref": f"#/components/schemas/{camel(g)}Action"} for g in every]})


# Statuses every operation of a kind can give, besides those its decorator lists: any request
# may meet a bug (500), an over-long request line or headers (414, 431: gunicorn answers them),
# a query string holding what no field may hold (422 invalid_field, any parameter);
# a request that reads the store may find it unreachable (503); a request with a query string
# or a body may hold a field no field may hold (422 invalid_field); a body may be malformed or
# nested too deep (400) or too large (413); the create and action endpoints are rate limited.
ANY = (414, 422, 431, 500)
STORE = (503,)
QUERY_OR_BODY = (422,)
BODY = (400, 413, 422)
LIMITED = {("/games", "post"), ("/games/{game_id}/actions", "post")}
NO_STORE = {"/healthz", "/metrics", "/catalogue", "/problems/{code}"}


def finish(api: Any) -> None:
    """After the blueprints: every status each operation can return, and the action body."""
    paths: dict[str, dict[str, Any]] = api.spec._paths
    for path, operations in paths.items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            statuses = set(ANY)
            if path not in NO_STORE:
                statuses.update(STORE)
            if "requestBody" in operation:
                statuses.update(BODY)
            if any(p.get("in") == "query" for p in operation.get("parameters", ())):
                statuses.update(QUERY_OR_BODY)
            # a bot account's token is limited on every operation that takes a bearer token
            bearer = any("bearerAuth" in need for need in operation.get("security", ()))
            if (path, method) in LIMITED or bearer:
                statuses.add(429)
            responses = operation["responses"]
            for status in sorted(statuses):
                name = HTTPStatus(status).name
                if name not in api.spec.components.responses:
                    api.spec.components.response(name, {
                        "description": HTTPStatus(status).phrase,
                        "content": {"application/problem+json": {
                            "schema": {"$ref": "#/components/schemas/Problem"}}},
                    })
                responses.setdefault(str(status), {"$ref": f"#/components/responses/{name}"})
    action = paths.get("/games/{game_id}/actions", {}).get("post")
    if action is not None:
        body = action["requestBody"]["content"]["application/json"]
        body["schema"] = {"$ref": "#/components/schemas/GameAction"}
        action["requestBody"]["description"] = (
            "One of the game's actions (its view lists the legal ones); add `expected_version` "
            "(the version it applies to) or send `If-Match`, and optionally `seat`."
        )
