"""The response of an accepted action, built the same way when it is played and when a retried
idempotency key asks for it again.

An action's idempotency record keeps only the request's fingerprint and the version the action
brought the game to; a retry renders the response again from the stored events (the batch
ending at that version, redacted for the seat, and the seat's view of the state there), so it
is the first response byte for byte without a second copy of it in Redis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from domain.protocol import Game, fold
from service import narration
from service.folding import Loaded, fold_stored
from service.json_ready import ready
from service.receipts import Signer
from service.store.port import EventLog, GameMeta, StoredEvent
from service.store.records import salt_of

FINGERPRINT_CHARS = 16  # of an action's request digest kept in its record (64 bits)


def action_response(
    rules: Game[Any],
    before: int,
    events: Sequence[Any],
    state: Any,
    seat: int,
    head: str,
    salted: bool,
    meta: GameMeta,
    signature: str | None = None,
) -> dict[str, Any]:
    """``{"version", "head_hash" (salted chains), "receipt_signature" (when signed), "events"
    (redacted for the seat), "view"}``, as ``json_ready`` makes it."""
    return ActionResponse(
        before,
        head if salted else None,
        [ready(rules.redact(e, seat)) for e in events],
        ready(narration.for_people(rules.view(state, seat), meta)),
        signature,
    )


class ActionResponse(dict[str, Any]):
    """An action's response as ``json_ready`` makes it, with the JSON of its events and
    its view as they were encoded to make it (keys sorted): the API answers with those bytes
    instead of encoding the response again (``service.api.hotpath``). Not to be changed once
    made: the JSON would no longer be its own."""

    __slots__ = ("event_json", "view_json")

    def __init__(
        self,
        before: int,
        head: str | None,
        events: list[tuple[bytes, Any]],
        view: tuple[bytes, Any],
        signature: str | None = None,
    ) -> None:
        """``events`` and ``view``: ``ready``'s (JSON, data) of each."""
        super().__init__()  # keys sorted, as json_ready's
        self["events"] = [
            {"event": data, "version": before + i + 1} for i, (_, data) in enumerate(events)
        ]
        if head is not None:
            self["head_hash"] = head
        if signature is not None:
            self["receipt_signature"] = signature
        self["version"] = before + len(events)
        self["view"] = view[1]
        self.event_json, self.view_json = [text for text, _ in events], view[0]

    def fragments(self) -> dict[str, Any]:
        """The response with its events and view as ``orjson.Fragment``: ``orjson.dumps`` writes
        their bytes as they are."""
        return {
            **self,
            "events": [
                {**item, "event": orjson.Fragment(e)}
                for item, e in zip(self["events"], self.event_json, strict=True)
            ],
            "view": orjson.Fragment(self.view_json),
        }


def same_request(recorded: str, request: str) -> bool:
    """Whether a recorded fingerprint (whole, or the prefix an action keeps) is the request's."""
    size = min(len(recorded), len(request))
    return size >= FINGERPRINT_CHARS and recorded[:size] == request[:size]


def render_action(
    log: EventLog, loaded: Loaded, seat: int, version: int, signer: Signer | None = None
) -> dict[str, Any]:
    """The response the action whose batch ends at ``version`` got (from the stored events)."""
    rules = loaded.game
    stored = log.read(loaded.meta.id, 0, version)
    if not stored or stored[-1].version != version:
        raise LookupError(f"game {loaded.meta.id} has no version {version}")
    start = max(i for i, s in enumerate(stored) if s.command is not None)
    batch: list[StoredEvent] = stored[start:]
    if loaded.version == version:
        state, head = loaded.state, loaded.head_hash
    else:
        genesis = Loaded(loaded.meta, rules, fold(rules, ()), 0, "0" * 64)
        at = fold_stored(genesis, stored)
        state, head = at.state, at.head_hash
    events = [rules.codec.decode(s.event) for s in batch]
    return action_response(
        rules,
        batch[0].version - 1,
        events,
        state,
        seat,
        head,
        bool(salt_of(loaded.meta)),
        loaded.meta,
        signer.sign(loaded.meta.id, version, head) if signer and salt_of(loaded.meta) else None,
    )
