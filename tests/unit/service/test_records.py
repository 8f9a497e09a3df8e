"""Stream entries read back as the stored events they were written from."""

from __future__ import annotations

import pytest

from domain import chain
from domain.chain import GENESIS, link_hash
from domain.events import canonical_json
from service.store import records
from service.store.port import StoredEvent
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
