"""Forks: a new game that starts at a moment of a finished one (docs/analysis.md).

A fork's stream is an ordinary lifecycle stream whose creation batch records its origin in
``lifecycle.GameForked`` (right after ``GameCreated``): the source game, the version it starts
from (where one of its actions ends: ``check_moment``) and the point of view, with what that
point of view fixes:

- ``seat`` N: ``basis`` is that seat's view at that version with its redacted history (what it
  had seen: the cards it fixes). When the last seat is filled, the cards the seat had not seen
  are dealt afresh by the game's world sampler (``domain.worlds``) with draws from the game's
  seed (commit-reveal: nobody chooses them), so a fork never tells the seat a hidden card;
- ``seat`` None (every card open, a finished game only): ``position`` is the exact state. The
  position was chosen, so the game is *prearranged*;
- ``sealed``: a seat's fork of a game still being played. Its basis is that seat's secret
  until the source ends, so the service serves the fork to that seat alone until then
  (``service.access``); in every seat's events but its own the basis is left out (as a
  hand is), even once the source is over: a bot of the fork never reads it.

Instead of the game's own creation events, the deal is ``lifecycle.PositionDealt``: the game's
state (``domain.state_codec`` data) the fork starts from. A seat reads it as its view of that
state (``redacted``). Pure: the seed is the caller's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from domain.errors import InvalidSetup
from domain.events import Encoded, Event, canonical_json
from domain.frozen import copy_with
from domain.state_codec import FROZENSET, from_data, to_data
from domain.worlds import SeededDraws, samplers

DRAWS_LABEL = "cardroom/fork-world"  # the label of a fork's draws in the seed's stream


@dataclass(frozen=True, slots=True, kw_only=True)
class GameForked(Event):
    """This game starts at ``version`` of game ``source`` as ``seat`` sees it (None: open)."""

    TYPE: ClassVar[str] = "lifecycle.GameForked"
    source: str
    version: int
    seat: int | None
    basis: dict[str, Any] | None  # the seat's view with its history then (seat forks)
    public: dict[str, Any] | None  # the match's public facts then (seat forks: ``carried``)
    position: dict[str, Any] | None  # the exact state then (open forks)
    sealed: bool = False  # forked while the source was played: its seat's alone till it ends


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionDealt(Event):
    """The fork's deal: the game's state it starts from (``domain.state_codec`` data)."""

    TYPE: ClassVar[str] = "lifecycle.PositionDealt"
    position: dict[str, Any]


def thawed(data: Any) -> Any:
    """Stored data as plain JSON values again (a decoded event holds tuples for lists)."""
    return json.loads(canonical_json(data))


def position(state: Any) -> dict[str, Any]:
    """A game's state as data, the same in every process: a frozenset's items sorted (their
    order otherwise follows the process's string hashing)."""
    data = _sorted_sets(thawed(to_data(state)))
    assert isinstance(data, dict)
    return data


def _sorted_sets(data: Any) -> Any:
    if isinstance(data, list):
        return [_sorted_sets(v) for v in data]
    if not isinstance(data, dict):
        return data
    out = {k: _sorted_sets(v) for k, v in data.items()}
    if set(out) == {FROZENSET}:
        out[FROZENSET] = sorted(out[FROZENSET], key=canonical_json)
    return out


def open_fork(source: str, version: int, state: Any) -> GameForked:
    """The origin of a fork with every card open: the game's exact ``state`` then."""
    return GameForked(
        source=source, version=version, seat=None, basis=None, public=None,
        position=position(state),
    )  # fmt: skip


def seat_fork(
    source: str, version: int, seat: int, basis: Any, state: Any, *, sealed: bool = False
) -> GameForked:
    """The origin of a fork as ``seat``: its ``basis`` (``basis_at``) and the public facts of
    the game's ``state`` then that a view does not hold (``carried``); ``sealed`` while the
    source is still played."""
    return GameForked(
        source=source, version=version, seat=seat, basis=thawed(basis), public=carried(state),
        position=None, sealed=sealed,
    )  # fmt: skip


# The match's public facts a world sampled from a view does not rebuild, by game: carried
# from the source's state into a seat's fork as they were (none is a card anyone could not see).
CARRIED = {
    "sixty_six": ("first_dealer", "deals_scored", "last_result", "actions"),
    "sheepshead": ("first_dealer", "commitment", "last_result", "last_tricks", "actions"),
    "shithead": ("actions",),
}


def carried(state: Any) -> dict[str, Any]:
    """The ``CARRIED`` facts of a game's state, as data."""
    names = next((n for g, n in CARRIED.items() if type(state).__module__.startswith(
        f"domain.games.{g}.")), ())  # fmt: skip
    return position({name: getattr(state, name) for name in names})


def position_of(game: str, origin: GameForked, seed: str) -> PositionDealt:
    """The fork's deal: the open position, or a world sampled from the seat's basis with the
    seed's draws (the same for everyone who re-derives it)."""
    if origin.seat is None:
        assert origin.position is not None
        return PositionDealt(position=thawed(origin.position))
    sample = samplers().get(game)
    if sample is None:
        raise InvalidSetup(f"{game} has no world sampler: it cannot be forked as a seat")
    try:
        world = sample(thawed(origin.basis), SeededDraws(seed, DRAWS_LABEL))
    except (ValueError, KeyError, TypeError) as err:
        raise InvalidSetup(f"this moment cannot be forked as seat {origin.seat}: {err}") from None
    facts = from_data(thawed(origin.public or {"{}": []}))
    if any(f.name == "seed" for f in fields(world)):
        facts["seed"] = seed  # the fork's own later deals: from its seed, secret until the end
    return PositionDealt(position=position(copy_with(world, **facts)))


def state_of(dealt: PositionDealt) -> Any:
    """The game's state a PositionDealt holds."""
    return from_data(thawed(dealt.position))


def origin_summary(origin: GameForked) -> dict[str, Any]:
    """What listings, views and replays say of a fork's origin (``sealed`` only when it is)."""
    summary = {"source": origin.source, "version": origin.version, "as": origin.seat}
    return {**summary, "sealed": True} if origin.sealed else summary


def origin_for(origin: GameForked, seat: int | None) -> GameForked:
    """The origin as ``seat`` (None: a spectator) may read it: a seat's fork without its
    basis for anyone but that seat (the cards it fixes are that seat's own)."""
    if origin.seat is None or seat == origin.seat:
        return origin
    return GameForked(
        source=origin.source, version=origin.version, seat=origin.seat, basis=None,
        public=origin.public, position=None, sealed=origin.sealed,
    )  # fmt: skip


def redacted(dealt: PositionDealt, view: dict[str, Any]) -> Encoded:
    """A PositionDealt as one seat may see it: its view of the position."""
    return {"type": PositionDealt.TYPE, "schema": PositionDealt.SCHEMA, "view": view}


def prehistory(rules: Any, origin: GameForked, source_events: list[Event], seat: int
               ) -> list[Encoded]:  # fmt: skip
    """What ``seat`` of a fork knew before it (``source_events``: the source's first
    ``origin.version`` events, decoded): the seat forked as, its own history; with every card
    open, each seat its own history of the source (the position is the source's); any other
    seat of a seat's fork, the source's public history (its hidden cards were dealt afresh).
    The search bots read it before the fork's own history."""
    if origin.seat is not None and seat == origin.seat:
        return list(thawed((origin.basis or {}).get("history") or []))
    shown_to = seat if origin.seat is None else None
    return list(thawed([rules.redact(e, shown_to) for e in source_events[: origin.version]]))


def check_forkable(rules: Any, state: Any, seat: int | None) -> None:
    """InvalidSetup unless a fork may start at ``state`` (a lifecycle's ``Table``) as ``seat``
    (None: open): something is dealt and nothing is over, and a seat forks at one of its
    decisions (a world is sampled for the seat the game waits on)."""
    if state.inner is None:
        raise InvalidSetup("nothing is dealt yet: there is no position to fork")
    if rules.outcome(state) is not None:
        raise InvalidSetup("the game is over there: nothing is left to play")
    if seat is not None and seat not in rules.awaited_seats(state):
        raise InvalidSetup(f"seat {seat} is not to move there: a fork as a seat starts at one "
                           "of its decisions")  # fmt: skip


def check_moment(at: int, action: range) -> None:
    """InvalidSetup unless version ``at`` ends ``action``, the versions of the batch (one
    command's events) that holds it. Inside one the table is half made (Shithead: a seat
    that played its last card not yet out, or out and still the seat to move): no seat ever
    saw it, and the rules need not go on from it (a seat awaited with no move to make).
    An empty ``action`` (no batch of the source holds ``at`` any more: purged meanwhile) is
    refused too."""
    if not action:
        raise InvalidSetup(f"version {at} is in no action of the source")
    if at != action[-1]:
        raise InvalidSetup(f"version {at} is inside one action (its events are versions "
                           f"{action[0]} to {action[-1]}): a fork starts where an action "
                           f"ends, e.g. at {action[-1]}")  # fmt: skip


def basis_at(rules: Any, state: Any, events: list[Event], seat: int) -> dict[str, Any]:
    """What ``seat`` knew at ``state`` (``rules``: the game's lifecycle), the fold of
    ``events``: its view with its redacted history, as the search bots read them."""
    view = thawed(rules.view(state, seat))
    view["history"] = thawed([rules.redact(e, seat) for e in events])
    assert isinstance(view, dict)
    return view
