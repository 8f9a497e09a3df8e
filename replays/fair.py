"""The audit of a format 2 replay: commit-reveal dealing, the salted chain, the lifecycle.

In order: event 1 is ``lifecycle.GameCreated`` and the revealed secret matches its commitment
(a server that changed its secret after the commitment fails here); the hash chain walks with
``chain_salt(secret)``; the head; the header's facts are event 1's and the reveal's; every batch
is re-run through ``domain.lifecycle`` (create, join, action), which re-derives the seed from the
secret and every seat's entropy and appends the reveal to the batch that ends the game; the
outcome.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from domain.default_move import RULE
from domain.errors import DomainError
from domain.events import Event, canonical_json
from domain.fairness import chain_salt, commitment, deal_seed, is_hex32
from domain.forks import GameForked
from domain.lifecycle import GameCreated, Keys, Lifecycle, SecretRevealed, lifecycle
from domain.protocol import Game, fold
from replays.checks import (
    Discrepancy,
    check_chain,
    check_head,
    check_header,
    check_outcome,
    compare,
    normal,
)
from replays.format import Batch, Replay, ReplayFormatError, origin_of


def check_lifecycle(game: Game[Any], replay: Replay) -> None:
    """Raise Discrepancy at the first thing in a format 2 replay that is not what it should be."""
    rules = lifecycle(game)
    secret = _secret(replay)
    check_chain(replay.events, chain_salt(secret))
    check_head(replay)
    keys = _keys(replay, secret)
    _check_header(rules, replay)
    state = rules.initial_state()
    for batch in replay.batches:
        state = _rerun(rules, state, batch, keys)
    check_outcome(replay, rules.outcome(state))


def dealing(replay: Replay) -> str:
    """What the audit proved about the deal, for the OK line."""
    seats = replay.header.players
    if replay.header.prearranged:
        return "PREARRANGED (chosen seed or explicit deal); secret matches its commitment"
    own = _sources(replay).get("client", [])
    sent = f" ({_seats(own)} sent their own)" if own else " (the server drew all of it)"
    return (f"secret matches its commitment; seed derived from the secret and {seats} seats' "
            f"entropy{sent}")  # fmt: skip


def _sources(replay: Replay) -> dict[str, list[int]]:
    """The seats by who drew their entropy (``SeatFilled.source``), the latest fill of each."""
    by_seat = {e.event.get("seat"): str(e.event.get("source")) for e in replay.events
               if e.event.get("type") == "lifecycle.SeatFilled"}  # fmt: skip
    out: dict[str, list[int]] = {}
    for seat in sorted(s for s in by_seat if isinstance(s, int)):
        out.setdefault(by_seat[seat], []).append(seat)
    return out


def _seats(seats: list[int]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def timeouts_before_the_rule(replay: Replay) -> int:
    """How many timeouts name no default-move rule (recorded before there was one)."""
    return sum(b.command.get("kind") == "timeout" and "rule" not in b.command
               for b in replay.batches)  # fmt: skip


def _secret(replay: Replay) -> str:
    events = replay.events
    first = events[0].event if events else {}
    if first.get("type") != GameCreated.TYPE:
        raise Discrepancy(1, "a format 2 replay starts with lifecycle.GameCreated")
    secret = replay.header.secret
    if secret is None or not is_hex32(secret):
        raise Discrepancy(None, "the server's secret was never revealed (the game is not over)")
    if commitment(secret) != first.get("commitment"):
        raise Discrepancy(
            1, "the revealed secret does not match the commitment published at creation (event 1)"
        )
    return secret


def _keys(replay: Replay, secret: str) -> Keys:
    """The server's keys as revealed: a chosen seed is one that is not the derived seed."""
    revealed = [e for e in replay.events if e.event.get("type") == SecretRevealed.TYPE]
    if not revealed:
        raise Discrepancy(replay.header.head_version, "no lifecycle.SecretRevealed event")
    event = revealed[-1].event
    if event.get("secret") != secret:
        raise Discrepancy(revealed[-1].version, "the header's secret is not the revealed one")
    entropy = _entropy(replay)
    derived = deal_seed(secret, entropy) if len(entropy) == replay.header.players else None
    seed = event.get("seed")
    chosen = seed if isinstance(seed, str) and seed and seed != derived else None
    if chosen is not None and derived is not None and replay.events[0].event.get(
            "prearranged") is False:  # fmt: skip
        own = _sources(replay).get("client")
        said = f", the entropy {_seats(own)} sent included" if own else ""
        raise Discrepancy(revealed[-1].version, "the revealed seed is not the one derived from "
                                                f"the secret and every seat's entropy{said}")
    deal = event.get("deal")
    return Keys(secret=secret, seed=chosen, deal=deal if isinstance(deal, Mapping) else None)


