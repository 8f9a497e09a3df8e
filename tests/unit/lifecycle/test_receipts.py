"""Receipts: a salted chain is safe to publish at every version, and a seat that kept the head
hashes it was sent can prove after the game that the published history is the one it played."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domain.chain import link_hash
from domain.fairness import chain_salt, commitment
from domain.lifecycle import Keys
from domain.registry import get_game
from replays.fair import parse_receipts
from replays.format import Header, RecordedEvent, Replay, ReplayFormatError
from replays.record import record_fair_game
from replays.verify import VerificationFailed, check, verify

SECRET = "11" * 32
ENTROPY = ["22" * 32, "33" * 32]
DECK = [r + s for r in "9TJQKA" for s in "CDHS"]


def first_legal(state: Any, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Declare out at 66, else draw or play the first card (never close), else the first."""
    if state.inner.deal.points(seat) >= 66:
        return {"type": "declare_out"}
    return next((a for a in legal if a["type"] in ("draw", "play")), legal[0])


def sixty_six(choose: Any = first_legal, secret: str = SECRET) -> tuple[Replay, list[Any]]:
    return record_fair_game(get_game("sixty_six"), "g-receipts", keys=Keys(secret=secret),
                            entropy=ENTROPY, choose=choose)  # fmt: skip


def rechain(replay: Replay, salt: str, secret: str | None = None) -> Replay:
    """The replay with every hash recomputed (what a server rewriting history would publish)."""
    prev, batches = "0" * 64, []
    for batch in replay.batches:
        events = []
        for e in batch.events:
            digest = link_hash(prev, e.event, salt)
            events.append(RecordedEvent(version=e.version, event=e.event, prev_hash=prev,
                                        hash=digest))  # fmt: skip
            prev = digest
        batches.append(dataclasses.replace(batch, events=tuple(events)))
    header: Header = dataclasses.replace(replay.header, head_hash=prev)
    if secret is not None:
        header = dataclasses.replace(header, secret=secret)
    return dataclasses.replace(replay, header=header, batches=tuple(batches))


def hidden_draw(replay: Replay) -> tuple[int, dict[str, Any]]:
    """A card drawn face down by seat 1 (hidden from seat 0 during play)."""
    for e in replay.events:
        drawn = e.event["type"] == "sixty_six.CardDrawn"
        if drawn and e.event["seat"] == 1 and not e.event["face_up"]:
            return e.version, e.event
    raise AssertionError("no hidden draw")


def brute_force(replay: Replay, version: int, salt: str) -> list[str]:
    """Seat 0's attack: try every card against two consecutive published head hashes."""
    before, after = replay.events[version - 2].hash, replay.events[version - 1].hash
    redacted = {**replay.events[version - 1].event, "card": None}
    return [card for card in DECK if link_hash(before, {**redacted, "card": card}, salt) == after]


def test_published_head_hashes_no_longer_reveal_a_hidden_card() -> None:
    replay, _ = sixty_six()
    version, event = hidden_draw(replay)
    unsalted = rechain(replay, "")
    assert brute_force(unsalted, version, "") == [event["card"]]  # the old chain leaked it
    guessed_salt = chain_salt("00" * 32)  # the seat does not know the salt during play
    assert brute_force(replay, version, "") == []
    assert brute_force(replay, version, guessed_salt) == []
    assert brute_force(replay, version, chain_salt(SECRET)) == [event["card"]]  # after reveal


def test_a_replay_verifies_against_the_receipts_its_seat_kept() -> None:
    replay, receipts = sixty_six()
    report = check(replay, receipts=receipts, expect_head=receipts[-1][1])
    assert report.ok, report.summary()


def test_a_rewritten_history_fails_against_a_seats_receipts() -> None:
    _, receipts = sixty_six()
    turn = {"n": 0}

    def second_choice_once(_state: Any, _seat: int, legal: list[dict[str, Any]]) -> Any:
        turn["n"] += 1
        return legal[-1] if turn["n"] == 5 else first_legal(_state, _seat, legal)

    rewritten, _ = sixty_six(second_choice_once)
    assert check(rewritten).ok  # a consistent rewrite verifies on its own ...
    report = check(rewritten, receipts=receipts)
    assert not report.ok  # ... but not against the receipts of the game that was played
    assert "differs from a receipt" in report.reason
    diverged = next(v for v, h in receipts if rewritten.events[v - 1].hash != h)
    assert report.bad_version == diverged


def test_the_expected_head_must_be_the_replays_head() -> None:
    replay, receipts = sixty_six()
    report = check(replay, expect_head=receipts[-2][1])
    assert not report.ok and "not the expected" in report.reason


