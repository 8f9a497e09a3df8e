"""Events as facts, and the stable codec that stores them.

An event class is a frozen, slotted, keyword-only dataclass whose ``TYPE`` is its explicit
stored name (``"shithead.CardsPlayed"``) and ``SCHEMA`` its shape version. Encoded events are
flat JSON objects: ``{"type": ..., "schema": ..., <fields>}``; tuples travel as lists and come
back as tuples. An old shape is read through upcasters registered for (type, schema).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any, ClassVar

Encoded = dict[str, Any]
Upcaster = Callable[[Encoded], Encoded]
Decoder = Callable[[Mapping[str, Any]], "Event"]


class Event:
    """Marker base; concrete events are frozen slotted kw_only dataclasses."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    SCHEMA: ClassVar[int] = 1


_NESTED = frozenset((list, dict))


def _freeze(value: Any) -> Any:
    """Lists as tuples, all the way down (the decode of every stored event: kept cheap)."""
    kind = type(value)
    if kind is list:
        if _NESTED.isdisjoint(map(type, value)):  # (a flat list, told without a Python loop)
            return tuple(value)
        return tuple([_freeze(v) for v in value])
    if kind is dict:
        return {k: _freeze(v) if type(v) in _NESTED else v for k, v in value.items()}
    if isinstance(value, list):  # a subclass
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    return value


# json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False), its encoder
# built once (json.dumps builds one per call with these options: a third of the time)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hands_seen_by(hands: Sequence[Sequence[str]], seat: int | None) -> list[list[str] | int]:
    """Dealt hands as ``seat`` may see them (an event redacted): its own cards, others' sizes."""
    return [list(h) if i == seat else len(h) for i, h in enumerate(hands)]


def canonical_json(data: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces (used for hashes)."""
    return _CANONICAL.encode(data)


class UnknownEvent(KeyError):
    """A stored type name that no registered class carries."""


class EventCodec:
    """Maps stored names to event classes, encodes, decodes and upcasts."""

    def __init__(self, classes: Iterable[type[Event]] = ()) -> None:
        self._classes: dict[str, type[Event]] = {}
        self._fields: dict[type[Event], tuple[str, ...]] = {}
        self._decoders: dict[str, Decoder] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}
        for cls in classes:
            self.register(cls)

    def register(self, cls: type[Event]) -> type[Event]:
        """Register an event class under its explicit TYPE."""
        if not cls.TYPE or cls.TYPE in self._classes:
            raise ValueError(f"event type {cls.TYPE!r} is missing or registered twice")
        names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
        if "type" in names or "schema" in names:
            raise ValueError(f"{cls.__name__} may not have a field named type or schema")
        self._classes[cls.TYPE] = cls
        self._fields[cls] = names
        self._decoders[cls.TYPE] = self._decoder(cls, names)
        return cls

    def upcaster(self, type_name: str, schema: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator: register a function turning schema ``schema`` into ``schema + 1``."""

        def register(fn: Upcaster) -> Upcaster:
            self._upcasters[(type_name, schema)] = fn
            return fn

        return register

    def classes(self) -> tuple[type[Event], ...]:
        """Every registered event class, in registration order."""
        return tuple(self._classes.values())

    def encode(self, event: Event) -> Encoded:
        """The event as flat JSON-ready data."""
        cls = type(event)
        data: Encoded = {"type": cls.TYPE, "schema": cls.SCHEMA}
        for name in self._fields[cls]:
            data[name] = getattr(event, name)
        return data

    def decode(self, data: Mapping[str, Any]) -> Event:
        """The event for stored data, upcast to the current schema first."""
        decoder = self._decoders.get(data["type"])
        if decoder is None:
            raise UnknownEvent(data["type"])
        return decoder(data)

    def _decoder(self, cls: type[Event], names: tuple[str, ...]) -> Decoder:
        """The decode of one class, planned once: stored data of the current schema holding
        exactly the fields fills a new instance's slots directly (what the generated
        ``__init__`` does, without its per-field ``object.__setattr__``); anything else (an
        old schema, a missing or unknown field) takes ``_decode_generic``, as before."""
        plan = _slot_plan(cls, names)
        size, schema, generic = len(names) + 2, cls.SCHEMA, self._decode_generic
        if plan is None:
            return lambda data: generic(cls, data)
        new, nested = object.__new__, _NESTED

        def decode(data: Mapping[str, Any]) -> Event:
            if len(data) == size and data.get("schema", 1) == schema:
                event = new(cls)
                try:
                    for name, put, may_nest in plan:
                        value = data[name]
                        put(event, _freeze(value) if may_nest and type(value) in nested else value)
                    return event
                except KeyError:
                    pass
            return generic(cls, data)

        return decode

    def _decode_generic(self, cls: type[Event], data: Mapping[str, Any]) -> Event:
        if data.get("schema", 1) != cls.SCHEMA:
            data = self.upcast(dict(data), cls.SCHEMA)
        nested = _NESTED
        kwargs = {
            k: _freeze(v) if type(v) in nested else v
            for k, v in data.items()
            if k != "type" and k != "schema"
        }
        return cls(**kwargs)

    def upcast(self, data: Encoded, target: int) -> Encoded:
        """Apply upcasters until ``data`` has the target schema."""
        while (schema := data.get("schema", 1)) < target:
            step = self._upcasters.get((data["type"], schema))
            if step is None:
                raise UnknownEvent(f"{data['type']} schema {schema} has no upcaster")
            data = step(data)
            data["schema"] = schema + 1
        return data


Slot = tuple[str, Callable[[Any, Any], None], bool]


def _slot_plan(cls: type[Event], names: tuple[str, ...]) -> tuple[Slot, ...] | None:
    """(field, its slot's setter, whether its value may hold a list or dict) for each field of a
    plain slotted event class; None for a class that needs its ``__init__`` (a
    ``__post_init__``, a field outside ``__init__`` or without a slot)."""
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields(cls)):  # type: ignore[arg-type]
        return None
    slots = [vars(cls).get(name) for name in names]
    if not all(isinstance(slot, types.MemberDescriptorType) for slot in slots):
        return None
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):
        hints = {}
    return tuple(
        (name, slot.__set__, not _scalar(hints.get(name, Any)))  # type: ignore[union-attr]
        for name, slot in zip(names, slots, strict=True)
    )


_SCALARS = frozenset((int, str, bool, float, type(None)))


def _scalar(hint: Any) -> bool:
    """True for a field typed as a JSON scalar (or a union of them): nothing in it to freeze."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return all(_scalar(arg) for arg in typing.get_args(hint))
    return hint in _SCALARS
