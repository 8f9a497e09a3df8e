"""Request bodies refused before any parser sees them: JSON nested deeper than any valid
request (the standard parser would hit Python's recursion limit: a 5xx); strings holding
unpaired surrogates or control characters and integers too long to parse (a 422 naming the
field)."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from flask import request
from werkzeug.exceptions import HTTPException

from service.errors import InvalidField, InvalidRequest

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


def read_body() -> None:
    """``before_request`` hook: a body the server cannot read (a malformed chunked encoding: a
    bad chunk size or terminator, or the body cut short) is an invalid request, not a 500.
    Read once here (kept for every later reader)."""
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if not chunked and not request.content_length:
        return
    try:
        request.get_data(cache=True)
    except HTTPException:
        raise  # a body over MAX_CONTENT_LENGTH: 413
    except Exception as err:  # the server's parse errors (gunicorn: InvalidChunkSize, ...)
        raise InvalidRequest(f"the request body could not be read: {type(err).__name__}") from err


def refuse_deep_json() -> None:
    """``before_request`` hook: a JSON body nested too deeply is an invalid request."""
    is_json = "json" in (request.mimetype or "")
    if is_json and request.content_length != 0 and json_too_deep(request.get_data(cache=True)):
        raise InvalidRequest(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels")


LONG_DIGITS = re.compile(rb"\d{19}")  # a number orjson may not read as json does
PARSED = "cardroom.json"  # where refuse_bad_fields leaves the body it parsed (WSGI environ)
MAX_INT_DIGITS = 4300  # Python's own limit on int(str): longer integers are refused, not parsed


class _HugeInteger(str):
    """A JSON integer too long to parse (kept as text so the walk can name its field)."""


def _parse_int(text: str) -> int | _HugeInteger:
    return _HugeInteger(text) if len(text.lstrip("-")) > MAX_INT_DIGITS else int(text)


BAD_TEXT = re.compile("[\ud800-\udfff\x00-\x1f\x7f-\x9f]")


def text_problem(text: str) -> str | None:
    """Why a string may not enter the service: an unpaired surrogate or a control character."""
    found = BAD_TEXT.search(text)
    if found is None:
        return None
    point = ord(found.group())
    if 0xD800 <= point <= 0xDFFF:
        return f"contains an unpaired surrogate (\\u{point:04x})"
    return f"contains a control character (\\u{point:04x})"


def bad_field(data: Any, path: str = "") -> tuple[str, str] | None:
    """The first (field path, problem) in parsed JSON: bad text in a key or value, or an
    integer too long; None when every field is clean."""
    if isinstance(data, _HugeInteger):
        return path or "body", f"is an integer of more than {MAX_INT_DIGITS} digits"
    if isinstance(data, str):
        problem = text_problem(data)
        return None if problem is None else (path or "body", problem)
    if isinstance(data, dict):
        for key, value in data.items():
            where = f"{path}.{key}" if path else key
            problem = text_problem(key)
            if problem is not None:
                shown = ascii(key)[1:-1]
                return (f"{path}.{shown}" if path else shown), f"is a key that {problem}"
            found = bad_field(value, where)
            if found is not None:
                return found
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found = bad_field(value, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def refuse_bad_fields() -> None:
    """``before_request`` hook: a JSON body or query string with a string field holding an
    unpaired surrogate or a control character, or an integer too long to parse, is a 422
    naming the field (such text would break storage, logs and every client; the integer would
    raise inside the parser)."""
    for name, value in request.args.items(multi=True):
        problem = text_problem(value) or text_problem(name)
        if problem is not None:
            raise InvalidField(ascii(name)[1:-1], f"(query parameter) {problem}")
    if "json" not in (request.mimetype or "") or request.content_length == 0:
        return
    body = request.get_data(cache=True)
    if not body:
        return
    try:
        # orjson refuses what needs a closer look (unpaired surrogates, NaN, ...) and would
        # read an integer past 64 bits as a float: those go through the standard parser
        if LONG_DIGITS.search(body):
            raise orjson.JSONDecodeError("long number", "", 0)
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        try:
            data = json.loads(body, parse_int=_parse_int)
        except ValueError:
            return  # not JSON at all: the schema layer answers 400
    found = bad_field(data)
    if found is not None:
        raise InvalidField(*found)
    request.environ[PARSED] = data  # checked once: views that can take it parse no more


def parsed_json() -> Any:
    """The request's JSON body as ``refuse_bad_fields`` parsed and checked it (None if it did
    not: no JSON body, or not JSON at all)."""
    return request.environ.get(PARSED)