def test_a_server_that_changes_its_secret_after_the_commitment_fails_verification() -> None:
    replay, _ = sixty_six()
    other = "55" * 32
    assert commitment(other) != replay.events[0].event["commitment"]
    last = replay.batches[-1]
    reveal = last.events[-1]
    assert reveal.event["type"] == "lifecycle.SecretRevealed"
    forged_reveal = dataclasses.replace(reveal, event={**reveal.event, "secret": other})
    forged_last = dataclasses.replace(last, events=(*last.events[:-1], forged_reveal))
    forged = dataclasses.replace(replay, batches=(*replay.batches[:-1], forged_last))
    report = check(rechain(forged, chain_salt(other), other))
    assert not report.ok and report.bad_version == 1
    assert "does not match the commitment" in report.reason


def test_a_game_played_with_another_secret_under_the_old_commitment_fails() -> None:
    played, _ = sixty_six(secret="55" * 32)
    honest, _ = sixty_six()
    first = dataclasses.replace(played.events[0], event=honest.events[0].event)
    batch = dataclasses.replace(played.batches[0], events=(first, *played.batches[0].events[1:]))
    forged = dataclasses.replace(played, batches=(batch, *played.batches[1:]))
    report = check(rechain(forged, chain_salt("55" * 32)))
    assert not report.ok and "does not match the commitment" in report.reason


def test_an_edited_event_breaks_the_salted_chain() -> None:
    replay, _ = sixty_six()
    version, event = hidden_draw(replay)
    edited = dataclasses.replace(replay.events[version - 1], event={**event, "card": "AS"})
    batches = tuple(
        dataclasses.replace(
            b, events=tuple(edited if e.version == version else e for e in b.events)
        )
        for b in replay.batches
    )
    report = check(dataclasses.replace(replay, batches=batches))
    assert not report.ok and report.bad_version == version


def test_a_format_2_replay_round_trips_and_names_its_revealed_secret() -> None:
    from replays.format import dumps, loads

    replay, _ = sixty_six()
    data = replay.to_dict()
    assert (data["version"], data["secret"], data["prearranged"]) == (2, SECRET, False)
    assert loads(dumps(replay)) == replay


def test_a_receipt_naming_version_zero_is_not_a_receipt_of_this_history() -> None:
    replay, _ = sixty_six()
    # version 0 has no hash: read as an index, it would name the head and pass as a receipt
    report = check(replay, receipts=[(0, replay.events[-1].hash)])
    assert not report.ok and report.bad_version == 0
    assert "a receipt names version 0" in report.reason


def test_a_batch_holding_no_events_is_reported_not_raised() -> None:
    replay, _ = sixty_six()
    batches = list(replay.batches)
    batches.insert(3, dataclasses.replace(batches[3], events=()))
    report = check(dataclasses.replace(replay, batches=tuple(batches)))
    assert not report.ok and report.reason == "a batch holds no events"


def test_the_header_must_say_prearranged_as_event_one_does() -> None:
    replay, _ = sixty_six()
    assert replay.header.prearranged is False
    forged = dataclasses.replace(replay.header, prearranged=True)
    report = check(dataclasses.replace(replay, header=forged))
    assert not report.ok and report.bad_version == 1
    assert "the header's prearranged differs" in report.reason


def test_a_format_2_replay_with_winners_and_losers_swapped_names_the_head() -> None:
    replay, _ = sixty_six()
    true = replay.outcome
    assert true is not None and true["winners"] != true["losers"]
    forged = {**true, "winners": true["losers"], "losers": true["winners"]}
    report = check(dataclasses.replace(replay, outcome=forged))
    assert not report.ok and report.bad_version == replay.header.head_version
    assert "is not the outcome of the events" in report.reason


def test_verify_raises_for_a_receipt_or_head_that_check_refuses() -> None:
    replay, receipts = sixty_six()
    assert verify(replay, receipts=receipts, expect_head=receipts[-1][1]).ok
    forged = [(receipts[0][0], "0" * 64)]
    with pytest.raises(VerificationFailed, match="differs from a receipt"):
        verify(replay, receipts=forged)
    with pytest.raises(VerificationFailed, match="is not the expected"):
        verify(replay, expect_head=receipts[-2][1])


def test_receipts_that_are_no_json_list_say_so() -> None:
    with pytest.raises(ReplayFormatError, match=r"^receipts are not valid JSON: "):
        parse_receipts("[1,")
    with pytest.raises(ReplayFormatError,
                       match=r"^receipts are a JSON list of \[version, head_hash\] pairs$"):
        parse_receipts('{"version": 1}')


def test_a_receipt_for_version_one_is_checked_like_any_other() -> None:
    replay, _ = sixty_six()
    first = replay.events[0].hash
    assert check(replay, receipts=[(1, first)]).ok
    report = check(replay, receipts=[(1, "0" * 64)])
    assert (report.ok, report.bad_version) == (False, 1)
    assert report.reason == (f"the history differs from a receipt: at version 1 the receipt "
                             f"holds {'0' * 16}..., the replay {first[:16]}...")  # fmt: skip
