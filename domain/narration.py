"""``last_action``: what just happened at the table, in game words, for every view.

Each game says which of its events begin a seat's action (``role``: ``"act"``), which follow
from one (``"follow"``: a burn, a pickup after a failed flip, a trick taken, a deal scored) and
which set up a new deal or game (``"reset"``), and tells one event in words (``narrate``, from
the event *as the viewer may see it*, so the words never hold a hidden card). The lifecycle
keeps the events of the last action as they are folded (``Recent``) and renders them per viewer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.events import Encoded, Event

MAX_RECENT = 64  # a run longer than this keeps its first event and its latest ones

Role = Callable[[Event, Event | None, Any], str]
Narrate = Callable[[Encoded], str | None]


def extend(recent: tuple[Event, ...], event: Event, role: str) -> tuple[Event, ...]:
    """The recent run after one more event of that role."""
    if role == "act":
        return (event,)
    if role == "reset" or not recent:
        return ()
    if len(recent) >= MAX_RECENT:
        return (recent[0], *recent[2:], event)
    return (*recent, event)


def last_action(
    recent: Sequence[Event],
    redact: Callable[[Event], Encoded],
    narrate: Narrate,
    acts: Mapping[str, str],
) -> dict[str, Any] | None:
    """The viewer's ``last_action``: seat, action type, words, the cards it showed, results."""
    if not recent:
        return None
    first = redact(recent[0])
    words = [narrate(first)] + [narrate(redact(e)) for e in recent[1:]]
    said = [w for w in words if w]
    out: dict[str, Any] = {
        "seat": first.get("seat"),
        "type": acts.get(first["type"], first["type"]),
        "text": "; ".join(said),
        "results": said[1:],
    }
    shown = first.get("cards")
    if isinstance(shown, list | tuple) and all(isinstance(c, str) for c in shown):
        out["cards"] = list(shown)
    elif isinstance(first.get("card"), str):
        out["cards"] = [first["card"]]
    return out


# the lifecycle's own events in words (the games tell theirs); "seat N" is named by the service
LIFECYCLE_WORDS = {
    "lifecycle.SeatFilled": "seat {seat} sat down",
    "lifecycle.EntropyAwaited": "seat {seat} awaits its bot's entropy",
    "lifecycle.SeatResigned": "seat {seat} resigned",
    "lifecycle.SeatIdled": "seat {seat} was idle too long",
    "lifecycle.BotFellBack": "seat {seat} fell back ({reason}) to the default move",
    "lifecycle.TimedOut": "seat {seat} ran out of time",
    "lifecycle.AbortAgreed": "seat {seat} agreed to abort",
    "lifecycle.AbortWithdrawn": "seat {seat} withdrew the agreement to abort",
    "lifecycle.GameExpired": "the game expired before its seats were filled",
    "lifecycle.GameStopped": "the game was stopped ({reason})",
}


def tell(data: Encoded, narrate: Narrate | None) -> str | None:
    """One event, as its viewer may see it, in words (None: nothing worth saying)."""
    words = LIFECYCLE_WORDS.get(data["type"])
    if words is not None:
        try:
            return words.format_map(data)
        except KeyError:
            return None
    return narrate(data) if narrate is not None else None


def subject(data: Encoded) -> tuple[str, str]:
    """An event's kind (its type without the game's name) and its seat in words (``seat 2``)."""
    return data["type"].partition(".")[2], f"seat {data.get('seat')}"


def cards_text(cards: Any) -> str:
    """Card codes as words (``7C 7H``), or how many when hidden."""
    if isinstance(cards, int):
        return f"{cards} card{'s' if cards != 1 else ''}"
    if cards is None:
        return "cards"
    return " ".join(cards)
