"""verify proves a replay is exactly what the rules produce, and names the first bad event."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from domain.chain import link_hash
from replays import Replay, ReplayFormatError, VerificationFailed, check, dumps, loads
from replays.format import Batch, RecordedEvent
from replays.verify import verify
from tests.support.fakegame import FAKE
from tests.unit.replays.conftest import events_of, fake_replay, rechained


def _data(replay: Replay) -> dict[str, Any]:
    return json.loads(dumps(replay))


def _bad(data: dict[str, Any]) -> tuple[int | None, str]:
    report = check(loads(json.dumps(data)), FAKE)
    assert not report.ok
    return report.bad_version, report.reason


def _flat(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for b in data["batches"] for e in b["events"]]


def test_an_untouched_replay_verifies(replay: Replay) -> None:
    report = verify(replay, FAKE)
    assert report.ok and report.events == len(replay.events)
    assert report.summary().startswith("OK fake game g-s1")


def test_a_replay_of_an_explicit_deal_verifies() -> None:
    deal = {"seats": [{"hand": ["AC", "AD"]}, {"hand": ["QC", "KD"]}]}
    replay = fake_replay("explicit", deal=deal)
    assert replay.header.explicit_deal
    outcome = verify(replay, FAKE).outcome
    assert outcome == {"reason": "finished", "winners": [0], "losers": [1], "totals": [10, 7]}


def test_editing_bytes_of_an_event_names_that_event(replay: Replay) -> None:
    text = dumps(replay)
    target = replay.events[3]
    line = json.dumps(target.event, separators=(", ", ": "))
    assert line in text
    card = target.event["card"]
    other = "QC" if card != "QC" else "QD"
    tampered = text.replace(line, line.replace(card, other))
    report = check(loads(tampered), FAKE)
    assert report.bad_version == 4
    assert "hash does not match" in report.reason


def test_editing_an_event_and_its_hash_breaks_the_next_link(replay: Replay) -> None:
    data = _data(replay)
    events = _flat(data)
    events[2]["event"]["seat"] = 1 - events[2]["event"]["seat"]
    events[2]["hash"] = link_hash(events[2]["prev_hash"], events[2]["event"])
    assert _bad(data) == (4, "prev_hash does not link to the previous event's hash")


def test_reordering_events_names_the_first_moved_one(replay: Replay) -> None:
    data = _data(replay)
    middle = data["batches"][3]["events"]
    data["batches"][3]["events"], data["batches"][4]["events"] = (
        data["batches"][4]["events"],
        middle,
    )
    version, reason = _bad(data)
    assert version == middle[0]["version"]
    assert "out of order" in reason


def test_dropping_an_event_names_the_missing_version(replay: Replay) -> None:
    data = _data(replay)
    dropped = data["batches"].pop(2)
    version, reason = _bad(data)
    assert version == dropped["events"][0]["version"]
    assert "missing" in reason


def test_dropping_the_last_event_is_caught_by_the_head(replay: Replay) -> None:
    data = _data(replay)
    data["batches"][-1]["events"].pop()
    version, reason = _bad(data)
    assert version == replay.header.head_version
    assert "head version" in reason


def test_changing_the_header_seed_names_event_one(replay: Replay) -> None:
    data = _data(replay)
    data["seed"] = "another seed"
    assert _bad(data) == (1, "the header's seed differs from the one recorded in event 1")


def test_changing_the_commitment_names_event_one(replay: Replay) -> None:
    data = _data(replay)
    data["commitment"] = "0" * 64
    version, reason = _bad(data)
    assert version == 1 and "commitment" in reason


def test_a_rechained_forgery_of_the_seed_fails_the_commitment() -> None:
    forged = _rechain(fake_replay(), lambda v, e: {**e, "seed": "x"} if v == 1 else e)
    start = forged.batches[0]
    command = {"kind": "start", "setup": {**start.command["setup"], "seed": "x"}}
    batches = (replace(start, command=command), *forged.batches[1:])
    forged = replace(forged, header=replace(forged.header, seed="x"), batches=batches)
    report = check(forged, FAKE)
    assert report.bad_version == 1
    assert "not the one re-derived from the seed" in report.reason


def test_a_rechained_forgery_of_a_play_is_refused_by_the_rules(replay: Replay) -> None:
    target = replay.batches[2].events[0]
    hand_of_other = _other_card(replay, target.event)
    forged = _rechain(
        replay, lambda v, e: {**e, "card": hand_of_other} if v == target.version else e
    )
    report = check(forged, FAKE)
    assert report.bad_version == target.version
    assert report.reason.startswith("the rules produce a different fake.CardPlayed here")
    assert f'card: rules "{target.event["card"]}"' in report.reason


def test_a_rechained_forgery_of_the_command_is_caught(replay: Replay) -> None:
    batch = replay.batches[1]
    legal_other = _other_card(replay, batch.events[0].event)
    command = {**batch.command, "action": {"type": "play", "card": legal_other}}
    batches = list(replay.batches)
    batches[1] = replace(batch, command=command)
    report = check(replace(replay, batches=tuple(batches)), FAKE)
    assert report.bad_version == batch.events[0].version


def test_a_false_outcome_names_the_head(replay: Replay) -> None:
    true = replay.outcome
    assert true is not None and true["winners"] != true["losers"]
    forged = {**true, "winners": true["losers"], "losers": true["winners"]}
    report = check(replace(replay, outcome=forged), FAKE)
    assert not report.ok
    assert report.bad_version == replay.header.head_version
    assert "outcome" in report.reason


def test_verify_raises_with_the_report(replay: Replay) -> None:
    data = _data(replay)
    data["batches"].pop(1)
    with pytest.raises(VerificationFailed, match="FAILED fake game g-s1: event 3"):
        verify(loads(json.dumps(data)), FAKE)


def test_truncated_bytes_are_not_a_replay(replay: Replay) -> None:
    with pytest.raises(ReplayFormatError):
        loads(dumps(replay)[:-40])


def _other_card(replay: Replay, played: dict[str, Any]) -> str:
    dealt = replay.batches[0].events[1].event["hands"][played["seat"]]
    return next(c for c in ["AC", "AD", "KC", "KD", "QC", "QD"] if c not in dealt)


def test_a_rechained_forgery_adding_an_event_inside_a_batch_is_caught(replay: Replay) -> None:
    batches = events_of(replay)
    index = next(i for i, b in enumerate(batches) if i > 0 and len(b) < 9)
    first = replay.batches[index].events[0].version
    batches[index].append(dict(batches[index][-1]))  # the rules never produce this extra fact
    report = check(rechained(replay, batches), FAKE)
    assert not report.ok
    assert report.bad_version == first + len(batches[index]) - 1
    assert "the batch holds" in report.reason


def test_a_rechained_forgery_dropping_an_event_inside_a_batch_is_caught(replay: Replay) -> None:
    batches = events_of(replay)
    index = next(i for i, b in enumerate(batches) if len(b) >= 2)
    first = replay.batches[index].events[0].version
    dropped = batches[index].pop()
    assert batches[index], "the batch keeps at least one event"
    report = check(rechained(replay, batches), FAKE)
    assert not report.ok, f"dropping {dropped['type']} went unnoticed"
    assert report.bad_version == first + len(batches[index])
    assert "the batch holds" in report.reason


def _rechain(replay: Replay, edit: Any) -> Replay:
    """A forgery with a consistent hash chain: the edit is invisible to the chain alone."""
    prev = replay.events[0].prev_hash
    batches = []
    for batch in replay.batches:
        events = []
        for recorded in batch.events:
            event = edit(recorded.version, recorded.event)
            digest = link_hash(prev, event)
            events.append(
                RecordedEvent(version=recorded.version, event=event, prev_hash=prev, hash=digest)
            )
            prev = digest
        batches.append(Batch(command=batch.command, events=tuple(events)))
    header = replace(replay.header, head_hash=prev)
    return replace(replay, header=header, batches=tuple(batches))