def _entropy(replay: Replay) -> list[str]:
    by_seat = {
        e.event.get("seat"): str(e.event.get("entropy"))
        for e in replay.events
        if e.event.get("type") == "lifecycle.SeatFilled"
    }
    return [by_seat[s] for s in sorted(k for k in by_seat if isinstance(k, int))]


def _check_header(rules: Lifecycle[Any], replay: Replay) -> None:
    """Event 1's facts, then what the reveal says: the header's ``seed`` is the revealed seed
    and ``explicit_deal`` whether the reveal holds a deal."""
    created = replay.events[0].event
    facts = ("players", "options", "dealer", "commitment", "prearranged")
    check_header(replay, rules.name, {name: created.get(name) for name in facts})
    revealed = [e for e in replay.events if e.event.get("type") == SecretRevealed.TYPE][-1]
    header = replay.header
    if header.seed != revealed.event.get("seed"):
        raise Discrepancy(revealed.version, "the header's seed is not the revealed seed")
    if header.explicit_deal != (revealed.event.get("deal") is not None):
        said = "holds" if header.explicit_deal else "holds no"
        raise Discrepancy(revealed.version, f"the header's explicit_deal says the reveal {said} "
                                            "deal; it does not")  # fmt: skip
    if canonical_json(replay.header.forked) != canonical_json(origin_of(replay.batches[0])):
        raise Discrepancy(1, "the header's forked differs from the origin in the creation batch")


def _rerun(rules: Lifecycle[Any], state: Any, batch: Batch, keys: Keys) -> Any:
    command = batch.command
    first = batch.events[0].version
    try:
        events = _produce(rules, state, command, keys, batch)
    except Discrepancy as bad:
        raise Discrepancy(first, bad.reason) from None
    except DomainError as err:
        reason = f"the rules refuse this {command.get('kind')} command: {err.message}"
        raise Discrepancy(first, reason) from None
    except (KeyError, TypeError, ValueError) as err:
        raise Discrepancy(first, f"malformed {command.get('kind')} command: {err!r}") from None
    compare(rules, batch, events)
    return fold(rules, events, state)


def _produce(
    rules: Lifecycle[Any],
    state: Any,
    command: Mapping[str, Any],
    keys: Keys,
    batch: Batch | None = None,
) -> list[Event]:
    kind = command.get("kind")
    at = command.get("at")  # the service's stamp on a clocked game's commands
    if kind == "create":
        if state.created is not None:
            raise Discrepancy(None, "a second create command")
        filled = [(int(s), str(e)) for s, e in command.get("filled", [])]
        return rules.create(
            players=command["players"],
            options=command.get("options") or {},
            dealer=command.get("dealer"),
            keys=keys,
            filled=filled,
            bots=command.get("bots"),
            at=at,
            salted_deck=command.get("salted_deck") is True,
            abort_lapses=command.get("abort_lapses") is True,
            fork=_fork(rules, command.get("fork")),
            awaiting=[(int(s), str(e)) for s, e in command.get("awaiting", [])],
        )
    if state.created is None:
        raise Discrepancy(None, "the first batch is not a create command")
    if kind == "join":
        return rules.join(state, command["seat"], command["entropy"], keys, command["source"], at)
    if kind == "entropy":  # a bot's own, for the seat the game awaited it for
        return rules.contribute(state, command["seat"], command["entropy"], keys, at)
    if kind == "expire":
        return rules.expire(state, keys)
    if kind == "stop":
        return rules.stop(state, keys, str(command["reason"]))
    if kind == "action":
        seat = command.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise Discrepancy(None, f"the command's seat {seat!r} is not a seat number")
        action = rules.upcast_action(command["action"])  # an old stored shape, read as today's
        version = batch.events[0].version - 1 if batch is not None else None  # a fallback's seed
        return rules.act(state, seat, action, keys, at, version)
    if kind == "timeout" and batch is not None:
        return _timeout(rules, state, command, keys, batch)
    if kind == "idle" and batch is not None:
        return _idle(rules, state, command, keys, batch)
    raise Discrepancy(None, f"unknown command kind {kind!r}")


