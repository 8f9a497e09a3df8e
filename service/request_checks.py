"""What a request may name (no I/O): game ids, bot names, seat names, seeds and seats; a name
out of bounds is an ``InvalidRequest``."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

from service.errors import InvalidRequest
from service.store.port import SeatRecord

BOT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_SEED_LENGTH = 128
MAX_NAME_LENGTH = 40


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
