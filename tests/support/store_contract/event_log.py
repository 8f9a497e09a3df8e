"""The ``EventLog`` port's contract: each game's stream, its conditional appends and reads, the
hash chain, idempotency keys and snapshots."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from domain.chain import GENESIS, link_hash
from domain.events import canonical_json
from service.store import (
    ChainBroken,
    IdempotencyKeyReused,
    IdempotencyRecord,
    UnknownGameId,
    VersionConflict,
)
from service.store.records import build_entries
from tests.support.store_contract.base import (
    KEY_NAMES,
    START,
    StoreCase,
    action,
    events,
    make_meta,
)


class EventLogContract(StoreCase):
    """Given any adapter, the ``EventLog`` port keeps its promises."""

    def test_a_new_game_holds_its_creation_batch_at_versions_one_and_two(self, store: Any) -> None:
        meta = self.created(store)
        stored = store.read(meta.id)
        assert [e.version for e in stored] == [1, 2]
        assert stored[0].command == START and stored[0].batch == 2
        assert stored[1].command is None and stored[1].batch is None
        assert store.version(meta.id) == 2

    def test_stored_events_carry_the_hash_chain(self, store: Any) -> None:
        meta = self.created(store)
        first, second = store.read(meta.id)
        assert first.prev_hash == GENESIS
        assert first.hash == link_hash(GENESIS, first.event)
        assert second.prev_hash == first.hash
        assert second.hash == link_hash(first.hash, second.event)

    def test_entries_are_the_documented_string_fields(self, store: Any) -> None:
        meta = self.created(store)
        (v1, f1), (v2, f2) = store.entries(meta.id)
        assert (v1, v2) == (1, 2)
        assert set(f1) == {"event", "prev_hash", "hash", "command", "batch"}
        assert set(f2) == {"event", "prev_hash", "hash"}
        assert f1["command"] == canonical_json(START) and f1["batch"] == "2"
        assert f1["event"] == canonical_json(events("GameStarted")[0])

    def test_an_append_at_the_expected_version_extends_the_stream(self, store: Any) -> None:
        meta = self.created(store)
        result = store.append(
            meta.id,
            2,
            events("CardPlayed", "GameEnded"),
            action(),
            prev_hash=self.head(store, meta.id),
        )
        assert result.version == 4 and result.replayed is None
        batches = store.batches(meta.id)
        assert [(b.first, b.last) for b in batches] == [(1, 2), (3, 4)]
        assert batches[1].command == action()
        assert store.verify_chain(meta.id).ok

    def test_a_stale_expected_version_is_a_conflict_that_stores_nothing(self, store: Any) -> None:
        meta = self.created(store)
        head = self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head)
        with pytest.raises(VersionConflict) as err:
            store.append(meta.id, 2, events("CardPlayed"), action("TH"), prev_hash=head)
        assert err.value.current == 3
        assert store.version(meta.id) == 3

    def test_a_conflict_carries_the_events_after_the_expected_version(self, store: Any) -> None:
        meta = self.created(store)
        head = self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed", "TurnPassed"), action(), prev_hash=head)
        with pytest.raises(VersionConflict) as err:
            store.append(meta.id, 1, events("CardPlayed"), action("TH"), prev_hash=head)
        assert err.value.newer == tuple(store.read(meta.id, 1))
        assert [s.version for s in err.value.newer] == [2, 3, 4]
        assert err.value.newer[1].command is not None and err.value.newer[1].batch == 2

    def test_an_append_may_bring_the_entries_it_built(self, store: Any) -> None:
        meta = self.created(store)
        head = self.head(store, meta.id)
        # built under another salt than the append names: the stored hash shows which was kept
        built = build_entries(events("CardPlayed"), action(), head, salt="other")
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head, entries=built)
        assert store.read(meta.id, 2)[0].hash == built[0]["hash"]

    def test_a_snapshot_is_kept_with_its_batch_and_only_then(self, store: Any) -> None:
        meta = self.created(store)
        head = self.head(store, meta.id)
        assert store.snapshot(meta.id) is None
        blob = b"3:" + bytes(range(256))  # any bytes, kept as they are
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head, snapshot=blob)
        assert store.snapshot(meta.id) == blob
        with pytest.raises(VersionConflict):
            store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head,
                          snapshot=b"never")  # fmt: skip
        assert store.snapshot(meta.id) == blob

    def test_a_game_that_is_over_keeps_no_snapshot(self, store: Any) -> None:
        ended, aborted = self.created(store), self.created(store)
        for meta in (ended, aborted):
            store.append(meta.id, 2, events("CardPlayed"), action(), snapshot=b"3:state",
                         prev_hash=self.head(store, meta.id))  # fmt: skip
            assert store.snapshot(meta.id) == b"3:state"
        store.append(ended.id, 3, events("GameEnded"), action(), snapshot=b"4:state",
                     prev_hash=self.head(store, ended.id), status="over")  # fmt: skip
        store.set_status(aborted.id, "over")
        assert store.snapshot(ended.id) is None and store.snapshot(aborted.id) is None

    def test_an_expected_version_ahead_of_the_stream_is_a_conflict(self, store: Any) -> None:
        meta = self.created(store)
        with pytest.raises(VersionConflict):
            store.append(meta.id, 7, events("CardPlayed"), action(), prev_hash=GENESIS)

    def test_a_wrong_prev_hash_is_refused(self, store: Any) -> None:
        meta = self.created(store)
        with pytest.raises(ChainBroken):
            store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=GENESIS)
        assert store.version(meta.id) == 2

    def test_appending_to_an_unknown_game_fails(self, store: Any) -> None:
        with pytest.raises(UnknownGameId):
            store.append("nope", 0, events("CardPlayed"), action(), prev_hash=GENESIS)
        assert store.meta("nope") is None and store.read("nope") == []
        assert store.version("nope") == 0

    @pytest.mark.parametrize("name", KEY_NAMES)
    def test_a_retried_idempotency_key_returns_the_first_result_and_appends_nothing(
        self, store: Any, name: str
    ) -> None:
        meta = self.created(store)
        head = self.head(store, meta.id)
        key = IdempotencyRecord(name, "fp", 3, {"version": 3, "events": ["x"]})
        first = store.append(
            meta.id, 2, events("CardPlayed"), action(), prev_hash=head, idempotency=key
        )
        again = store.append(
            meta.id, 2, events("CardPlayed"), action(), prev_hash=head, idempotency=key
        )
        assert first.version == again.version == 3
        assert again.replayed == key
        assert store.version(meta.id) == 3

    @pytest.mark.parametrize("name", KEY_NAMES)
    def test_an_idempotency_key_reused_for_another_request_is_refused(
        self, store: Any, name: str
    ) -> None:
        meta = self.created(store)
        head = self.head(store, meta.id)
        store.append(
            meta.id,
            2,
            events("CardPlayed"),
            action(),
            prev_hash=head,
            idempotency=IdempotencyRecord(name, "fp", 3, None),
        )
        with pytest.raises(IdempotencyKeyReused):
            store.append(
                meta.id,
                3,
                events("CardPlayed"),
                action("TH"),
                prev_hash=head,
                idempotency=IdempotencyRecord(name, "other", 4, None),
            )
        assert store.version(meta.id) == 3

    @pytest.mark.parametrize("name", KEY_NAMES)
    def test_fetch_reads_meta_newer_events_and_a_key_in_one_call(
        self, store: Any, name: str
    ) -> None:
        meta = self.created(store)
        record = IdempotencyRecord(name, "fp", 3, {"a": 1})
        store.append(
            meta.id,
            2,
            events("CardPlayed"),
            action(),
            prev_hash=self.head(store, meta.id),
            idempotency=record,
        )
        fetched = store.fetch(meta.id, 1, name)
        assert fetched.meta == meta
        assert [e.version for e in fetched.events] == [2, 3]
        assert fetched.idempotency == record
        assert store.fetch(meta.id, 3, "other").idempotency is None
        assert store.fetch("nope", 0).meta is None

    @pytest.mark.parametrize("name", KEY_NAMES)
    def test_fetch_latest_reads_from_the_snapshot_on_in_one_call(
        self, store: Any, name: str
    ) -> None:
        meta = self.created(store)
        young = store.fetch_latest(meta.id)  # no snapshot yet: every event
        assert young.meta == meta and young.snapshot is None and young.head == 2
        assert [e.version for e in young.events] == [1, 2] and young.idempotency is None
        record = IdempotencyRecord(name, "fp", 4, {"a": 1})
        blob = b"3:" + bytes(range(256))  # binary, as a compressed pickle is
        store.append(meta.id, 2, events("A"), action(), prev_hash=self.head(store, meta.id),
                     snapshot=blob)  # fmt: skip
        store.append(meta.id, 3, events("B"), action(), prev_hash=self.head(store, meta.id),
                     idempotency=record)  # fmt: skip
        fetched = store.fetch_latest(meta.id, name)
        assert fetched.meta == meta and fetched.snapshot == blob and fetched.head == 4
        assert [e.version for e in fetched.events] == [3, 4]  # from the snapshot's version
        assert fetched.events == store.read(meta.id, 2)
        assert fetched.idempotency == record
        assert store.fetch_latest(meta.id, "other").idempotency is None
        assert store.fetch_latest("nope").meta is None

    def test_read_takes_a_version_range(self, store: Any) -> None:
        meta = self.created(store)
        store.append(
            meta.id, 2, events("A", "B", "C"), action(), prev_hash=self.head(store, meta.id)
        )
        assert [e.version for e in store.read(meta.id, 1, 4)] == [2, 3, 4]
        assert store.read(meta.id, 4, 4) == []

    def test_an_edited_event_breaks_the_chain(self, store: Any, tamper: Any) -> None:
        meta = self.created(store)
        store.append(
            meta.id,
            2,
            events("CardPlayed", "GameEnded"),
            action(),
            prev_hash=self.head(store, meta.id),
        )
        assert store.verify_chain(meta.id).ok
        forged = canonical_json({"type": "fake.CardPlayed", "schema": 1, "n": 99})
        tamper(store, meta.id, 3, {"event": forged})
        report = store.verify_chain(meta.id)
        assert not report.ok and report.broken_at == 3

    def test_a_rehashed_edit_still_breaks_the_link_of_the_next_event(
        self, store: Any, tamper: Any
    ) -> None:
        meta = self.created(store)
        store.append(
            meta.id,
            2,
            events("CardPlayed", "GameEnded"),
            action(),
            prev_hash=self.head(store, meta.id),
        )
        prev = store.read(meta.id, 1, 2)[0].hash
        forged = {"type": "fake.CardPlayed", "schema": 1, "n": 99}
        tamper(
            store, meta.id, 3, {"event": canonical_json(forged), "hash": link_hash(prev, forged)}
        )
        report = store.verify_chain(meta.id)
        assert not report.ok and report.broken_at == 4

    @pytest.mark.parametrize("name", KEY_NAMES)
    def test_idempotency_records_expire_once_their_game_is_over(
        self, store: Any, name: str
    ) -> None:
        store.idempotency_ttl = 0.2
        ended, live, aborted = (self.created(store, make_meta(status="playing")) for _ in "abc")
        key = IdempotencyRecord(name, "fp", 3, {"ok": True})
        for meta in (ended, live, aborted):
            status = "over" if meta is ended else None
            store.append(meta.id, 2, events("CardPlayed"), action(), idempotency=key,
                         prev_hash=self.head(store, meta.id), status=status)  # fmt: skip
        store.set_status(aborted.id, "over")
        assert store.fetch(ended.id, 3, name).idempotency == key  # kept for a while...
        time.sleep(0.4)
        assert store.fetch(ended.id, 3, name).idempotency is None  # ...then gone
        assert store.fetch(aborted.id, 3, name).idempotency is None
        assert store.fetch(live.id, 3, name).idempotency == key  # a live game keeps its keys
        assert store.version(ended.id) == 3 and store.verify_chain(ended.id).ok

    def test_the_chain_report_names_the_head(self, store: Any) -> None:
        meta = self.created(store)
        report = store.verify_chain(meta.id)
        assert report.ok and report.version == 2
        assert report.head_hash == self.head(store, meta.id)

    def test_concurrent_appends_at_one_version_have_one_winner(self, store: Any) -> None:
        meta = self.created(store)
        head = self.head(store, meta.id)
        barrier = threading.Barrier(16, timeout=10)
        won: list[int] = []
        lost: list[int] = []

        def append(i: int) -> None:
            barrier.wait()
            try:
                store.append(meta.id, 2, events("CardPlayed"), action(f"{i}H"), prev_hash=head)
                won.append(i)
            except VersionConflict as err:
                assert err.current == 3
                lost.append(i)

        threads = [threading.Thread(target=append, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=20)
        assert len(won) == 1 and len(lost) == 15
        assert store.version(meta.id) == 3
        assert store.batches(meta.id)[-1].command == action(f"{won[0]}H")
        assert store.verify_chain(meta.id).ok

    def test_concurrent_appends_each_at_the_version_it_read_all_land_in_one_chain(
        self, store: Any
    ) -> None:
        meta = self.created(store)
        landed: list[int] = []

        def keep_appending(i: int) -> None:
            for _ in range(200):  # bounded: retries after losing a race
                version, head = store.version(meta.id), self.head(store, meta.id)
                try:
                    store.append(meta.id, version, events("CardPlayed"), action(f"{i}C"),
                                 prev_hash=head)
                except (VersionConflict, ChainBroken):
                    continue
                landed.append(i)
                return

        threads = [threading.Thread(target=keep_appending, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(landed) == list(range(8))
        assert store.version(meta.id) == 2 + 8
        assert sorted(b.command["action"]["card"] for b in store.batches(meta.id)[1:]) == sorted(
            f"{i}C" for i in range(8)
        )
        assert store.verify_chain(meta.id).ok

    def test_versions_reads_many_games_at_once(self, store: Any) -> None:
        first, second = self.created(store), self.created(store)
        head = self.head(store, first.id)
        store.append(first.id, 2, events("CardPlayed"), action(), prev_hash=head)
        assert store.versions([first.id, second.id, "nope"]) == {
            first.id: 3, second.id: 2, "nope": 0
        }
        assert store.versions([]) == {}

    def test_an_append_can_move_the_game_to_over(self, store: Any) -> None:
        meta = self.created(store, make_meta(status="playing"))
        store.append(
            meta.id,
            2,
            events("GameEnded"),
            action(),
            prev_hash=self.head(store, meta.id),
            status="over",
        )
        assert store.meta(meta.id).status == "over"
        assert [m.id for m in store.list_games(status="over")] == [meta.id]
        assert store.list_games(status="playing") == []
