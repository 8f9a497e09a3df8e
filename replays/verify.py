"""The audit: prove a replay is exactly what the rules produce from its seed and commands.

In order: the hash chain (versions 1, 2, ... with each prev_hash the previous hash and each hash
``link_hash(prev_hash, event)``), the header's head version and hash, the start command re-run
through ``game.start`` (which re-derives the deck or explicit deal from the seed and so the deck
commitment), every later command re-run through ``decide`` on the folded state, and the outcome.
The first discrepancy is reported with the version of the first bad event and why.

Format 2 (a stream with a lifecycle, ``replays.fair``) first checks the revealed secret against
the commitment of event 1, walks the chain salted with the salt derived from that secret, and
re-runs the create, join and action commands through ``domain.lifecycle`` (which re-derives the
seed from the secret and every seat's entropy). ``receipts`` (version, head hash) pairs a seat
kept during play, and ``expect_head``, must all be hashes of this history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.errors import DomainError
from domain.events import Event, canonical_json
from domain.lifecycle import Lifecycle, lifecycle
from domain.protocol import Game, Setup, fold
from domain.registry import get_game
from replays import fair, forks
from replays.checks import (
    Discrepancy,
    check_chain,
    check_head,
    check_header,
    check_outcome,
    compare,
)
from replays.format import Batch, Replay

_HEADER_FIELDS = ("seed", "commitment", "players", "options", "dealer", "explicit_deal")


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """The result of an audit; ``bad_version`` is the first event found wrong (None if ok)."""

    ok: bool
    game: str
    game_id: str
    events: int
    batches: int
    head_hash: str
    outcome: dict[str, Any] | None
    bad_version: int | None = None
    reason: str = ""
    dealing: str = "deal and deck commitment re-derived from the seed"
    legacy_timeouts: int = 0  # timeout moves from before the default-move rule: legal, not derived

    def summary(self) -> str:
        """One readable line: OK with what was proven, or the first bad event and why."""
        name = f"{self.game} game {self.game_id}"
        if not self.ok:
            where = f"event {self.bad_version}" if self.bad_version is not None else "the file"
            return f"FAILED {name}: {where}: {self.reason}"
        return (
            f"OK {name}: {self.events} events in {self.batches} batches; hash chain intact "
            f"(head {self.head_hash[:16]}); {self.dealing}; "
            f"every batch is what the rules produce{self._legacy()}; "
            f"outcome {canonical_json(self.outcome)}"
        )

    def _legacy(self) -> str:
        if not self.legacy_timeouts:
            return ""
        return (f" ({self.legacy_timeouts} timeout move(s) recorded before the default-move "
                "rule: checked to be legal, not re-derived)")  # fmt: skip


class VerificationFailed(Exception):
    """A replay that does not verify; ``report`` names the first bad event."""

    def __init__(self, report: Report) -> None:
        super().__init__(report.summary())
        self.report = report


Receipt = tuple[int, str]


def verify(
    replay: Replay,
    game: Game[Any] | None = None,
    *,
    receipts: Sequence[Receipt] = (),
    expect_head: str | None = None,
    source: Replay | None = None,
) -> Report:
    """The report of a replay that verifies, or VerificationFailed naming the first bad event
    (``source``: a fork's source replay, which its origin must agree with)."""
    report = check(replay, game, receipts=receipts, expect_head=expect_head, source=source)
    if not report.ok:
        raise VerificationFailed(report)
    return report


def check(
    replay: Replay,
    game: Game[Any] | None = None,
    *,
    receipts: Sequence[Receipt] = (),
    expect_head: str | None = None,
    source: Replay | None = None,
) -> Report:
    """Audit a replay and return the report (``ok`` False names the first bad event)."""
    header = replay.header
    base: dict[str, Any] = {
        "game": header.game,
        "game_id": header.game_id,
        "events": len(replay.events),
        "batches": len(replay.batches),
        "head_hash": header.head_hash,
        "outcome": replay.outcome,
    }
    try:
        rules = game if game is not None else _game(header.game)
        if header.version >= 2:
            fair.check_lifecycle(rules, replay)
        else:
            rules = rules.game if isinstance(rules, Lifecycle) else rules  # a format 1 stream
            check_chain(replay.events)
            check_head(replay)
            _check_rules(rules, replay)
        check_receipts(replay, receipts, expect_head)
        if source is not None:
            _check_source(lifecycle(rules), replay, source)
    except Discrepancy as bad:
        return Report(ok=False, bad_version=bad.version, reason=bad.reason, **base)
    if header.version >= 2:
        legacy = fair.timeouts_before_the_rule(replay)
        return Report(ok=True, dealing=fair.dealing(replay), legacy_timeouts=legacy, **base)
    return Report(ok=True, **base)


def _check_source(rules: Lifecycle[Any], fork: Replay, source: Replay) -> None:
    """A fork's origin against its source's replay, which must verify first."""
    report = check(source)
    if not report.ok:
        raise Discrepancy(None, f"the source replay does not verify: {report.summary()}")
    forks.check_source(rules, fork, source)


def _game(name: str) -> Game[Any]:
    try:
        return get_game(name)
    except DomainError as err:
        raise Discrepancy(None, err.message) from None


def check_receipts(replay: Replay, receipts: Sequence[Receipt], expect_head: str | None) -> None:
    """Every receipt (version, head hash) is a hash of this history; the head is the expected."""
    events = replay.events
    for version, head in receipts:
        if not 1 <= version <= len(events):
            raise Discrepancy(
                version, f"a receipt names version {version}, the history has {len(events)}"
            )
        if events[version - 1].hash != head:
            raise Discrepancy(
                version,
                f"the history differs from a receipt: at version {version} the receipt holds "
                f"{head[:16]}..., the replay {events[version - 1].hash[:16]}...",
            )
    if expect_head is not None and replay.header.head_hash != expect_head:
        raise Discrepancy(
            replay.header.head_version,
            f"the head hash {replay.header.head_hash[:16]}... is not the expected "
            f"{expect_head[:16]}...",
        )


def _check_rules(game: Game[Any], replay: Replay) -> None:
    batches = replay.batches
    state = _check_start(game, replay)
    for batch in batches[1:]:
        state = _check_action(game, state, batch)
    check_outcome(replay, game.outcome(state))


def _check_start(game: Game[Any], replay: Replay) -> Any:
    batch = replay.batches[0]
    command = batch.command
    if command.get("kind") != "start" or not isinstance(command.get("setup"), Mapping):
        raise Discrepancy(1, "the first batch is not a start command with a setup")
    raw = command["setup"]
    try:
        setup = Setup(
            players=raw["players"],
            seed=raw["seed"],
            options=raw.get("options") or {},
            dealer=raw.get("dealer"),
            deal=raw.get("deal"),
        )
        events = game.start(setup)
    except (DomainError, KeyError, TypeError) as err:
        raise Discrepancy(1, f"the rules refuse the start command: {err}") from None
    _check_commitment(game, events, batch)
    compare(game, batch, events)
    started = replay.batches[0].events[0].event
    check_header(replay, game.name, {n: started.get(n) for n in _HEADER_FIELDS})
    return fold(game, events)


def _check_commitment(game: Game[Any], events: list[Event], batch: Batch) -> None:
    derived = game.codec.encode(events[0]).get("commitment")
    recorded = batch.events[0].event.get("commitment")
    if derived != recorded:
        raise Discrepancy(
            batch.events[0].version,
            f"deck commitment {recorded} is not the one re-derived from the seed ({derived})",
        )


def _check_action(game: Game[Any], state: Any, batch: Batch) -> Any:
    command = batch.command
    first = batch.events[0].version
    if command.get("kind") != "action" or not isinstance(command.get("action"), Mapping):
        raise Discrepancy(first, "the batch's command is not an action")
    seat = command.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise Discrepancy(first, f"the command's seat {seat!r} is not a seat number")
    # a game that changed an action's shape reads the old one through ``upcast_action``
    action = getattr(game, "upcast_action", lambda a: a)(command["action"])
    try:
        events = game.decide(state, seat, action)
    except DomainError as err:
        raise Discrepancy(
            first, f"the rules refuse seat {seat}'s command here: {err.message}"
        ) from None
    compare(game, batch, events)
    return fold(game, events, state)
