"""Recording a game played in memory in the event store's entry format (golden files, tests).

``replay_from_playout`` records format 1 (a game's own start, unsalted chain);
``record_fair_game`` records format 2 (the lifecycle: commit-reveal dealing, salted chain).

The entries are exactly what the Redis store appends: per event ``event`` (canonical JSON),
``prev_hash`` and ``hash``; the first entry of each batch also ``command`` and ``batch``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from domain.chain import GENESIS, link_hash
from domain.events import Event, canonical_json
from domain.fairness import chain_salt
from domain.lifecycle import Keys, create_command, join_command, lifecycle
from domain.playout import Playout
from domain.protocol import Game, Setup, action_command, fold, start_command
from replays.format import Entry, Replay, build_replay

__all__ = ["action_command", "entries", "start_command"]


def entries(
    game: Game[Any],
    batches: Iterable[tuple[Mapping[str, Any], Sequence[Event]]],
    salt: str = "",
) -> list[Entry]:
    """Store entries for consecutive (command, events) batches, chained from GENESIS."""
    out: list[Entry] = []
    prev = GENESIS
    for command, events in batches:
        for index, event in enumerate(events):
            encoded = game.codec.encode(event)
            digest = link_hash(prev, encoded, salt)
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


Chooser = Callable[[Any, int, list[dict[str, Any]]], dict[str, Any]]


def record_fair_game(
    game: Game[Any],
    game_id: str,
    *,
    keys: Keys,
    entropy: Sequence[str],
    choose: Chooser,
    options: Mapping[str, Any] | None = None,
    bots: int = 1,
) -> tuple[Replay, list[tuple[int, str]]]:
    """A game created, filled and played in memory, and the receipts a seat would have kept.

    Seats ``0 .. bots-1`` are filled at creation, the others join in seat order with their
    entropy; ``choose(state, seat, legal)`` picks each action of the first seat awaited. The
    receipts are ``(version, head hash)`` after every batch.
    """
    rules = lifecycle(game)
    players = len(entropy)
    filled = [(seat, entropy[seat]) for seat in range(bots)]
    opts = dict(options or {})
    created = rules.create(players=players, options=opts, dealer=None, keys=keys, filled=filled)
    command = create_command(players=players, options=opts, dealer=None, filled=filled)
    batches: list[tuple[Mapping[str, Any], Sequence[Event]]] = [(command, created)]
    state = fold(rules, created)
    for seat in range(bots, players):
        events: Sequence[Event] = rules.join(state, seat, entropy[seat], keys)
        state = fold(rules, events, state)
        batches.append((join_command(seat, entropy[seat], "client"), events))
    while rules.outcome(state) is None:
        seat = rules.awaited_seats(state)[0]
        action = choose(state, seat, rules.legal_actions(state, seat))
        events = rules.act(state, seat, action, keys)
        state = fold(rules, events, state)
        batches.append((action_command(seat, action), events))
    stored = entries(rules, batches, chain_salt(keys.secret))
    receipts, count = [], 0
    for _, events in batches:
        count += len(events)
        receipts.append((count, stored[count - 1][1]["hash"]))
    replay = build_replay(game_id, stored, game=game.name, outcome=rules.outcome(state))
    return replay, receipts
