"""The reveal a format 2 replay ends with: a replay whose chain and head are whole but which
holds no reveal, or whose reveal names another secret than its header, is named at the event
where it goes wrong; so is a header whose ``forked`` is not the creation batch's origin."""

from __future__ import annotations

from dataclasses import replace

from domain.fairness import chain_salt
from replays import check
from tests.unit.lifecycle.test_receipts import SECRET, rechain, sixty_six


def test_a_replay_without_its_reveal_is_named_at_its_head() -> None:
    replay, _ = sixty_six()
    kept = replay.batches[:-1]
    last = kept[-1].events[-1]
    header = replace(replay.header, head_version=last.version, head_hash=last.hash)
    report = check(replace(replay, header=header, batches=kept))
    assert (report.ok, report.bad_version, report.reason) == (
        False, last.version, "no lifecycle.SecretRevealed event"
    )


def test_a_reveal_of_another_secret_than_the_headers_is_named_at_the_reveal() -> None:
    replay, _ = sixty_six()
    revealed = replay.events[-1]
    assert revealed.event["type"] == "lifecycle.SecretRevealed"
    other = {**revealed.event, "secret": "99" * 32}
    batches = [replace(b, events=tuple(replace(e, event=other) if e is revealed else e
                                       for e in b.events)) for b in replay.batches]  # fmt: skip
    report = check(rechain(replace(replay, batches=tuple(batches)), chain_salt(SECRET)))
    assert (report.ok, report.bad_version, report.reason) == (
        False, revealed.version, "the header's secret is not the revealed one"
    )


def test_a_header_forked_other_than_the_creation_batch_is_named_at_event_one() -> None:
    replay, _ = sixty_six()
    forged = replace(replay, header=replace(replay.header, forked={"source": "g-other"}))
    report = check(forged)
    assert (report.ok, report.bad_version, report.reason) == (
        False, 1, "the header's forked differs from the origin in the creation batch"
    )


def test_a_format_2_replay_not_started_by_its_creation_is_named_at_event_one() -> None:
    replay, _ = sixty_six()
    assert check(replace(replay, batches=())).reason == (
        "a format 2 replay starts with lifecycle.GameCreated"
    )
    first = replay.batches[0]
    created = first.events[0]
    moved = replace(created, event={**created.event, "type": "lifecycle.GameForked"})
    forged = replace(first, events=(moved, *first.events[1:]))
    report = check(replace(replay, batches=(forged, *replay.batches[1:])))
    assert (report.ok, report.bad_version, report.reason) == (
        False, 1, "a format 2 replay starts with lifecycle.GameCreated"
    )


def test_a_secret_never_revealed_or_not_the_committed_one_is_said_so() -> None:
    replay, _ = sixty_six()
    said = {}
    for secret in (None, "zz", "99" * 32):
        report = check(replace(replay, header=replace(replay.header, secret=secret)))
        said[secret] = (report.ok, report.bad_version, report.reason)
    never = (False, None, "the server's secret was never revealed (the game is not over)")
    assert said == {
        None: never, "zz": never, "99" * 32: (False, 1, "the revealed secret does not match "
                                              "the commitment published at creation (event 1)"),
    }  # fmt: skip


def test_a_reveal_whose_deal_is_no_mapping_is_named_at_the_reveal_not_dealt_from() -> None:
    replay, _ = sixty_six()
    revealed = replay.events[-1]
    other = {**revealed.event, "deal": ["AS"]}
    batches = [replace(b, events=tuple(replace(e, event=other) if e is revealed else e
                                       for e in b.events)) for b in replay.batches]  # fmt: skip
    forged = rechain(replace(replay, batches=tuple(batches)), chain_salt(SECRET))
    report = check(replace(forged, header=replace(forged.header, explicit_deal=True)))
    assert (report.ok, report.bad_version, report.reason) == (
        False, revealed.version,
        'the rules produce a different lifecycle.SecretRevealed here (deal: rules null, '
        'replay ["AS"])',
    )  # fmt: skip
