"""The stored shapes shared by every adapter: stream entries, metadata and idempotency records.

A stream entry (Redis field -> string):

- ``event``: canonical JSON of the encoded event;
- ``prev_hash`` / ``hash``: ``hash = domain.chain.link_hash(prev_hash, event)``;
- first entry of a batch only: ``command`` (canonical JSON) and ``batch`` (its event count).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import lzma
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.chain import GENESIS, link_hash_text, walk
from domain.events import canonical_json
from domain.fairness import chain_salt
from domain.seating import SeatLeft
from service.store.port import (
    Appended,
    Batch,
    ChainReport,
    Encoded,
    GameMeta,
    IdempotencyKeyReused,
    IdempotencyRecord,
    SeatRecord,
    StoredEvent,
)

Fields = dict[str, str]


def salt_of(meta: GameMeta | None) -> str:
    """The chain salt of a game: derived from its secret; "" (unsalted) for format 1 games."""
    return chain_salt(meta.secret) if meta is not None and meta.secret else ""


class CreateInSteps:
    """A create in the steps a retry or the sweeper can complete (each adapter writes the steps):
    note the creation, write the game's own keys (marked due), log its commitment
    (``service.store.commitment_log``), then list it. No step touches keys of two Redis Cluster
    slots."""

    def create(
        self,
        meta: GameMeta,
        events: Sequence[Encoded],
        command: Mapping[str, Any],
        idempotency: IdempotencyRecord | None = None,
    ) -> Appended:
        entries = build_entries(events, command, GENESIS, salt_of(meta))
        self._note_create(meta)
        result = self._record_create(meta, entries, idempotency)
        if result.replayed is None:
            if meta.secret:  # its commitment goes public before anyone can join it
                self.log_commitment(meta.id, meta.commitment)
            self._list_game(meta)
        return result

    def log_commitment(self, game_id: str, commitment: str) -> int:
        raise NotImplementedError

    def _note_create(self, meta: GameMeta) -> None:
        raise NotImplementedError

    def _record_create(
        self, meta: GameMeta, entries: list[Fields], idempotency: IdempotencyRecord | None
    ) -> Appended:
        raise NotImplementedError

    def _list_game(self, meta: GameMeta) -> None:
        raise NotImplementedError


def build_entries(
    events: Sequence[Encoded], command: Mapping[str, Any], prev_hash: str, salt: str = ""
) -> list[Fields]:
    """The stream entries of one batch, chained from ``prev_hash`` (salted when given)."""
    out: list[Fields] = []
    for index, event in enumerate(events):
        text = canonical_json(event)  # encoded once: stored, and hashed as stored
        digest = link_hash_text(prev_hash, text, salt)
        fields = {"event": text, "prev_hash": prev_hash, "hash": digest}
        if index == 0:
            fields["command"] = canonical_json(command)
            fields["batch"] = str(len(events))
        out.append(fields)
        prev_hash = digest
    return out


def parse_entry(version: int, fields: Mapping[str, str]) -> StoredEvent:
    """A stored event from its entry fields, its event and command decoded when first read
    (every fold reads every entry: kept cheap)."""
    command = fields.get("command")
    batch = fields.get("batch")
    stored = _new(StoredEvent)
    _set_version(stored, version)
    _set_prev_hash(stored, fields["prev_hash"])
    _set_hash(stored, fields["hash"])
    if command is None:
        _set_command(stored, None)
    _set_batch(stored, None if batch is None else int(batch))
    _set_raw(stored, fields["event"])
    _set_raw_command(stored, command)
    return stored


# parse_entry fills a StoredEvent's slots directly, as its generated __init__ would (without a
# frozen field's object.__setattr__ each): every field, in this order.
_STORED_FIELDS = ("version", "event", "prev_hash", "hash", "command", "batch", "raw", "raw_command")
if tuple(f.name for f in dataclasses.fields(StoredEvent)) != _STORED_FIELDS:
    raise TypeError("StoredEvent's fields changed: update parse_entry")
_new = object.__new__
(_set_version, _set_event, _set_prev_hash, _set_hash, _set_command, _set_batch, _set_raw,
 _set_raw_command) = (vars(StoredEvent)[name].__set__ for name in _STORED_FIELDS)


def version_of(entry_id: str) -> int:
    """The version of a stream entry id ``v-0``."""
    return int(entry_id.partition("-")[0])


def group_batches(events: Iterable[StoredEvent]) -> list[Batch]:
    """Stored events grouped by the batch marks on their first events."""
    batches: list[Batch] = []
    current: list[StoredEvent] = []
    command: Encoded = {}
    for stored in events:
        if stored.command is not None:
            if current:
                batches.append(Batch(command=command, events=tuple(current)))
            command, current = stored.command, []
        current.append(stored)
    if current:
        batches.append(Batch(command=command, events=tuple(current)))
    return batches


def check_chain(entries: Iterable[tuple[int, Mapping[str, str]]], salt: str = "") -> ChainReport:
    """Verify versions 1..n are contiguous and every hash links to its predecessor."""
    walked = walk(
        (
            (number, fields.get("prev_hash"), fields.get("hash"), fields.get("event", ""))
            for number, fields in entries
        ),
        salt=salt,
    )
    return ChainReport(
        walked.ok, walked.version, walked.head_hash, broken_at=walked.broken_at,
        problem=walked.problem,
    )


def meta_to_json(meta: GameMeta) -> str:
    """The static part of the metadata (seats as created, without status)."""
    return canonical_json(
        {
            "id": meta.id,
            "game": meta.game,
            "players": meta.players,
            "options": meta.options,
            "seats": [_seat_to_dict(s) for s in meta.seats],
            "created": meta.created,
            "commitment": meta.commitment,
            "seed": meta.seed,
            **_lifecycle_fields(meta),
            **({"creator": meta.creator} if meta.creator else {}),
        }
    )


def _lifecycle_fields(meta: GameMeta) -> dict[str, Any]:
    if not meta.secret:
        return {}
    fields = {"secret": meta.secret, "deal": meta.deal, "prearranged": meta.prearranged}
    return fields if meta.forked is None else {**fields, "forked": meta.forked}


def meta_from_fields(fields: Mapping[str, str]) -> GameMeta | None:
    """Metadata from its stored fields: ``meta`` JSON, ``status``, ``join:<seat>`` JSON."""
    raw = fields.get("meta")
    if raw is None:
        return None
    data, created_seats = _static_meta(raw)
    seats = list(created_seats)
    for index in range(len(seats)):
        joined = fields.get(f"join:{index}")
        if joined is not None:
            seats[index] = _seat_from_dict(json.loads(joined))
    return GameMeta(
        id=data["id"],
        game=data["game"],
        players=data["players"],
        options=data["options"],
        seats=tuple(seats),
        created=data["created"],
        commitment=data["commitment"],
        seed=data["seed"],
        status=fields.get("status", "waiting"),
        secret=data.get("secret", ""),
        deal=data.get("deal"),
        prearranged=bool(data.get("prearranged", False)),
        forked=data.get("forked"),
        left=tuple(sorted(v for k, v in fields.items() if k.startswith(LEFT_PREFIX))),
        creator=str(data.get("creator", "")),
    )


LEFT_PREFIX = "left:"


def left_field(token_hash: str) -> str:
    """The meta field that keeps a former seat holder's token hash (after a leave)."""
    return f"{LEFT_PREFIX}{token_hash}"


