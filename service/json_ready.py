"""Data as it comes back from storage (tuples become lists, keys sorted): what the service
answers is the same whether it was just made or read back."""

from __future__ import annotations

import json
from typing import Any

import orjson

from domain.events import canonical_json


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
