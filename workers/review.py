"""Post-game review: every decision of one seat, valued by the search bot from that seat's view.

For each move the seat chose (a legal action, when it had several; not a lifecycle action such
as a resignation, nor a default move the service made for it), the search bot
of the game values every alternative it compares from exactly what the seat knew then (its view
and redacted history, ``domain.forks.basis_at``: the worlds are sampled by ``domain.worlds``),
with the move played among them. The cost of a decision is the best value less the value of
the move played, in the game's unit (``UNITS``); a cost above ``COSTLY`` marks it. Decisions the
search does not value (Shithead's pre-play and blind flips, what the Sheepshead bot leaves to
its heuristic, declaring out in Sixty-Six, a default move) are listed without values.

CPU is bounded by a count of worlds per decision (``WORLDS``), so a review costs alike on a busy
machine and an idle one; its random numbers come from ``seed`` and the version, so a review is
the same for the same seed. ``review_job`` is the RQ job; the service caches its result with the
game (``put_review``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from domain.events import Event
from domain.forks import basis_at
from domain.protocol import action_key
from replays.format import Replay
from service.games import GameService
from workers.bots.search.pimc import IterationSearch
from workers.bots.search.sheepshead import SheepsheadSearch
from workers.bots.search.shithead import ShitheadSearch
from workers.bots.search.sixty_six import SixtySixSearch
from workers.process import service

SCHEMA = 1
WORLDS = {"sixty_six": 16, "shithead": 8, "sheepshead": 12}  # sampled worlds per decision
COSTLY = {"sixty_six": 0.05, "shithead": 0.15, "sheepshead": 0.5}  # a cost above is marked
UNITS = {
    "sixty_six": "the chance to win the match",
    "shithead": "the chance not to be the shithead (a long game: by the cards left)",
    "sheepshead": "the seat's points for the hand",
}
SIXTY_SIX_VALUED = ("play", "marriage", "close", "draw", "exchange_trump")


def review_job(game_id: str, seat: int) -> str:
    """Review a finished game for ``seat`` and keep the result with the game."""
    svc = service()
    result = review_game(svc, game_id, seat)
    svc.keep_review(game_id, seat, result)
    return f"reviewed {len(result['decisions'])} decisions of seat {seat} of game {game_id}"


def review_game(svc: GameService, game_id: str, seat: int, *, seed: str | None = None,
                worlds: int | None = None) -> dict[str, Any]:  # fmt: skip
    """The review of a finished game as ``seat`` (``seed``: the game id when None)."""
    loaded = svc.load(game_id)
    replay = svc.replay_of(loaded)
    before = svc.fork_prehistory(loaded, seat)  # a fork's seat knew what came before it
    return review(loaded.game, replay, seat, seed=seed or game_id, worlds=worlds, before=before)


def review(rules: Any, replay: Replay, seat: int, *, seed: str, worlds: int | None = None,
           before: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:  # fmt: skip
    """Every decision of ``seat`` in the replay's game, valued (see the module docstring);
    ``before``: what the seat knew before the game's own history (a fork's prehistory)."""
    name = rules.name
    count = worlds or WORLDS[name]
    state, events = rules.initial_state(), list[Event]()
    decisions = []
    for batch in replay.batches:
        command = batch.command
        if command.get("kind") == "action" and command.get("seat") == seat:
            legal = rules.legal_actions(state, seat)
            played = dict(command["action"])
            if len(legal) > 1 and action_key(played) in {action_key(a) for a in legal}:
                view = basis_at(rules, state, events, seat)
                view["history"] = [*before, *view["history"]]
                rng = random.Random(f"{seed}:{batch.events[0].version - 1}")
                decisions.append(_decision(name, view, played, rng, count,
                                           batch.events[0].version - 1))  # fmt: skip
        decoded = [rules.codec.decode(e.event) for e in batch.events]
        events += decoded
        state = _fold(rules, state, decoded)
    costs = [(d["cost"], d["version"]) for d in decisions if d["cost"] is not None]
    return {
        "schema": SCHEMA,
        "game": name,
        "game_id": replay.header.game_id,
        "seat": seat,
        "unit": UNITS[name],
        "worlds": count,
        "seed": seed,
        "threshold": COSTLY[name],
        "decisions": decisions,
        "costliest": max(costs)[1] if costs and max(costs)[0] > 0 else None,
    }


def _fold(rules: Any, state: Any, events: Sequence[Event]) -> Any:
    for event in events:
        state = rules.evolve(state, event)
    return state


def _decision(name: str, view: dict[str, Any], played: dict[str, Any], rng: random.Random,
              worlds: int, version: int) -> dict[str, Any]:  # fmt: skip
    """One decision: the alternatives valued, the move played, its cost."""
    started = time.perf_counter()
    valued = _values(name, view, played, rng, worlds)
    out: dict[str, Any] = {"version": version, "played": played, "alternatives": [],
                           "best": None, "cost": None, "costly": False}  # fmt: skip
    if valued is None:
        return out
    actions, values = valued
    mine = next(i for i, a in enumerate(actions) if action_key(a) == action_key(played))
    best = max(range(len(actions)), key=lambda i: (values[i], -i))
    cost = round(values[best] - values[mine], 4)
    out.update(
        alternatives=[{"action": a, "value": round(v, 4)} for a, v in zip(actions, values,
                                                                           strict=True)],
        best=actions[best], cost=cost, costly=cost > COSTLY[name],
        ms=round((time.perf_counter() - started) * 1000, 1),
    )  # fmt: skip
    return out


def _values(name: str, view: dict[str, Any], played: dict[str, Any], rng: random.Random,
            worlds: int) -> tuple[list[dict[str, Any]], list[float]] | None:  # fmt: skip
    """The alternatives and their mean values, or None for a decision the search does not
    value."""
    if name == "sixty_six":
        return _sixty_six(view, played, rng, worlds)
    search: IterationSearch = (ShitheadSearch if name == "shithead" else SheepsheadSearch)(
        worlds)
    adapter = search.adapter
    legal = view["legal_actions"]
    if adapter.forced(view) is not None or all(a["type"] == "flip" for a in legal):
        return None
    actions = _with(list(map(dict, adapter.candidates(view))), played)
    try:
        totals = search.totals(view, actions, rng)
    except ValueError:  # a moment the sampler does not rebuild (Shithead's pre-play)
        return None
    return actions, [t / max(1, worlds) for t in totals]


def _sixty_six(view: dict[str, Any], played: dict[str, Any], rng: random.Random, worlds: int
               ) -> tuple[list[dict[str, Any]], list[float]] | None:  # fmt: skip
    if played["type"] not in SIXTY_SIX_VALUED or view.get("turn") != view["seat"]:
        return None
    actions = _with([dict(a) for a in view["legal_actions"]
                     if a["type"] in SIXTY_SIX_VALUED], played)  # fmt: skip
    totals, sampled = SixtySixSearch(worlds=worlds).totals(view, actions, rng)
    return actions, [t / max(1, sampled) for t in totals]


def _with(actions: list[dict[str, Any]], played: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives with the move played among them."""
    keys = {action_key(a) for a in actions}
    return actions if action_key(played) in keys else [*actions, dict(played)]

