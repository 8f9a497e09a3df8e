"""Request bodies refused before any parser sees them: JSON nested deeper than any valid
request (the standard parser would hit Python's recursion limit: a 5xx)."""

from __future__ import annotations

from flask import request

from service.errors import InvalidRequest

MAX_JSON_DEPTH = 32
_OPEN, _CLOSE, _QUOTE, _BACKSLASH = frozenset(b"[{"), frozenset(b"]}"), ord('"'), ord("\\")


def json_too_deep(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when arrays/objects nest deeper than ``limit`` (brackets in strings don't count)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth, in_string, escaped = 0, False, False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == _BACKSLASH:
                escaped = True
            elif byte == _QUOTE:
                in_string = False
        elif byte == _QUOTE:
            in_string = True
        elif byte in _OPEN:
            depth += 1
            if depth > limit:
                return True
        elif byte in _CLOSE:
            depth -= 1
    return False


def refuse_deep_json() -> None:
    """``before_request`` hook: a JSON body nested too deeply is an invalid request."""
    is_json = "json" in (request.mimetype or "")
    if is_json and request.content_length != 0 and json_too_deep(request.get_data(cache=True)):
        raise InvalidRequest(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels")