def seats_left(events: Sequence[Encoded]) -> list[int]:
    """The seats a batch's people leave: the store vacates them with the batch."""
    return [int(e["seat"]) for e in events if e.get("type") == SeatLeft.TYPE]


def token_hash_of(joined: str | None) -> str | None:
    """The token hash of a stored ``join:<seat>`` value."""
    return None if joined is None else json.loads(joined).get("token_hash")


@functools.lru_cache(maxsize=4096)
def _static_meta(raw: str) -> tuple[dict[str, Any], tuple[SeatRecord, ...]]:
    """The static metadata JSON parsed once per process (it never changes once written)."""
    data = json.loads(raw)
    return data, tuple(_seat_from_dict(s) for s in data["seats"])


def joined_seat_json(name: str, token_hash: str) -> str:
    """The stored ``join:<seat>`` value of a seat someone joined."""
    return canonical_json(_seat_to_dict(SeatRecord("human", name=name, token_hash=token_hash)))


def _seat_to_dict(seat: SeatRecord) -> dict[str, Any]:
    return {
        k: v
        for k, v in (
            ("type", seat.type),
            ("name", seat.name),
            ("bot", seat.bot),
            ("token_hash", seat.token_hash),
        )
        if v is not None
    }


def _seat_from_dict(data: Mapping[str, Any]) -> SeatRecord:
    return SeatRecord(
        type=data["type"],
        name=data.get("name"),
        bot=data.get("bot"),
        token_hash=data.get("token_hash"),
    )


