"""Recording a game played in memory in the event store's entry format (golden files, tests).

The entries are exactly what the Redis store appends: per event ``event`` (canonical JSON),
``prev_hash`` and ``hash``; the first entry of each batch also ``command`` and ``batch``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.chain import GENESIS, link_hash
from domain.events import Event, canonical_json
from domain.playout import Playout
from domain.protocol import Game, Setup, action_command, start_command
from replays.format import Entry, Replay, build_replay

__all__ = ["action_command", "entries", "start_command"]


def entries(
    game: Game[Any], batches: Iterable[tuple[Mapping[str, Any], Sequence[Event]]]
) -> list[Entry]:
    """Store entries for consecutive (command, events) batches, chained from GENESIS."""
    out: list[Entry] = []
    prev = GENESIS
    for command, events in batches:
        for index, event in enumerate(events):
            encoded = game.codec.encode(event)
            digest = link_hash(prev, encoded)
            fields = {"event": canonical_json(encoded), "prev_hash": prev, "hash": digest}
            if index == 0:
                fields["command"] = canonical_json(command)
                fields["batch"] = str(len(events))
            out.append((len(out) + 1, fields))
            prev = digest
    return out


def replay_from_playout(
    game: Game[Any],
    game_id: str,
    setup: Setup,
    playout: Playout[Any],
    seats: Sequence[Mapping[str, Any]] = (),
) -> Replay:
    """The replay of a game played in memory with ``domain.playout.play_out``."""
    batches: list[tuple[Mapping[str, Any], Sequence[Event]]] = [
        (start_command(setup), playout.creation)
    ]
    batches += [(action_command(seat, action), events) for seat, action, events in playout.batches]
    return build_replay(
        game_id,
        entries(game, batches),
        game=game.name,
        seats=seats,
        outcome=game.outcome(playout.state),
    )
