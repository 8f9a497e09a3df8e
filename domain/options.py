"""Declared game options: every option has a type, a default and a readable validation error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.errors import InvalidOptions

DEFAULT_ACTION_LIMIT = 5000
MAX_ACTION_LIMIT = 100_000  # a bound on every game's length (and on its stored history)


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One named option. ``kind`` is bool, int or choice; ``nullable`` admits null."""

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    doc: str = ""

    def parse(self, value: Any) -> Any:
        """The validated value, or InvalidOptions saying what was expected."""
        if value is None and self.nullable:
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(f"option {self.name} must be true or false, got {value!r}")
            return value
        if self.kind == "int":
            return self._parse_int(value)
        if value not in self.choices or isinstance(value, bool) != isinstance(self.default, bool):
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"option {self.name} must be one of {allowed}, got {value!r}")
        return value

    def _parse_int(self, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidOptions(f"option {self.name} must be an integer, got {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise InvalidOptions(f"option {self.name} must be one of {allowed}, got {value}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"option {self.name} must be at least {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"option {self.name} must be at most {self.maximum}, got {value}")
        return value

    def describe(self) -> dict[str, Any]:
        """The option as data, for the API's game catalogue."""
        out: dict[str, Any] = {"name": self.name, "type": self.kind, "default": self.default}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nullable:
            out["nullable"] = True
        if self.doc:
            out["doc"] = self.doc
        return out


def action_limit_option(default: int = DEFAULT_ACTION_LIMIT) -> Option:
    """The administrative limit every game has: reaching it ends the game with no loser."""
    return Option(
        name="action_limit",
        kind="int",
        default=default,
        minimum=1,
        maximum=MAX_ACTION_LIMIT,
        doc="accepted actions after which the game ends administratively (no loser)",
    )


def parse_options(specs: tuple[Option, ...], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """All options with defaults filled in; unknown names and bad values are rejected."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise InvalidOptions("options must be an object")
    known = {o.name: o for o in specs}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        names = ", ".join(unknown)
        raise InvalidOptions(f"unknown option(s): {names}; known: {', '.join(known)}")
    return {name: (o.parse(raw[name]) if name in raw else o.default) for name, o in known.items()}


def non_default(specs: tuple[Option, ...], options: Mapping[str, Any]) -> dict[str, Any]:
    """Only the options whose value differs from the default."""
    return {o.name: options[o.name] for o in specs if options.get(o.name, o.default) != o.default}
