"""The audit of a fork against its source's replay: the origin it records is that game's.

A fork's own replay verifies alone (``replays.fair``: its position is re-derived from its
origin and its seed). Given the source's replay too (which ``replays.verify`` verifies first),
this checks that the origin agrees with it: the source is the game named, and at the version
named the open position is the source's exact state, or the seat's basis is exactly that
seat's view and redacted history then (the cards it fixes) and the public facts carried are the
source's.
"""

from __future__ import annotations

from typing import Any

from domain.events import canonical_json
from domain.forks import GameForked, basis_at, carried, position, thawed
from domain.lifecycle import Lifecycle
from replays.checks import Discrepancy
from replays.format import Replay


def check_source(rules: Lifecycle[Any], fork: Replay, source: Replay) -> None:
    """Raise Discrepancy unless the fork's origin is what the source replay holds."""
    origin = _origin(rules, fork)
    if source.header.game_id != origin.source or source.header.game != fork.header.game:
        raise Discrepancy(1, f"the fork's source is {fork.header.game} game {origin.source}, "
                          f"not the given {source.header.game} game "
                          f"{source.header.game_id}")  # fmt: skip
    if not 1 <= origin.version <= len(source.events):
        raise Discrepancy(1, f"the source has no version {origin.version}")
    events = [rules.codec.decode(e.event) for e in source.events[: origin.version]]
    state = rules.initial_state()
    for event in events:
        state = rules.evolve(state, event)
    if origin.seat is None:
        _same(origin.position, position(state.inner), "open position", "exact state")
        return
    _same(origin.basis, basis_at(rules, state, events, origin.seat), f"seat {origin.seat}'s basis",
          "view and history")  # fmt: skip
    _same(origin.public, carried(state.inner), "public facts", "facts")


def _origin(rules: Lifecycle[Any], fork: Replay) -> GameForked:
    for event in fork.batches[0].events:
        if event.event.get("type") == GameForked.TYPE:
            decoded = rules.codec.decode(event.event)
            assert isinstance(decoded, GameForked)
            return decoded
    raise Discrepancy(None, "this replay is not a fork's (no lifecycle.GameForked)")


def _same(recorded: Any, derived: Any, what: str, theirs: str) -> None:
    if canonical_json(thawed(recorded)) != canonical_json(thawed(derived)):
        raise Discrepancy(1, f"the fork's {what} is not the source's {theirs} at that version")
