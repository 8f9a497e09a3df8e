"""Stream entries read back as the stored events they were written from."""

from __future__ import annotations

from domain.chain import GENESIS
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
