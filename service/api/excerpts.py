"""What an error body may quote of bad input: a short excerpt, never the input itself.

A problem's ``detail`` names the offending value (house rule 4), and schema errors name the
offending fields; a request can make either as long as its body (64 KB) or its headers. Before
a problem is written, every string in it is bounded (``excerpted``): a quoted value or a
run of more than ``RUN`` characters without a space keeps its first ``KEEP`` and says how long
it was, a string still longer than ``LONGEST`` is cut there, and a list or an object keeps its
first ``ITEMS`` members. A problem body therefore stays a few kilobytes whatever was sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

RUN, KEEP = 48, 32  # a word longer than RUN characters keeps its first KEEP
LONGEST = 400  # characters of any string of a problem
ITEMS = 20  # members of a list or object of a problem

_LONG_RUN = re.compile(rf"\S{{{RUN + 1},}}")
# a value quoted as repr() quotes it (not from an apostrophe: "a fallback's reason")
_LONG_QUOTE = re.compile(rf"(?<!\w)(?:'[^']{{{RUN + 1},}}'|\"[^\"]{{{RUN + 1},}}\")(?!\w)")


def excerpted(value: Any) -> Any:
    """``value`` with every string, list and object in it bounded (see the module)."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, Mapping):
        items = list(value.items())
        out = {_text(str(k)): excerpted(v) for k, v in items[:ITEMS]}
        if len(items) > ITEMS:
            out["…"] = f"{len(items) - ITEMS} more"
        return out
    if isinstance(value, list | tuple):
        kept = [excerpted(v) for v in value[:ITEMS]]
        return [*kept, f"… {len(value) - ITEMS} more"] if len(value) > ITEMS else kept
    return value


def _text(text: str) -> str:
    if len(text) <= RUN:
        return text
    text = _LONG_QUOTE.sub(_shortened, text)
    text = _LONG_RUN.sub(_shortened, text)
    return text if len(text) <= LONGEST else f"{text[:LONGEST]}…"


def _shortened(found: re.Match[str]) -> str:
    return f"{found.group()[:KEEP]}…({len(found.group())} characters)"
