"""Events and views told in words for people (no I/O): the seats by name, each event's text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from domain.lifecycle import lifecycle
from domain.protocol import Game
from service.store.port import GameMeta

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
