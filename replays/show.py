"""The table at any step of a replay, as one seat saw it or with every card open.

Step N is the state after event version N (1 = the game just created). ``as_seat=None``
shows ``game.reveal`` (everything open); a seat number shows ``game.view`` for that seat and
redacts the step's events as that seat saw them.
"""

from __future__ import annotations

import json
from typing import Any

from domain.events import canonical_json
from domain.lifecycle import Lifecycle, lifecycle
from domain.protocol import Game, fold
from domain.registry import get_game
from replays.format import Batch, Replay


def table_at(
    replay: Replay,
    step: int | None = None,
    as_seat: int | None = None,
    game: Game[Any] | None = None,
) -> dict[str, Any]:
    """JSON-ready: the step, the command that led to it, its events and the table."""
    rules = game if game is not None else get_game(replay.header.game)
    if replay.header.version >= 2 and not isinstance(rules, Lifecycle):
        rules = lifecycle(rules)
    head = replay.header.head_version
    step = head if step is None else step
    if not 1 <= step <= len(replay.events):
        raise ValueError(f"step must be between 1 and {len(replay.events)}, got {step}")
    if as_seat is not None and not 0 <= as_seat < replay.header.players:
        raise ValueError(f"seat must be between 0 and {replay.header.players - 1}, got {as_seat}")
    decoded = [rules.codec.decode(e.event) for e in replay.events[:step]]
    state = fold(rules, decoded)
    batch = _batch_of(replay, step)
    first = batch.events[0].version
    step_events = decoded[first - 1 : step]
    if as_seat is None:
        table = rules.reveal(state)
        shown = [rules.codec.encode(e) for e in step_events]
    else:
        table = rules.view(state, as_seat)
        shown = [rules.redact(e, as_seat) for e in step_events]
    return {
        "game": replay.header.game,
        "game_id": replay.header.game_id,
        "step": step,
        "head_version": head,
        "as_seat": as_seat,
        "command": _public_command(batch.command, as_seat),
        "events": json.loads(canonical_json(shown)),
        "table": json.loads(canonical_json(table)),
    }


def _batch_of(replay: Replay, step: int) -> Batch:
    for batch in replay.batches:
        if batch.events[0].version <= step <= batch.events[-1].version:
            return batch
    raise ValueError(f"no batch holds version {step}")


def _public_command(command: dict[str, Any], as_seat: int | None) -> dict[str, Any]:
    """A seat's view hides the seed and an explicit deal of the start command."""
    if as_seat is None or command.get("kind") != "start":
        return command
    setup = {k: v for k, v in command.get("setup", {}).items() if k not in ("seed", "deal")}
    return {"kind": "start", "setup": setup}


def show(
    replay: Replay,
    step: int | None = None,
    as_seat: int | None = None,
    game: Game[Any] | None = None,
) -> str:
    """The table at a step as readable text."""
    return render(table_at(replay, step, as_seat, game))


def render(data: dict[str, Any]) -> str:
    """Readable text of ``table_at`` data."""
    who = "everything open" if data["as_seat"] is None else f"as seat {data['as_seat']} saw it"
    lines = [
        f"{data['game']} game {data['game_id']} - step {data['step']} of "
        f"{data['head_version']}, {who}",
        f"command: {_command_text(data['command'])}",
        "events:  " + ", ".join(_event_text(e) for e in data["events"]),
        "",
    ]
    table = {k: v for k, v in data["table"].items() if k not in _NOT_SHOWN}
    seats = table.pop("seats", [])
    legal = table.pop("legal_actions", [])
    outcome = table.pop("outcome", None)
    for key, value in table.items():
        lines.append(f"{key}: {_value(value)}")
    for index, seat in enumerate(seats):
        lines.append(f"seat {index}: {_value(seat)}")
    if legal:
        lines.append("legal actions:")
        lines.extend(f"  {_value(a)}" for a in legal)
    lines.append(f"outcome: {_value(outcome)}")
    return "\n".join(lines)


_NOT_SHOWN = frozenset({"options", "game"})


def _command_text(command: dict[str, Any]) -> str:
    kind = command.get("kind")
    action = command.get("action")
    if kind == "action" and isinstance(action, dict) and action.get("type") == "fallback":
        reason = action.get("reason")
        return f"seat {command.get('seat')}'s bot fell back ({reason}): the default move"
    if kind == "action":
        return f"seat {command.get('seat')} {_value(action)}"
    if kind == "timeout":
        return f"seat {command.get('seat')} ran out of time (at {command.get('at')} ms)"
    if kind == "idle":
        return f"seat {command.get('seat')} was idle too long"
    if kind == "start":
        return f"start {_value(command.get('setup'))}"
    return f"{kind} {_value({k: v for k, v in command.items() if k != 'kind'})}"


def _event_text(event: dict[str, Any]) -> str:
    body = {k: v for k, v in event.items() if k not in ("type", "schema")}
    return f"{event.get('type')} {_value(body)}"


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={_value(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        if all(isinstance(v, str | int) and not isinstance(v, bool) for v in value):
            return "[" + " ".join(str(v) for v in value) + "]"
        return "[" + "; ".join(_value(v) for v in value) + "]"
    if value is None:
        return "-"
    return str(value)
