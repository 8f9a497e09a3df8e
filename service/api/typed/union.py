"""Discriminated unions of marshmallow schemas, documented as ``oneOf`` + ``discriminator``.

A :class:`Union` field names its members by the value of one property (``type`` for actions and
events, ``game`` for views). Loading picks the member schema by that value and loads with it;
dumping passes the value through unchanged (the domain built it; the tests check every value the
games produce loads with its member). :func:`union2properties` is the apispec attribute function
that documents the field as ``oneOf`` of the members' component schemas with a discriminator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields

Members = Mapping[str, type[ma.Schema]]


class Union(fields.Field[Any]):
    """One of several schemas, told apart by the ``discriminator`` property.

    ``members`` may be a callable returning the mapping, so that registries filled later
    (games, lifecycle actions) are read when the spec is built, not when the module loads.
    ``discriminator=None`` documents a plain ``oneOf`` (loading then tries each member).
    """

    def __init__(
        self,
        members: Members | Callable[[], Members],
        discriminator: str | None = "type",
        component: str | None = None,
        any_of: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._members = members
        self.discriminator = discriminator
        self.component = component  # documented as a $ref to this component (registered apart)
        self.any_of = any_of  # documented as anyOf: a value may fit several members

    @property
    def members(self) -> Members:
        """Discriminator value -> member schema class."""
        return self._members() if callable(self._members) else self._members

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Any:
        return load_member(self.members, value, self.discriminator)


_instances: dict[type[ma.Schema], ma.Schema] = {}


def instance(schema: type[ma.Schema]) -> ma.Schema:
    """One shared instance per schema class (building one is far dearer than loading)."""
    found = _instances.get(schema)
    if found is None:
        found = _instances[schema] = schema()
    return found


def load_member(members: Members, value: Any, discriminator: str | None) -> Any:
    """``value`` loaded by the member its discriminator names (ValidationError otherwise)."""
    if not isinstance(value, Mapping):
        raise ma.ValidationError("must be an object")
    if discriminator is None:
        errors: dict[str, Any] = {}
        for name, schema in members.items():
            try:
                return instance(schema).load(value)
            except ma.ValidationError as err:
                errors[name] = err.messages
        raise ma.ValidationError({"oneOf": errors})
    kind = value.get(discriminator)
    chosen = members.get(kind) if isinstance(kind, str) else None
    if chosen is None:
        known = ", ".join(members)
        raise ma.ValidationError({discriminator: [f"must be one of {known}, got {kind!r}"]})
    return instance(chosen).load(value)


def union2properties(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a Union field as ``oneOf`` + ``discriminator``."""
    if not isinstance(field, Union):
        return {}
    if field.component is not None:
        ref = {"$ref": f"#/components/schemas/{field.component}"}
        out: dict[str, Any] = {"oneOf": [ref]} if field.allow_none else ref
    else:
        out = union_schema(self, field.members, field.discriminator)
        if field.any_of:
            out = {"anyOf": out.pop("oneOf"), **out}
    if field.allow_none:
        out["nullable"] = True
    if field.metadata.get("description"):
        out["description"] = field.metadata["description"]
    return out


def union_schema(converter: Any, members: Members, discriminator: str | None) -> dict[str, Any]:
    """``oneOf`` the members' component schemas, with a discriminator mapping when given."""
    refs = {name: converter.resolve_nested_schema(schema) for name, schema in members.items()}
    out: dict[str, Any] = {"oneOf": list(refs.values())}
    if discriminator is not None:
        out["discriminator"] = {
            "propertyName": discriminator,
            "mapping": {name: ref["$ref"] for name, ref in refs.items() if "$ref" in ref},
        }
    return out


def tag(name: str) -> fields.String:
    """The discriminator property of one member: required, exactly ``name``."""
    return fields.String(required=True, validate=ma.validate.OneOf([name]))
