"""A run of the arena: deals played in every rotation of the seats, in worker processes.

Each *deal* (a seed derived from the run's seed) is played once per rotation of the seats, so
every bot sits in every seat of the same cards and the luck of the deal cancels out
(``duplicate``, the default); without it each deal is played once, seats as given.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from workers.arena.play import GameRecord, play_game
from workers.arena.scoring import SeatResult, forfeit_value, seat_value
from workers.bots.base import get_bot


@dataclass(frozen=True, slots=True)
class Settings:
    """What every game of a run shares."""

    game: str
    bots: tuple[str, ...]
    seed: str
    bot_seed: str
    options: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = True
    move_seconds: float = 0.0

    def rotations(self) -> int:
        return len(self.bots) if self.duplicate else 1


def rotation(bots: Sequence[str], shift: int) -> list[str]:
    """The bots seated for a rotation: the list shifted right by ``shift``."""
    n = len(bots)
    return [bots[(seat - shift) % n] for seat in range(n)]


def play_deal(task: tuple[Settings, int]) -> list[SeatResult]:
    """Every rotation of one deal (a worker process's unit of work)."""
    settings, deal = task
    out: list[SeatResult] = []
    for shift in range(settings.rotations()):
        seated = rotation(settings.bots, shift)
        record = play_game(
            settings.game,
            seated,
            f"{settings.seed}-{deal}",
            settings.options,
            bot_seed=f"{settings.bot_seed}:{deal}:{shift}",
            move_seconds=settings.move_seconds,
        )
        out += seat_results(settings.game, record, seated, deal, shift)
    return out


def seat_results(
    game: str, record: GameRecord, seated: Sequence[str], deal: int, shift: int
) -> list[SeatResult]:
    """Each seat's result of one game (a game a bot ended counts against it)."""
    out = []
    for seat, name in enumerate(seated):
        culprit = seat in record.culprits
        if record.culprits:
            value = forfeit_value(game, len(seated), culprit)
        else:
            assert record.outcome is not None
            value = seat_value(game, record.outcome, seat)
        times = tuple(record.times[seat]) if record.times else ()
        note = record.note if culprit else ""
        ended = record.ended_by
        out.append(SeatResult(deal, shift, seat, name, value, times, ended, culprit, note))
    return out


def _import(modules: Sequence[str]) -> None:
    for module in modules:
        importlib.import_module(module)


def run(
    settings: Settings,
    games: int,
    *,
    workers: int = 1,
    imports: Sequence[str] = (),
    progress: Callable[[int], Any] | None = None,
) -> list[SeatResult]:
    """Play at least ``games`` games (whole deals: a multiple of the rotations)."""
    _import(imports)
    for name in set(settings.bots):
        get_bot(name, settings.game)  # an unknown bot fails here, before any process starts
    per_deal = settings.rotations()
    tasks = [(settings, d) for d in range(max(1, math.ceil(games / per_deal)))]
    if workers <= 1:
        return _collect(map(play_deal, tasks), per_deal, progress)
    with ProcessPoolExecutor(workers, initializer=_import, initargs=(list(imports),)) as pool:
        return _collect(pool.map(play_deal, tasks), per_deal, progress)


def _collect(
    parts: Iterable[list[SeatResult]], per_deal: int, progress: Callable[[int], Any] | None
) -> list[SeatResult]:
    results: list[SeatResult] = []
    for part in parts:
        results += part
        if progress:
            progress(per_deal)
    return results
