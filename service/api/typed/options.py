"""Every game's options as marshmallow schemas, generated from the games' ``Option`` tuples.

``domain.options.Option`` (each game's ``options``) is the one source: name, kind, default,
range, choices, nullability and help become the field. An option added to a game (or to every
game through a shared helper such as ``action_limit_option``, or by the lifecycle wrapper's
``options``) is documented with no change here.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from domain.lifecycle import lifecycle
from domain.options import Option

_built: dict[str, type[ma.Schema]] = {}


def option_field(option: Option) -> fields.Field[Any]:
    """The marshmallow field of one option."""
    meta = {"description": option.doc, "default": option.default}
    kw: dict[str, Any] = {"allow_none": option.nullable, "metadata": meta}
    if option.kind == "bool":
        return fields.Boolean(**kw)
    if option.kind == "int":
        checks: list[Any] = [validate.Range(option.minimum, option.maximum)]
        if option.choices:
            checks = [validate.OneOf(option.choices)]
        return fields.Integer(strict=True, validate=checks, **kw)
    if all(isinstance(c, int) and not isinstance(c, bool) for c in option.choices):
        return fields.Integer(strict=True, validate=validate.OneOf(option.choices), **kw)
    return fields.String(validate=validate.OneOf(option.choices), **kw)


def options_schema(game: Any) -> type[ma.Schema]:
    """The options of one game (``<Game>Options`` in the spec); every field optional."""
    schema = _built.get(game.name)
    if schema is None:
        camel = "".join(p.capitalize() for p in game.name.split("_"))
        # the options of the game as the service plays it: with its lifecycle's (clocks, ...)
        attrs: dict[str, Any] = {o.name: option_field(o) for o in lifecycle(game).options}
        attrs["Meta"] = type("Meta", (), {"unknown": ma.RAISE})
        attrs["__doc__"] = f"{game.title} options (GET /catalogue lists them with defaults)."
        schema = type(f"{camel}OptionsSchema", (ma.Schema,), attrs)
        _built[game.name] = schema
    return schema
