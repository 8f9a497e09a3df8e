"""The checks both replay formats share (``replays.verify`` runs format 1, ``replays.fair``
format 2): the hash chain, the head, the header against the recorded facts, a batch against the
events the rules produce, the outcome. Each raises ``Discrepancy`` at the first thing wrong."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.chain import walk
from domain.events import Encoded, Event, canonical_json
from domain.protocol import Game
from replays.format import Batch, RecordedEvent, Replay


class Discrepancy(Exception):
    """The first thing in a replay that is not what it should be: the version of the first bad
    event (None: the file as a whole) and why."""

    def __init__(self, version: int | None, reason: str) -> None:
        super().__init__(reason)
        self.version = version
        self.reason = reason


def check_chain(events: Sequence[RecordedEvent], salt: str = "") -> None:
    """Versions run 1, 2, ... and every hash links to its predecessor (salted when given)."""
    walked = walk(((r.version, r.prev_hash, r.hash, r.event) for r in events), salt=salt)
    if not walked.ok:
        raise Discrepancy(walked.broken_at, walked.problem)


def check_head(replay: Replay) -> None:
    """The header's head version and hash are the last event's; no batch is empty."""
    events = replay.events
    header = replay.header
    last = events[-1] if events else None
    last_version = last.version if last else 0
    if header.head_version != last_version:
        raise Discrepancy(
            min(header.head_version, last_version) + 1,
            f"the header names head version {header.head_version} "
            f"but the events end at version {last_version}",
        )
    if last is None or header.head_hash != last.hash:
        raise Discrepancy(last_version, "the header's head hash is not the last event's hash")
    if any(not b.events for b in replay.batches):
        raise Discrepancy(None, "a batch holds no events")


def check_header(replay: Replay, game: str, recorded: Mapping[str, Any]) -> None:
    """The header names ``game`` and holds each of ``recorded``'s facts as event 1 does."""
    data = replay.header.to_dict()
    for name, value in recorded.items():
        if canonical_json(data[name]) != canonical_json(value):
            raise Discrepancy(1, f"the header's {name} differs from the one recorded in event 1")
    if replay.header.game != game:
        raise Discrepancy(1, f"the header names game {replay.header.game!r}, the events are {game}")


def check_outcome(replay: Replay, produced: dict[str, Any] | None) -> None:
    """The recorded outcome is the one the rules give the folded events."""
    if canonical_json(produced) != canonical_json(replay.outcome):
        raise Discrepancy(
            replay.header.head_version,
            f"the recorded outcome {canonical_json(replay.outcome)} is not the outcome of the "
            f"events {canonical_json(produced)}",
        )


def compare(game: Game[Any], batch: Batch, produced: list[Event]) -> None:
    """The batch holds exactly the events the rules produce (each read in its current schema)."""
    expected = [game.codec.encode(e) for e in produced]
    for recorded, wanted in zip(batch.events, expected, strict=False):
        if canonical_json(normal(game, recorded)) != canonical_json(wanted):
            raise Discrepancy(recorded.version, _difference(wanted, normal(game, recorded)))
    if len(batch.events) != len(expected):
        where = batch.events[0].version + min(len(batch.events), len(expected))
        raise Discrepancy(
            where,
            f"the rules produce {len(expected)} event(s) for this command, "
            f"the batch holds {len(batch.events)}",
        )


def normal(game: Game[Any], recorded: RecordedEvent) -> Encoded:
    """The recorded event in its current schema (old shapes go through the upcasters)."""
    try:
        return game.codec.encode(game.codec.decode(recorded.event))
    except (KeyError, TypeError, ValueError) as err:
        raise Discrepancy(recorded.version, f"unreadable event: {err!r}") from None


def _difference(wanted: Encoded, recorded: Encoded) -> str:
    if wanted.get("type") != recorded.get("type"):
        return f"the rules produce a {wanted.get('type')} here, the replay records a " + str(
            recorded.get("type")
        )
    keys = sorted(set(wanted) | set(recorded))
    diffs = [
        f"{k}: rules {_short(wanted.get(k))}, replay {_short(recorded.get(k))}"
        for k in keys
        if canonical_json(wanted.get(k)) != canonical_json(recorded.get(k))
    ]
    return f"the rules produce a different {wanted.get('type')} here ({'; '.join(diffs)})"


def _short(value: Any, limit: int = 80) -> str:
    text = canonical_json(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