def status_after_join(meta: GameMeta) -> str:
    """The status once every open seat is taken (or still waiting)."""
    if meta.status != "waiting" or meta.open_seats:
        return meta.status
    return "playing"


def seat_key(seat: int, key: str) -> str:
    """Where a seat's Idempotency-Key is recorded: keys belong to (game, seat), so no seat can
    read, reuse or block another's (a bot's predictable keys included)."""
    return f"seat:{seat}:{key}"


def creation_key(key: str) -> str:
    """Where a creation's Idempotency-Key is recorded (apart from every seat's keys)."""
    return f"create:{key}"


def idempotency_to_json(record: IdempotencyRecord) -> str:
    """The stored form of an idempotency record: ``<fingerprint>:<version>`` when it keeps no
    response (an action's: the service renders it again from the events), else JSON."""
    if record.response is None:
        return f"{record.fingerprint}:{record.version}"
    return canonical_json(
        {"fingerprint": record.fingerprint, "version": record.version, "response": record.response}
    )


def idempotency_from_json(key: str, raw: str | None) -> IdempotencyRecord | None:
    """An idempotency record from its stored form."""
    if raw is None:
        return None
    if not raw.startswith("{"):
        fingerprint, _, version = raw.rpartition(":")
        return IdempotencyRecord(key=key, fingerprint=fingerprint, version=int(version))
    data = json.loads(raw)
    return IdempotencyRecord(
        key=key,
        fingerprint=data["fingerprint"],
        version=data["version"],
        response=data.get("response"),
    )


def replayed(earlier: IdempotencyRecord, request: IdempotencyRecord) -> Appended:
    """The earlier result of a retried key, or IdempotencyKeyReused for another request."""
    if earlier.fingerprint != request.fingerprint:
        raise IdempotencyKeyReused(
            "that idempotency key was already used for a different request"
        )
    return Appended(version=earlier.version, replayed=earlier)



REPLAY_MAGIC = b"\xfd7zXZ\x00"  # how a stored replay starts once compressed (the xz header)


def pack_replay(text: str) -> bytes:
    """A replay file as stored in Redis: xz-compressed UTF-8 (a replay repeats its game's
    events and their hashes; this keeps about an eighth of the text)."""
    return lzma.compress(text.encode(), preset=9, check=lzma.CHECK_NONE)


def unpack_replay(stored: bytes) -> str:
    """The replay file from its stored form (a copy stored before compression as it is)."""
    if stored.startswith(REPLAY_MAGIC):
        return lzma.decompress(stored).decode()
    return stored.decode()


def snapshot_version(raw: bytes | None) -> int | None:
    """The version a stored snapshot was taken at: its form begins ``<version>:``
    (``service.snapshots.to_bytes``; the store's reads start the events there)."""
    head, colon, _ = (raw or b"")[:21].partition(b":")
    return int(head) if colon and head.isdigit() else None
