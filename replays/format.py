"""The replay file: a self-contained, versioned JSON record of one game (docs/replay-format.md).

A replay holds a header (format and version, game, game id, options, seats, dealer, the
revealed seed, the commitment and the head hash; from version 2 also whether the game was
prearranged and the revealed server secret), every batch with the command that caused it and
its events (version, encoded event, prev_hash, hash), and the outcome.

Version 2 is a stream with a lifecycle (``domain.lifecycle``: commit-reveal dealing and the
salted hash chain); version 1 files (a game's own start, unsalted chain) are still read and
verified as they were.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "cardroom-replay"
VERSION = 2
SUPPORTED = (1, 2)


class ReplayFormatError(ValueError):
    """The data is not a replay this code can read (not JSON, missing fields, wrong types)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordedEvent:
    """One stored event: its version (1-based), the encoded event and its chain links."""

    version: int
    event: dict[str, Any]
    prev_hash: str
    hash: str

    def to_dict(self) -> dict[str, Any]:
        """The event as replay-file data."""
        return {
            "version": self.version,
            "event": self.event,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Batch:
    """The events one command appended atomically, with that command."""

    command: dict[str, Any]
    events: tuple[RecordedEvent, ...]

    def to_dict(self) -> dict[str, Any]:
        """The batch as replay-file data."""
        return {"command": self.command, "events": [e.to_dict() for e in self.events]}


@dataclass(frozen=True, slots=True, kw_only=True)
class Header:
    """What a reader needs before the first event: who played what, and the audit anchors."""

    game: str
    game_id: str
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    dealer: int | None
    seed: str | None
    commitment: str | None
    explicit_deal: bool
    head_version: int
    head_hash: str
    format: str = FORMAT
    version: int = VERSION
    prearranged: bool = False
    secret: str | None = None
    forked: dict[str, Any] | None = None  # a fork's origin (domain.forks), else absent

    def to_dict(self) -> dict[str, Any]:
        """The header as replay-file data (format and version first)."""
        data = self._common()
        if self.version >= 2:
            data["prearranged"] = self.prearranged
            data["secret"] = self.secret
        if self.forked is not None:
            data["forked"] = self.forked
        data["head_version"] = self.head_version
        data["head_hash"] = self.head_hash
        return data

    def _common(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "version": self.version,
            "game": self.game,
            "game_id": self.game_id,
            "players": self.players,
            "options": self.options,
            "seats": self.seats,
            "dealer": self.dealer,
            "seed": self.seed,
            "commitment": self.commitment,
            "explicit_deal": self.explicit_deal,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Replay:
    """A whole replay file in memory."""

    header: Header
    batches: tuple[Batch, ...]
    outcome: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def events(self) -> list[RecordedEvent]:
        """Every recorded event in file order."""
        return [e for b in self.batches for e in b.events]

    def to_dict(self) -> dict[str, Any]:
        """The replay as JSON-ready data."""
        return {
            **self.header.to_dict(),
            "batches": [b.to_dict() for b in self.batches],
            "outcome": self.outcome,
        }


Entry = tuple[int, Mapping[str, str]]


def build_replay(
    game_id: str,
    entries: Iterable[Entry],
    *,
    game: str | None = None,
    seats: Sequence[Mapping[str, Any]] = (),
    outcome: Mapping[str, Any] | None = None,
) -> Replay:
    """A replay from stored stream entries ``(version, fields)`` as the event store keeps them.

    ``fields`` are strings: ``event`` (canonical JSON), ``prev_hash``, ``hash``, and on the first
    entry of each batch ``command`` (canonical JSON) and ``batch`` (its event count).
    """
    batches = _group_batches(list(entries))
    if not batches:
        raise ReplayFormatError(f"game {game_id} has no events")
    first = batches[0].events[0].event
    name = game or str(first.get("type", "")).split(".")[0]
    header = _header(game_id, batches, name, seats)
    return Replay(header=header, batches=tuple(batches), outcome=_plain(outcome))


CREATED = "lifecycle.GameCreated"
REVEALED = "lifecycle.SecretRevealed"


def _header(
    game_id: str, batches: list[Batch], name: str, seats: Sequence[Mapping[str, Any]]
) -> Header:
    """The header from the first event's facts: a version 2 header (GameCreated's facts and the
    revealed secret and seed) for a game with its lifecycle, else a version 1 one."""
    first = batches[0].events[0].event
    last = batches[-1].events[-1]
    fair = first.get("type") == CREATED
    revealed: Mapping[str, Any] = first
    if fair:
        revealed = next(
            (e.event for b in batches for e in b.events if e.event.get("type") == REVEALED), {}
        )
    return Header(
        game=name,
        game_id=game_id,
        players=int(first.get("players", len(seats))),
        options=dict(first.get("options", {})),
        seats=[dict(s) for s in seats],
        dealer=first.get("dealer"),
        seed=revealed.get("seed"),
        commitment=first.get("commitment"),
        explicit_deal=(
            revealed.get("deal") is not None if fair else bool(first.get("explicit_deal", False))
        ),
        head_version=last.version,
        head_hash=last.hash,
        version=VERSION if fair else 1,
        prearranged=bool(first.get("prearranged", False)),
        secret=revealed.get("secret") if fair else None,
        forked=origin_of(batches[0]),
    )


FORKED = "lifecycle.GameForked"


def origin_of(batch: Batch) -> dict[str, Any] | None:
    """A fork's origin as its header says it (its creation batch's GameForked)."""
    found = next((e.event for e in batch.events if e.event.get("type") == FORKED), None)
    if found is None:
        return None
    origin = {"source": found.get("source"), "version": found.get("version"),
              "as": found.get("seat")}  # fmt: skip
    return {**origin, "sealed": True} if found.get("sealed") else origin


def _plain(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if data is None else json.loads(json.dumps(data))


def _group_batches(entries: list[Entry]) -> list[Batch]:
    batches: list[Batch] = []
    command: dict[str, Any] | None = None
    current: list[RecordedEvent] = []
    for version, fields in entries:
        if "command" in fields:
            if command is not None:
                batches.append(Batch(command=command, events=tuple(current)))
            command, current = json.loads(fields["command"]), []
        elif command is None:
            raise ReplayFormatError(f"event {version} opens no batch: its command is missing")
        current.append(
            RecordedEvent(
                version=version,
                event=json.loads(fields["event"]),
                prev_hash=fields["prev_hash"],
                hash=fields["hash"],
            )
        )
    if command is not None:
        batches.append(Batch(command=command, events=tuple(current)))
    return batches


# Reading and writing -------------------------------------------------------------------------


def dumps(replay: Replay) -> str:
    """The replay file text: the header pretty-printed, one line per command and per event."""
    data = replay.to_dict()
    lines = ["{"]
    for key, value in data.items():
        if key in ("batches", "outcome"):
            continue
        lines.append(f"  {json.dumps(key)}: {_compact(value)},")
    lines.append('  "batches": [')
    for i, batch in enumerate(data["batches"]):
        lines.append(f'    {{"command": {_compact(batch["command"])}, "events": [')
        events = [f"      {_compact(e)}" for e in batch["events"]]
        lines.append(",\n".join(events))
        lines.append("    ]}" + ("," if i < len(data["batches"]) - 1 else ""))
    lines.append("  ],")
    lines.append(f'  "outcome": {_compact(data["outcome"])}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def loads(text: str | bytes) -> Replay:
    """Parse replay file text; ReplayFormatError says what is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise ReplayFormatError(f"not valid JSON: {err}") from None
    return from_dict(data)


def read(path: str | Path) -> Replay:
    """Read a replay file."""
    return loads(Path(path).read_bytes())


def write(replay: Replay, path: str | Path) -> None:
    """Write a replay file (UTF-8)."""
    Path(path).write_text(dumps(replay), encoding="utf-8")


def from_dict(data: Any) -> Replay:
    """A replay from parsed JSON data, checking its shape (not its truth: see verify)."""
    if not isinstance(data, dict):
        raise ReplayFormatError("a replay is a JSON object")
    if data.get("format") != FORMAT:
        raise ReplayFormatError(f"format is {data.get('format')!r}, expected {FORMAT!r}")
    version = data.get("version")
    if version not in SUPPORTED or isinstance(version, bool):
        raise ReplayFormatError(
            f"replay format version {version!r} is not supported "
            f"(this reads versions {', '.join(map(str, SUPPORTED))})"
        )
    header = Header(
        game=_get(data, "game", str),
        game_id=_get(data, "game_id", str),
        players=_get(data, "players", int),
        options=_get(data, "options", dict),
        seats=_get(data, "seats", list),
        dealer=_get(data, "dealer", int, nullable=True),
        seed=_get(data, "seed", str, nullable=True),
        commitment=_get(data, "commitment", str, nullable=True),
        explicit_deal=_get(data, "explicit_deal", bool),
        head_version=_get(data, "head_version", int),
        head_hash=_get(data, "head_hash", str),
        version=version,
        prearranged=_get(data, "prearranged", bool) if version >= 2 else False,
        secret=_get(data, "secret", str, nullable=True) if version >= 2 else None,
        forked=_get(data, "forked", dict, nullable=True) if "forked" in data else None,
    )
    raw_batches = _get(data, "batches", list)
    batches = tuple(_batch(b, i) for i, b in enumerate(raw_batches))
    outcome = _get(data, "outcome", dict, nullable=True)
    return Replay(header=header, batches=batches, outcome=outcome)


def _batch(data: Any, index: int) -> Batch:
    where = f"batches[{index}]"
    if not isinstance(data, dict):
        raise ReplayFormatError(f"{where} must be an object")
    command = _get(data, "command", dict, where=where)
    events = _get(data, "events", list, where=where)
    return Batch(
        command=command,
        events=tuple(_event(e, f"{where}.events[{j}]") for j, e in enumerate(events)),
    )


def _event(data: Any, where: str) -> RecordedEvent:
    if not isinstance(data, dict):
        raise ReplayFormatError(f"{where} must be an object")
    return RecordedEvent(
        version=_get(data, "version", int, where=where),
        event=_get(data, "event", dict, where=where),
        prev_hash=_get(data, "prev_hash", str, where=where),
        hash=_get(data, "hash", str, where=where),
    )


def _get(
    data: dict[str, Any], key: str, kind: type, *, nullable: bool = False, where: str = "header"
) -> Any:
    value = data.get(key)
    if value is None and nullable:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ReplayFormatError(f"{where}.{key} must be {kind.__name__}, got {value!r}")
    return value
