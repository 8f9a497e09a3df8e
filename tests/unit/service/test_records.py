"""Stream entries read back as the stored events they were written from."""

from __future__ import annotations

import pytest

from domain import chain
from domain.chain import GENESIS, link_hash
from domain.events import canonical_json
from service.store import records
from service.store.port import (
    GameMeta,
    IdempotencyKeyReused,
    IdempotencyRecord,
    SeatRecord,
    StoredEvent,
)
from service.store.records import build_entries, parse_entry, version_of


def test_an_entry_parses_to_the_stored_event_its_constructor_builds() -> None:
    events = [{"type": "fake.Played", "schema": 1, "cards": ["3H"]}, {"type": "fake.Passed"}]
    first, second = build_entries(events, {"type": "play"}, GENESIS, salt="s" * 64)
    parsed = [parse_entry(version_of("7-0"), first), parse_entry(8, second)]
    assert parsed == [
        StoredEvent(7, events[0], GENESIS, first["hash"], {"type": "play"}, 2, first["event"]),
        StoredEvent(8, events[1], first["hash"], second["hash"], None, None, second["event"]),
    ]
    assert [p.raw for p in parsed] == [first["event"], second["event"]]


def test_a_batch_encodes_each_event_once_and_hashes_the_stored_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events = [{"type": "fake.Played", "cards": ["3H", "é"]}, {"type": "fake.Passed"}]
    encoded: list[object] = []

    def counted(data: object) -> str:
        encoded.append(data)
        return canonical_json(data)

    monkeypatch.setattr(records, "canonical_json", counted)
    monkeypatch.setattr(chain, "canonical_json", counted)
    entries = build_entries(events, {"type": "play"}, GENESIS, salt="s" * 64)
    assert encoded == [events[0], {"type": "play"}, events[1]]  # once each, the command too
    previous = GENESIS
    for event, entry in zip(events, entries, strict=True):
        assert entry["event"] == canonical_json(event)
        assert entry["hash"] == link_hash(previous, event, "s" * 64)
        previous = entry["hash"]


SALT = "ab" * 32


def test_the_stores_chain_check_walks_a_salted_chain_and_names_the_break() -> None:
    entries = build_entries([{"type": "a"}, {"type": "b"}], {"kind": "x"}, GENESIS, salt=SALT)
    salted = records.check_chain(enumerate(entries, 1), SALT)
    assert (salted.ok, salted.version, salted.head_hash) == (True, 2, entries[1]["hash"])
    unsalted = records.check_chain(enumerate(entries, 1))
    edited = "hash does not match the event (the event or its hash was edited)"
    assert (unsalted.ok, unsalted.broken_at, unsalted.problem) == (False, 1, edited)
    plain = build_entries([{"type": "a"}], {"kind": "x"}, GENESIS)  # a format 1 game's
    assert records.check_chain(enumerate(plain, 1)).ok
    no_event = [entries[0], {k: v for k, v in entries[1].items() if k != "event"}]
    missing = records.check_chain(enumerate(no_event, 1), SALT)
    assert (missing.ok, missing.version, missing.broken_at, missing.problem) == (
        False, 1, 2, edited)  # fmt: skip


def test_a_key_used_for_another_request_is_refused_saying_so() -> None:
    earlier = IdempotencyRecord(key="k", fingerprint="f" * 64, version=3)
    with pytest.raises(IdempotencyKeyReused) as reused:
        records.replayed(earlier, IdempotencyRecord(key="k", fingerprint="e" * 64, version=0))
    assert str(reused.value) == "that idempotency key was already used for a different request"
    same = records.replayed(earlier, IdempotencyRecord(key="k", fingerprint="f" * 64, version=0))
    assert (same.version, same.replayed) == (3, earlier)


def test_a_snapshots_version_is_the_digits_before_its_first_colon() -> None:
    assert records.snapshot_version(b'12:{"a": 1, "b": "x:y"}') == 12
    assert records.snapshot_version(b"123") is None  # no colon: not a snapshot's form
    assert records.snapshot_version(b"1" * 21 + b":{}") is None  # past the longest version
    assert records.snapshot_version(b"1" * 20 + b":{}") == int("1" * 20)
    assert records.snapshot_version(None) is None and records.snapshot_version(b"x:1") is None


def test_a_forks_metadata_reads_back_as_written_and_a_stored_status_is_waiting_by_default() -> None:
    meta = GameMeta(id="g1", game="sixty_six", players=2, options={}, seats=(
        SeatRecord("open"), SeatRecord("bot", bot="random")), created=1.5, commitment="c" * 64,
        seed="", secret="5" * 64, forked={"source": "g0", "version": 9, "as": 1},
        creator="203.0.113.7")  # fmt: skip
    assert records.meta_from_fields({"meta": records.meta_to_json(meta)}) == meta
    stored = {"meta": records.meta_to_json(meta), "status": "playing"}
    assert records.meta_from_fields(stored) == meta.with_status("playing")
