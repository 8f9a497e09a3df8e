"""The one contract suite every EventStore adapter passes unchanged.

Subclass ``StoreContract`` and provide two fixtures: ``store`` (a fresh, isolated store) and
``tamper`` (a function ``(store, game_id, version, fields)`` that edits one stored entry behind
the store's back, as an attacker with access to Redis would).
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from domain.chain import GENESIS, link_hash
from domain.events import canonical_json
from service.store import (
    ChainBroken,
    GameExists,
    GameMeta,
    Holder,
    IdempotencyKeyReused,
    IdempotencyRecord,
    Quota,
    QuotaExceeded,
    SeatNotHeld,
    SeatRecord,
    SeatTaken,
    UnknownGameId,
    VersionConflict,
)
from service.store.commitment_log import link as commitment_link
from service.store.records import build_entries

_ids = itertools.count()


def make_meta(
    game: str = "fake", seats: tuple[SeatRecord, ...] | None = None, status: str = "waiting"
) -> GameMeta:
    seats = seats or (SeatRecord("open"), SeatRecord("bot", bot="random"))
    return GameMeta(
        id=f"g{next(_ids)}-{time.monotonic_ns()}",
        game=game,
        players=len(seats),
        options={"hand_size": 3},
        seats=seats,
        created=time.time(),
        commitment="c" * 64,
        seed="secret-seed",
        status=status,
    )


def events(*names: str) -> list[dict[str, Any]]:
    return [{"type": f"fake.{n}", "schema": 1, "n": i} for i, n in enumerate(names)]


START = {
    "kind": "start",
    "setup": {"players": 2, "seed": "s", "options": {}, "dealer": None, "deal": None},
}


def action(card: str = "9H") -> dict[str, Any]:
    return {"kind": "action", "seat": 0, "action": {"type": "play", "card": card}}


# idempotency keys as the service records them (records.seat_key): a person's, a bot's (ending
# in the version it expects), one ending in a later number than the version
KEY_NAMES = ("seat:0:k1", "seat:0:bot:0:2", "seat:1:retry:99")


class StoreContract:
    """Given any store, the event store port keeps its promises."""

    def created(self, store: Any, meta: GameMeta | None = None) -> GameMeta:
        meta = meta or make_meta()
        store.create(meta, events("GameStarted", "CardsDealt"), START)
        return meta

    def head(self, store: Any, game_id: str) -> str:
        stored = store.read(game_id)
        return stored[-1].hash if stored else GENESIS

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

    def test_an_append_counts_its_quota_and_past_it_stores_nothing(self, store: Any) -> None:
        meta = self.created(store)
        once = ((1, 60_000),)
        first, head = Quota("seat:a", once), self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head, quota=first)
        assert first.counted
        head = self.head(store, meta.id)
        with pytest.raises(QuotaExceeded) as err:
            store.append(meta.id, 3, events("CardPlayed"), action("TH"), prev_hash=head,
                         idempotency=IdempotencyRecord("k", "f", 4), snapshot=b"never",
                         quota=Quota("seat:a", once))  # fmt: skip
        assert err.value.window == 0 and 0 < err.value.retry_after_ms <= 60_000
        assert store.version(meta.id) == 3 and store.snapshot(meta.id) is None
        # nothing of the refused append was kept: its idempotency key is free
        store.append(meta.id, 3, events("CardPlayed"), action("TH"), prev_hash=head,
                     idempotency=IdempotencyRecord("k", "f", 4),
                     quota=Quota("seat:b", once))  # fmt: skip
        assert store.version(meta.id) == 4  # another seat has a budget of its own

    def test_a_request_is_counted_once_by_whichever_counts_it_first(self, store: Any) -> None:
        meta, other = self.created(store), self.created(store)
        twice = ((2, 60_000),)
        quota = Quota("seat:a", twice)
        store.count(meta.id, quota)
        store.count(meta.id, quota)
        head = self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head, quota=quota)
        store.count(meta.id, Quota("seat:a", twice))  # the second request
        with pytest.raises(QuotaExceeded):
            store.count(meta.id, Quota("seat:a", twice))
        store.count(other.id, Quota("seat:a", twice))  # each game counts apart

    def test_a_quota_window_starts_again_once_it_ends(self, store: Any) -> None:
        meta = self.created(store)
        windows = ((5, 60_000), (1, 100))
        store.count(meta.id, Quota("seat:a", windows))
        with pytest.raises(QuotaExceeded) as err:
            store.count(meta.id, Quota("seat:a", windows))
        assert err.value.window == 1 and err.value.retry_after_ms <= 100
        time.sleep(0.15)
        store.count(meta.id, Quota("seat:a", windows))  # the short window began again
        with pytest.raises(QuotaExceeded):
            store.count(meta.id, Quota("seat:a", windows))

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

    def test_a_game_id_is_created_once(self, store: Any) -> None:
        meta = self.created(store)
        with pytest.raises(GameExists):
            store.create(meta, events("GameStarted"), START)
        assert store.version(meta.id) == 2

    def test_a_retried_creation_key_returns_the_first_result_and_creates_nothing(
        self, store: Any
    ) -> None:
        meta = make_meta()
        key = IdempotencyRecord("c1", "fp", 2, {"id": meta.id, "version": 2})
        first = store.create(meta, events("GameStarted", "CardsDealt"), START, key)
        again = store.create(meta, events("GameStarted", "Other"), START, key)
        assert first.version == again.version == 2
        assert first.replayed is None and again.replayed == key
        assert [e.event["type"] for e in store.read(meta.id)] == [
            "fake.GameStarted",
            "fake.CardsDealt",
        ]
        assert [g.id for g in store.list_games()].count(meta.id) == 1

    def test_a_creation_key_reused_for_another_request_is_refused(self, store: Any) -> None:
        meta = make_meta()
        store.create(meta, events("GameStarted"), START, IdempotencyRecord("c1", "fp", 1, None))
        with pytest.raises(IdempotencyKeyReused):
            store.create(
                meta, events("GameStarted"), START, IdempotencyRecord("c1", "other", 1, None)
            )
        assert store.version(meta.id) == 1

    # -- atomic create: failures injected between its steps ----------------------------
    def fail(self, monkeypatch: pytest.MonkeyPatch, store: Any, step: str) -> None:
        """Make one step of ``create`` fail as a crash or a lost connection would."""

        def crash(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError(f"injected failure in {step}")

        monkeypatch.setattr(store, step, crash)

    def test_a_settled_create_is_listed_and_leaves_no_note(self, store: Any) -> None:
        meta = self.created(store)
        assert [m.id for m in store.list_games()] == [meta.id]
        assert store.unsettled(before=time.time() + 1) == [meta.id]  # until its turns are due
        store.settle_create(meta.id)
        assert store.unsettled(before=time.time() + 1) == []
        assert store.finish_create(meta.id) is None  # nothing left to finish

    def test_a_crash_before_the_game_is_written_leaves_no_game(
        self, store: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        meta = make_meta()
        self.fail(monkeypatch, store, "_record_create")
        with pytest.raises(ConnectionError):
            store.create(meta, events("GameStarted"), START)
        monkeypatch.undo()
        assert store.meta(meta.id) is None and store.list_games() == []
        assert store.unsettled(before=time.time() + 1) == [meta.id]
        assert store.finish_create(meta.id) is None  # the sweeper finds nothing to finish...
        assert store.unsettled(before=time.time() + 1) == []  # ...and drops the note
        assert store.create(meta, events("GameStarted"), START).version == 1  # a retry works
        assert [m.id for m in store.list_games()] == [meta.id]

    def test_a_crash_between_the_game_and_its_listing_is_finished_later(
        self, store: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        meta = make_meta(status="playing")
        self.fail(monkeypatch, store, "_list_game")
        with pytest.raises(ConnectionError):
            store.create(meta, events("GameStarted", "CardsDealt"), START)
        monkeypatch.undo()
        assert store.version(meta.id) == 2 and store.list_games() == []  # half done
        assert store.unsettled(before=time.time() + 1) == [meta.id]
        assert store.unsettled(before=meta.created - 1) == []  # only creations begun before
        finished = store.finish_create(meta.id)
        assert finished is not None and finished.id == meta.id
        assert [m.id for m in store.list_games(status="playing")] == [meta.id]
        store.settle_create(meta.id)
        assert store.unsettled(before=time.time() + 1) == []
        assert store.finish_create(meta.id) is None

    def test_a_retried_creation_key_finds_a_half_done_create_to_finish(
        self, store: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        meta = make_meta()
        key = IdempotencyRecord("c1", "fp", 1, {"id": meta.id})
        self.fail(monkeypatch, store, "_list_game")
        with pytest.raises(ConnectionError):
            store.create(meta, events("GameStarted"), START, key)
        monkeypatch.undo()
        again = store.create(meta, events("GameStarted"), START, key)
        assert again.replayed == key and store.version(meta.id) == 1
        assert store.finish_create(meta.id) is not None
        assert [m.id for m in store.list_games()] == [meta.id]

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

    def test_an_open_seat_is_joined_once(self, store: Any) -> None:
        meta = self.created(store)
        joined = store.join(meta.id, 0, "alice", "h" * 64)
        assert joined.seats[0] == SeatRecord("human", name="alice", token_hash="h" * 64)
        assert joined.seat_of_token_hash("h" * 64) == 0
        with pytest.raises(SeatTaken):
            store.join(meta.id, 0, "bob", "b" * 64)
        with pytest.raises(SeatTaken):
            store.join(meta.id, 1, "bob", "b" * 64)
        again = store.join(meta.id, 0, "alice", "h" * 64)  # a retried join: no conflict
        assert again.seats[0] == joined.seats[0]
        with pytest.raises(UnknownGameId):
            store.join("nope", 0, "bob", "b" * 64)

    def test_a_vacated_seat_opens_again_and_keeps_the_leavers_token_apart(
        self, store: Any
    ) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        store.vacate(meta.id, 0)
        store.vacate(meta.id, 0)  # idempotent
        after = store.meta(meta.id)
        assert after.seats[0].type == "open" and after.left == ("h" * 64,)
        assert after.seat_of_token_hash("h" * 64) is None
        rejoined = store.join(meta.id, 0, "bob", "b" * 64)
        assert rejoined.seat_of_token_hash("b" * 64) == 0 and rejoined.left == ("h" * 64,)

    def test_an_append_by_the_seat_s_holder_is_stored(self, store: Any) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        appended = store.append(meta.id, 2, events("CardPlayed"), action(),
                                prev_hash=self.head(store, meta.id), holder=Holder(0, "h" * 64))
        assert appended.version == 3

    def test_an_append_by_a_token_that_does_not_hold_the_seat_stores_nothing(
        self, store: Any
    ) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        record = IdempotencyRecord("seat:0:k", "fp", 3)
        head = self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head,
                     idempotency=record)  # fmt: skip
        for holder in (Holder(0, "b" * 64), Holder(1, "h" * 64)):
            with pytest.raises(SeatNotHeld) as refused:  # before the key's replay and version
                store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=GENESIS,
                             idempotency=record, holder=holder)  # fmt: skip
            assert not refused.value.left
        assert store.version(meta.id) == 3

    def test_a_batch_that_leaves_a_seat_vacates_it_in_the_same_step(self, store: Any) -> None:
        meta = self.created(store)
        store.join(meta.id, 0, "alice", "h" * 64)
        leave = [{"type": "lifecycle.SeatLeft", "schema": 1, "seat": 0, "bot": None}]
        store.append(meta.id, 2, leave, action(), prev_hash=self.head(store, meta.id),
                     holder=Holder(0, "h" * 64))  # fmt: skip
        after = store.meta(meta.id)
        assert after.seats[0].type == "open" and after.left == ("h" * 64,)
        with pytest.raises(SeatNotHeld) as refused:
            store.append(meta.id, 3, events("CardPlayed"), action(),
                         prev_hash=self.head(store, meta.id), holder=Holder(0, "h" * 64))
        assert refused.value.left and store.version(meta.id) == 3
        store.join(meta.id, 0, "carol", "c" * 64)
        appended = store.append(meta.id, 3, events("CardPlayed"), action(),
                                prev_hash=self.head(store, meta.id), holder=Holder(0, "c" * 64))
        assert appended.version == 4

    def test_concurrent_joins_of_one_seat_have_one_winner(self, store: Any) -> None:
        meta = self.created(store)
        wins: list[int] = []

        def join(i: int) -> None:
            try:
                store.join(meta.id, 0, f"p{i}", f"{i:064d}")
                wins.append(i)
            except SeatTaken:
                pass

        threads = [threading.Thread(target=join, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1
        assert store.meta(meta.id).seats[0].name == f"p{wins[0]}"

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

    def test_a_replay_is_kept_and_read_back_per_game(self, store: Any) -> None:
        first, second = self.created(store), self.created(store)
        assert store.replay(first.id) is None
        store.put_replay(first.id, '{"format": "one"}')
        store.put_replay(first.id, '{"format": "two"}')
        assert store.replay(first.id) == '{"format": "two"}'
        assert store.replay(second.id) is None

    def test_a_review_is_kept_per_game_and_seat(self, store: Any) -> None:
        first, second = self.created(store), self.created(store)
        assert store.review(first.id, 0) is None
        store.put_review(first.id, 0, '{"seat": 0}')
        store.put_review(first.id, 1, '{"seat": 1}')
        store.put_review(first.id, 0, '{"seat": 0, "again": true}')
        assert store.review(first.id, 0) == '{"seat": 0, "again": true}'
        assert store.review(first.id, 1) == '{"seat": 1}'
        assert store.review(second.id, 0) is None

    def test_joining_the_last_open_seat_starts_play(self, store: Any) -> None:
        meta = self.created(store, make_meta(seats=(SeatRecord("open"), SeatRecord("open"))))
        assert store.join(meta.id, 0, "a", "a" * 64).status == "waiting"
        assert store.join(meta.id, 1, "b", "b" * 64).status == "playing"
        assert [m.id for m in store.list_games(status="playing")] == [meta.id]
        assert store.list_games(status="waiting") == []

    def test_games_are_listed_newest_first_and_filtered(self, store: Any) -> None:
        a = self.created(store, make_meta(game="fake"))
        b = self.created(store, make_meta(game="other", status="playing"))
        c = self.created(store, make_meta(game="fake", status="playing"))
        assert [m.id for m in store.list_games()] == [c.id, b.id, a.id]
        assert [m.id for m in store.list_games(game="fake")] == [c.id, a.id]
        assert [m.id for m in store.list_games(status="playing")] == [c.id, b.id]
        assert [m.id for m in store.list_games(game="fake", status="waiting")] == [a.id]
        assert [m.id for m in store.list_games(limit=1, offset=1)] == [b.id]

    def test_the_listing_says_which_status_it_has_a_game_under(self, store: Any) -> None:
        meta = self.created(store, make_meta(status="waiting"))
        assert store.listed_status(meta.id) == "waiting"
        store.set_status(meta.id, "playing")
        assert store.listed_status(meta.id) == "playing"
        assert store.listed_status("no-such-game") is None

    def test_games_listed_or_moved_since_a_time_are_found_by_id(self, store: Any) -> None:
        before = time.time() - 0.001
        a = self.created(store, make_meta(status="waiting"))
        b = self.created(store, make_meta(status="waiting"))
        assert store.relisted_since(before) == [a.id, b.id]
        assert store.relisted_since(before, limit=1) == [a.id]
        time.sleep(0.002)
        moved = time.time()
        assert store.relisted_since(moved) == []
        store.set_status(a.id, "playing")  # a status change lists it again
        assert store.relisted_since(moved) == [a.id]

    def test_games_that_ended_are_found_once_their_time_has_passed(self, store: Any) -> None:
        over, live = self.created(store), self.created(store)
        before = time.time()
        store.set_status(over.id, "over")
        store.set_status(live.id, "playing")
        assert over.id not in store.ended_before(before - 1, limit=1000)
        assert over.id in store.ended_before(time.time() + 1, limit=1000)
        assert live.id not in store.ended_before(time.time() + 1, limit=1000)

    def test_a_purged_game_is_gone_from_every_read_and_index(self, store: Any) -> None:
        meta = self.created(store, make_meta(status="playing"))
        kept = self.created(store)
        store.append(meta.id, 2, events("GameEnded"), action(), prev_hash=self.head(store, meta.id),
                     idempotency=IdempotencyRecord("seat:0:bot:0:2", "f" * 64, 3), status="over")
        store.put_replay(meta.id, '{"format": "one"}')
        store.put_review(meta.id, 0, '{"seat": 0}')
        store.hint_clock(meta.id, 1)
        assert store.purge(meta.id) is True
        assert store.meta(meta.id) is None and store.version(meta.id) == 0
        assert store.read(meta.id) == [] and store.replay(meta.id) is None
        assert store.review(meta.id, 0) is None
        assert meta.id not in [m.id for m in store.list_games(limit=1000)]
        assert store.list_games(game="fake", status="over", limit=1000) == []
        assert meta.id not in store.ended_before(time.time() + 1, limit=1000)
        assert meta.id not in [g for g, _ in store.clocks_due(10**15, limit=1000)]
        assert store.fetch(meta.id, 0, "seat:0:bot:0:2").idempotency is None
        assert store.purge(meta.id) is False  # again: nothing left, nothing done
        assert store.meta(kept.id) == kept

    def test_games_are_counted_by_status(self, store: Any) -> None:
        before = {s: store.game_count(s) for s in ("waiting", "playing", "over")}
        self.created(store, make_meta(game="fake"))
        self.created(store, make_meta(game="other", status="playing"))
        over = self.created(store, make_meta(game="fake", status="playing"))
        store.set_status(over.id, "over")
        after = {s: store.game_count(s) - before[s] for s in before}
        assert after == {"waiting": 1, "playing": 1, "over": 1}

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

    def test_set_status_moves_the_game_in_the_index(self, store: Any) -> None:
        meta = self.created(store)
        store.set_status(meta.id, "over")
        assert store.meta(meta.id).status == "over"
        assert [m.id for m in store.list_games(game="fake", status="over")] == [meta.id]

    def test_wait_returns_when_a_newer_event_arrives(self, store: Any) -> None:
        meta = self.created(store)
        assert store.wait(meta.id, 1, 0.05) is True
        started = time.monotonic()
        assert store.wait(meta.id, 2, 0.1) is False
        assert time.monotonic() - started >= 0.09
        head = self.head(store, meta.id)
        timer = threading.Timer(
            0.05, lambda: store.append(meta.id, 2, events("A"), action(), prev_hash=head)
        )
        timer.start()
        assert store.wait(meta.id, 2, 2.0) is True
        timer.join()


    # who watches a game (docs/service.md, "Spectators"): open streams, each with an expiry
    def test_spectators_are_counted_per_game_once_each(self, store: Any) -> None:
        game, other = f"wa{next(_ids)}", f"wb{next(_ids)}"
        now = int(time.time() * 1000)
        assert store.watchers(game, now) == 0
        for watcher in ("s1", "s2", "s3"):
            store.watch(game, watcher, now, now + 30_000)
        store.watch(game, "s2", now + 1_000, now + 31_000)  # a heartbeat: the same watcher
        store.watch(other, "s1", now, now + 30_000)
        assert store.watchers(game, now + 1_000) == 3
        store.unwatch(game, "s2")
        store.unwatch(game, "never-watched")
        assert store.watchers(game, now + 1_000) == 2
        assert store.watchers(other, now + 1_000) == 1

    def test_a_spectator_without_heartbeats_stops_counting_at_its_expiry(
        self, store: Any
    ) -> None:
        game = f"wc{next(_ids)}"
        now = int(time.time() * 1000)
        store.watch(game, "dead-process", now, now + 2_000)  # never heard from again
        store.watch(game, "alive", now, now + 2_000)
        store.watch(game, "alive", now + 1_500, now + 5_000)
        assert store.watchers(game, now + 1_999) == 2
        assert store.watchers(game, now + 2_000) == 1
        assert store.watchers(game, now + 5_000) == 0
        store.watch(game, "late", now + 6_000, now + 9_000)  # expired ones do not come back
        assert store.watchers(game, now + 6_000) == 1

    def test_a_purged_game_has_no_spectators_left(self, store: Any) -> None:
        meta = self.created(store)
        now = int(time.time() * 1000)
        store.watch(meta.id, "s1", now, now + 30_000)
        store.purge(meta.id)
        assert store.watchers(meta.id, now) == 0

    # the clock index (docs/service.md, "Clocks")
    def test_the_clock_index_keeps_the_earliest_hint_and_lists_what_is_due(
        self, store: Any
    ) -> None:
        a, b = f"ca{next(_ids)}", f"cb{next(_ids)}"
        store.hint_clock(a, 5_000)
        store.hint_clock(a, 9_000)  # a later hint never hides an earlier one
        store.hint_clock(b, 7_000)
        due = [d for d in store.clocks_due(8_000) if d[0] in (a, b)]
        assert due == [(a, 5_000), (b, 7_000)]
        assert [d for d in store.clocks_due(4_999) if d[0] in (a, b)] == []

    def test_a_clock_entry_is_corrected_only_from_the_time_it_was_seen_at(
        self, store: Any
    ) -> None:
        game = f"cc{next(_ids)}"
        store.hint_clock(game, 5_000)
        assert store.reset_clock(game, 4_000, 9_000) is False  # someone else moved it
        assert store.reset_clock(game, 5_000, 9_000) is True
        assert [d for d in store.clocks_due(8_000) if d[0] == game] == []
        assert [d for d in store.clocks_due(9_000) if d[0] == game] == [(game, 9_000)]
        assert store.reset_clock(game, None, None) is True  # the game ended: dropped
        assert [d for d in store.clocks_due(10**13) if d[0] == game] == []
        assert store.reset_clock(game, None, None) is False

    # The public log of every game's commitment (service.store.commitment_log).
    def test_the_commitment_log_chains_one_entry_per_game(self, store: Any) -> None:
        first = store.log_commitment("log-a", "a" * 64)
        assert store.log_commitment("log-b", "b" * 64) == first + 1
        assert store.log_commitment("log-a", "f" * 64) == first  # once per game: kept as it was
        entries = store.commitment_log(first - 1, 10)
        assert [(e["index"], e["game"], e["commitment"]) for e in entries] == [
            (first, "log-a", "a" * 64), (first + 1, "log-b", "b" * 64)]
        assert entries[1]["prev"] == entries[0]["hash"]
        assert entries[1]["hash"] == commitment_link(entries[0]["hash"], "log-b", "b" * 64)
        assert store.commitment_log(first + 1, 10) == []
        assert store.logged("log-b") == entries[1] and store.logged("log-c") is None

    def test_a_game_with_a_secret_is_logged_when_it_is_created(self, store: Any) -> None:
        meta = replace(make_meta(), secret="5" * 64)
        store.create(meta, events("GameStarted"), START)
        logged = [e for e in store.commitment_log(0, 1000) if e["game"] == meta.id]
        assert [e["commitment"] for e in logged] == [meta.commitment]


def rewrite_redis_entry(store: Any, game_id: str, version: int, fields: dict[str, str]) -> None:
    """Edit one entry of a Redis stream the only way Redis allows: rewrite the stream."""
    key = store.key(game_id, "events")
    entries = store.client.xrange(key)
    store.client.delete(key)
    for entry_id, stored in entries:
        if int(entry_id.split("-")[0]) == version:
            stored = {**stored, **fields}
        store.client.xadd(key, stored, id=entry_id)

