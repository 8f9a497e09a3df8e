"""Every game's events as marshmallow schemas, generated from the event dataclasses.

The dataclasses in ``domain/games/*/events.py`` (and ``domain.lifecycle``) are the one source:
each field's type hint gives its marshmallow field. Events reach a seat redacted
(``Game.redact``): a hidden card list may come as a count or ``null``, a hidden card as
``null``, a hidden field may be left out, and a ``count`` may stand beside it. So every field
but ``type`` is optional and nullable, and a card list is "cards, or how many".
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable
from typing import Any

import marshmallow as ma
from marshmallow import fields

from domain.events import Event
from service.api.typed.union import Members, tag


class CardsOrCount(fields.Field[Any]):
    """A list of card codes, or (hidden from the reader) how many there are."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        if isinstance(value, list) and all(isinstance(c, str) for c in value):
            return value
        raise ma.ValidationError("must be a list of card codes or a count")


def cards_or_count2properties(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function for CardsOrCount."""
    if not isinstance(field, CardsOrCount):
        return {}
    return {"oneOf": [{"type": "array", "items": {"type": "string"}},
                      {"type": "integer", "minimum": 0}], "nullable": True}


class EventBase(ma.Schema):
    class Meta:
        unknown = ma.RAISE


def _field(hint: Any) -> fields.Field[Any]:
    optional: dict[str, Any] = {"required": False, "allow_none": True}
    origin = typing.get_origin(hint)
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if origin in (typing.Union, types.UnionType):
        return _field(args[0])
    if hint is bool:
        return fields.Boolean(**optional)
    if hint is int:
        return fields.Integer(**optional)
    if hint is str:
        return fields.String(**optional)
    if origin is dict or hint is dict:
        return fields.Dict(keys=fields.String(), **optional)
    if origin is tuple:
        inner = args[0] if args else Any
        if inner is str:
            return CardsOrCount(**optional)
        return fields.List(_field(inner), **optional)
    return fields.Raw(**optional)


_built: dict[type[Event], type[ma.Schema]] = {}


def event_schema(cls: type[Event]) -> type[ma.Schema]:
    """The schema of one event class (``<Game><Event>Event`` in the spec)."""
    schema = _built.get(cls)
    if schema is None:
        game, _, name = cls.TYPE.partition(".")
        camel = "".join(p.capitalize() for p in game.split("_")) + name
        attrs: dict[str, Any] = {
            "type": tag(cls.TYPE),
            "schema": fields.Integer(metadata={"description": "the event's shape version"}),
            "count": fields.Integer(metadata={"description": "how many hidden cards"}),
            "__doc__": (cls.__doc__ or cls.TYPE).strip().splitlines()[0],
        }
        attrs.update(fields_of(cls))
        schema = type(f"{camel}EventSchema", (EventBase,), attrs)
        _built[cls] = schema
    return schema


def fields_of(cls: type[Event]) -> dict[str, fields.Field[Any]]:
    """The event's fields as marshmallow fields (from its type hints)."""
    hints = typing.get_type_hints(cls)
    return {f.name: _field(hints[f.name]) for f in dataclasses.fields(cls)}  # type: ignore[arg-type]


def events_of(classes: Iterable[type[Event]]) -> Members:
    """Stored type name -> schema, for event classes."""
    return {cls.TYPE: event_schema(cls) for cls in classes}


def game_events(game: Any) -> Members:
    """Every event of a game (its codec's classes)."""
    return events_of(game.codec.classes())


def lifecycle_events() -> Members:
    """The lifecycle's events (``domain.lifecycle.EVENTS``), read at call time."""
    from domain import lifecycle

    return events_of(lifecycle.EVENTS)