def _fork(rules: Lifecycle[Any], data: Any) -> GameForked | None:
    """A create command's fork origin (None for any other game)."""
    if data is None:
        return None
    fork = rules.codec.decode(data)
    if not isinstance(fork, GameForked):
        raise Discrepancy(None, f"the create command's fork is a {data.get('type')!r}, "
                                "not an origin")  # fmt: skip
    return fork


def _timeout(
    rules: Lifecycle[Any], state: Any, command: Mapping[str, Any], keys: Keys, batch: Batch
) -> list[Event]:
    """A clock's timeout re-run: the seat was out of time at ``at``; its move is the default
    move of the rule the command names (re-derived from the revealed seed), or, for a timeout
    recorded before the rule existed (no ``rule``), whichever legal move the batch records."""
    seat, at, rule = command.get("seat"), command.get("at"), command.get("rule")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(at, int):
        raise Discrepancy(None, f"a timeout command names seat {seat!r} at {at!r}")
    version = batch.events[0].version - 1
    if rule == RULE:
        return rules.timeout(state, seat, at, keys, version)
    if rule is not None:
        raise Discrepancy(
            None, f"a timeout command names default-move rule {rule!r}; known: {RULE}"
        )
    return _legacy_timeout(rules, state, (seat, at, version), keys, batch)


def _idle(
    rules: Lifecycle[Any], state: Any, command: Mapping[str, Any], keys: Keys, batch: Batch
) -> list[Event]:
    """An idle seat's batch re-run (``domain.idle``): the seat was awaited; a person's leave,
    a gone bot's seat taken over, or a bot's default move of the rule the command names."""
    rule = command.get("rule")
    if rule != RULE:
        raise Discrepancy(None, f"an idle command names default-move rule {rule!r}; known: {RULE}")
    version = batch.events[0].version - 1
    gone = command.get("gone", False)
    if not isinstance(gone, bool):
        raise Discrepancy(None, f"an idle command's gone is true or false, not {gone!r}")
    return rules.idle(state, command["seat"], keys, version, command.get("at"), gone)


def _legacy_timeout(
    rules: Lifecycle[Any], state: Any, where: tuple[int, int, int], keys: Keys, batch: Batch
) -> list[Event]:
    """The timeout re-run with the legal move whose events are the recorded ones (the first
    in the legal list; a forfeit has none): the heuristic bot's choice is not re-derived."""
    seat, at, version = where
    recorded = [canonical_json(normal(rules, e)) for e in batch.events]
    events = rules.timeout(state, seat, at, keys, version)
    after = rules.evolve(state, events[0])
    for move in rules.legal_actions(after, seat):  # none after a forfeit
        tried = rules.timeout(state, seat, at, keys, version, move)
        if [canonical_json(rules.codec.encode(e)) for e in tried] == recorded:
            return tried
    return events


def parse_receipts(text: str) -> list[tuple[int, str]]:
    """Receipts from JSON: a list of ``[version, head_hash]`` pairs or of objects with
    ``version`` and ``head_hash`` (as the API returns them); ReplayFormatError says what is wrong.
    """
    try:
        data = json.loads(text)
    except ValueError as err:
        raise ReplayFormatError(f"receipts are not valid JSON: {err}") from None
    if not isinstance(data, list):
        raise ReplayFormatError("receipts are a JSON list of [version, head_hash] pairs")
    return [_receipt(item, i) for i, item in enumerate(data)]


def _receipt(item: Any, index: int) -> tuple[int, str]:
    if isinstance(item, Mapping):
        item = [item.get("version"), item.get("head_hash")]
    if (
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], int)
        and not isinstance(item[0], bool)
        and is_hex32(item[1])
    ):
        return item[0], item[1]
    raise ReplayFormatError(f"receipt {index} is not a [version, 64-hex head hash] pair: {item!r}")
