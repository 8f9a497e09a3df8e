"""Request checks and stored/returned shapes of the service layer (no I/O)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from domain.chain import GENESIS, link_hash
from domain.events import Encoded, canonical_json
from domain.lifecycle import lifecycle
from domain.protocol import Game
from service.errors import InvalidRequest
from service.store.port import GameMeta, SeatRecord, StoredEvent

BOT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_SEED_LENGTH = 128
MAX_NAME_LENGTH = 40


def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def request_digest(body: Mapping[str, Any]) -> str:
    """What makes two requests the same request (for idempotency keys)."""
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def fingerprint(seat: int, action: Mapping[str, Any], expected_version: int) -> str:
    """The digest of an action request."""
    return request_digest(
        {"seat": seat, "action": dict(action), "expected_version": expected_version}
    )


def creation_fingerprint(
    game: str,
    seats: Any,
    options: Any,
    seed: str | None,
    dealer: int | None,
    deal: Any,
    forked: Any = None,
) -> str:
    """The digest of a creation request (``forked``: a fork's origin)."""
    body = {
        "game": game, "seats": seats, "options": options, "seed": seed, "dealer": dealer,
        "deal": deal,
    }  # fmt: skip
    return request_digest(body if forked is None else {**body, "forked": forked})


def game_id_for_key(idempotency_key: str) -> str:
    """The game id a creation with this Idempotency-Key gets (the same for every retry)."""
    digest = hashlib.sha256(b"cardroom-create\x00" + idempotency_key.encode()).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode()


def json_ready(data: Any) -> Any:
    """Data exactly as it comes back from storage (tuples become lists, keys sorted)."""
    return ready(data)[1]


def ready(data: Any) -> tuple[bytes, Any]:
    """``data``'s JSON (keys sorted) and what ``json_ready`` makes of it: read back from it."""
    try:  # the same, faster, for plain data: string keys, 64-bit integers, JSON's own types
        text = orjson.dumps(data, option=_PLAIN)
        return text, orjson.loads(text)
    except TypeError:
        text = canonical_json(data).encode()
        return text, json.loads(text)


# (orjson writes a NaN or an infinity as null, the standard encoder as text no JSON parser reads;
# the games' data hold neither)
_PLAIN = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def head(encoded: Sequence[Encoded], prev: str | None = None, salt: str = "") -> str:
    head = prev if prev is not None else GENESIS
    for event in encoded:
        head = link_hash(head, event, salt)
    return head


def full_event(stored: StoredEvent) -> dict[str, Any]:
    out: dict[str, Any] = {
        "version": stored.version,
        "event": stored.event,
        "prev_hash": stored.prev_hash,
        "hash": stored.hash,
    }
    if stored.command is not None:
        out["command"] = stored.command
        out["batch"] = stored.batch
    return out


def receipt(meta: GameMeta, head_hash: str, name: str = "head_hash") -> dict[str, str]:
    """The head hash as a receipt, for salted chains only (safe to publish at every version)."""
    return {name: head_hash} if meta.secret else {}


def revealed(meta: GameMeta, state: Any) -> dict[str, Any]:
    """What a finished game reveals: the seed (and with a lifecycle, the server's secret)."""
    event = getattr(state, "revealed", None)
    if event is None:
        return {"seed": meta.seed}
    return {"seed": event.seed, "secret": event.secret}


def forked(meta: GameMeta) -> dict[str, Any]:
    """A fork's origin as summaries and listings show it (nothing for other games)."""
    return {} if meta.forked is None else {"forked": dict(meta.forked)}


def public_seats(meta: GameMeta) -> list[dict[str, Any]]:
    return [s.public(i) for i, s in enumerate(meta.seats)]


def status(rules: Game[Any], state: Any, seats: Sequence[SeatRecord]) -> str:
    if rules.outcome(state) is not None:
        return "over"
    return "waiting" if any(s.type == "open" for s in seats) else "playing"


def seat_record(index: int, spec: Mapping[str, Any]) -> SeatRecord:
    kind = spec.get("type") if isinstance(spec, Mapping) else None
    if kind == "open":
        return SeatRecord("open")
    if kind == "bot":
        bot = spec.get("bot")
        if not isinstance(bot, str) or not BOT_NAME.match(bot):
            raise InvalidRequest(f"seats[{index}].bot must be a simple name, got {bot!r}")
        name = spec.get("name")
        return SeatRecord("bot", bot=bot, name=bot if name is None else check_name(name))
    raise InvalidRequest(f"seats[{index}].type must be 'open' or 'bot', got {kind!r}")


def check_seed(seed: object) -> str:
    if seed is None:
        return secrets.token_hex(16)
    if not isinstance(seed, str) or not 0 < len(seed) <= MAX_SEED_LENGTH:
        raise InvalidRequest(f"seed must be a string of 1 to {MAX_SEED_LENGTH} characters")
    return seed


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise InvalidRequest(f"name must be 1 to {MAX_NAME_LENGTH} characters")
    if any(not ch.isprintable() for ch in name):
        raise InvalidRequest("name may not contain control characters")
    return name.strip()


_SEAT_WORD = re.compile(r"\bseat (\d+)\b")
_SEATS_WORD = re.compile(r"\bseats (\d+(?:, \d+)+)\b")


def seat_names(meta: GameMeta) -> list[str | None]:
    """Every seat's name (None: still open)."""
    return [None if s.type == "open" else s.name for s in meta.seats]


def named(words: str, names: Sequence[str | None]) -> str:
    """Words with each "seat N" (and "seats N, M") told by the seats' names (an open seat keeps
    its number)."""
    def one(seat: int) -> str:
        known = names[seat] if seat < len(names) else None
        return known if known else f"seat {seat}"

    words = _SEATS_WORD.sub(lambda m: ", ".join(one(int(s)) for s in m.group(1).split(", ")), words)
    return _SEAT_WORD.sub(lambda m: one(int(m.group(1))), words)


def tell_items(
    items: Sequence[dict[str, Any]], game: Game[Any], names: Sequence[str | None]
) -> None:
    """Put each event item's ``text``: the event (as its reader may see it) in game words, the
    seats by name; None when there is nothing worth saying."""
    tell = lifecycle(game).tell
    for item in items:
        said = tell(item["event"])
        item["text"] = None if said is None else named(said, names)


def for_people(view: dict[str, Any], meta: GameMeta) -> dict[str, Any]:
    """The view with the seats' names, and its ``last_action`` told with them."""
    names = seat_names(meta)
    view["names"] = names
    last = view.get("last_action")
    if isinstance(last, dict):
        seat = last.get("seat")
        last["name"] = names[seat] if isinstance(seat, int) and seat < len(names) else None
        last["text"] = named(last["text"], names)
        last["results"] = [named(r, names) for r in last.get("results", ())]
    return view
