"""Folded states as plain data (what a snapshot stores): JSON values out, the domain's own
types back in, with no code named or run by the data.

A state is built of the domain's dataclasses (game states, rules, events, the clock), tuples,
dicts, lists, frozensets and JSON's scalars. ``to_data`` gives JSON values: a dataclass as
``{"@": "<module>:<qualified name>", "=": {field: value, ...}}``, a tuple as ``{"()": [...]}``,
a dict as ``{"{}": [[key, value], ...]}`` (keys of any of these types), a frozenset as
``{"fs": [...]}``; lists, strings, numbers, booleans and null as themselves.

``from_data`` reads them back. The only objects it makes are those values and instances of
dataclasses defined in the domain's modules already loaded, filled field by field (no
``__init__``, ``__post_init__`` or other function of the data's choosing runs); anything else
(another class, a missing or extra field, a malformed value) is a ``ValueError``.
"""

from __future__ import annotations

import dataclasses
import sys
from functools import cache
from typing import Any

from domain.frozen import filled

CLASS, FIELDS, TUPLE, DICT, FROZENSET = "@", "=", "()", "{}", "fs"
SCALARS = frozenset((str, int, float, bool, type(None)))


def to_data(value: Any) -> Any:
    """The JSON values of a state (TypeError for a value of no type above)."""
    kind: type = type(value)
    if kind in SCALARS:
        return value
    if kind is tuple:
        return {TUPLE: _items(value)}
    if kind is list:
        return _items(value)
    if kind is dict:
        if SCALARS.issuperset(map(type, value)) and SCALARS.issuperset(map(type, value.values())):
            return {DICT: list(map(list, value.items()))}
        return {DICT: [[to_data(k), to_data(v)] for k, v in value.items()]}
    if kind is frozenset:
        return {FROZENSET: _items(value)}
    shape = _shape(kind)
    if shape is None:
        raise TypeError(f"a state may not hold {kind.__module__}.{kind.__qualname__}")
    name, names = shape
    return {CLASS: name, FIELDS: {n: to_data(getattr(value, n)) for n in names}}


@cache
def _shape(kind: type) -> tuple[str, tuple[str, ...]] | None:
    """A domain dataclass's name as the data writes it and its fields' names, in order (None
    for any other type): looked up once per class, not on every instance of a snapshot."""
    if not (dataclasses.is_dataclass(kind) and _domain_class(kind)):
        return None
    return f"{kind.__module__}:{kind.__qualname__}", tuple(f.name for f in dataclasses.fields(kind))


def _items(values: Any) -> list[Any]:
    """A collection's items as data (of only scalars, the common case, told in one C call)."""
    if SCALARS.issuperset(map(type, values)):
        return list(values)
    return [to_data(v) for v in values]


def _values(items: list[Any]) -> list[Any]:
    """``_items`` read back."""
    if SCALARS.issuperset(map(type, items)):
        return items
    return [from_data(v) for v in items]


def from_data(data: Any) -> Any:
    """The state of ``to_data``'s values (ValueError for anything it did not make)."""
    kind = type(data)
    if kind in SCALARS:
        return data
    if kind is list:
        return _values(data)
    if kind is not dict or len(data) not in (1, 2):
        raise ValueError(f"not a state's data: {kind.__name__}")
    if len(data) == 2:
        return _instance(data.get(CLASS), data.get(FIELDS))
    (tag, items), = data.items()
    if type(items) is not list:
        raise ValueError(f"not a state's data: {tag!r} of a {type(items).__name__}")
    if tag == TUPLE:
        return tuple(_values(items))
    if tag == FROZENSET:
        return frozenset(_values(items))
    if tag == DICT:
        return {from_data(k): from_data(v) for k, v in (_pair(p) for p in items)}
    raise ValueError(f"not a state's data: tag {tag!r}")


def _pair(item: Any) -> tuple[Any, Any]:
    if type(item) is not list or len(item) != 2:
        raise ValueError("a dict's item is a [key, value] pair")
    return item[0], item[1]


def _instance(name: Any, fields: Any) -> Any:
    """An instance of the named domain dataclass with exactly its fields, set one by one."""
    if type(name) is not str or type(fields) is not dict:
        raise ValueError("a dataclass is a class name and its fields")
    cls = _class_named(name)
    expected = _fields(cls)
    if set(fields) != {f.name for f in expected}:
        raise ValueError(f"{name} has the fields {[f.name for f in expected]}")
    return filled(cls, {f.name: from_data(fields[f.name]) for f in expected})


@cache
def _class_named(name: str) -> type:
    """The domain dataclass ``<module>:<qualified name>`` of a module already loaded (nothing
    is imported, and no other attribute is looked at)."""
    module_name, _, qualname = name.partition(":")
    module = sys.modules.get(module_name) if _in_domain(module_name) else None
    found = vars(module).get(qualname) if module is not None and qualname.isidentifier() else None
    if not (isinstance(found, type) and dataclasses.is_dataclass(found) and _domain_class(found)
            and found.__module__ == module_name):  # fmt: skip
        raise ValueError(f"no dataclass of the domain is named {name!r}")
    return found


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


def _domain_class(cls: type) -> bool:
    return _in_domain(cls.__module__)


def _in_domain(module: str) -> bool:
    return module == "domain" or module.startswith("domain.")
