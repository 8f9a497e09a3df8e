"""``cardroom arena``: named bots play each other on duplicate deals, in parallel processes.

One bot name per seat (``--bots search,heuristic`` is a two-player table). Each *deal* (a seed)
is played once per rotation of the seats, so every bot sits in every seat of the same cards:
luck of the deal cancels out. Games run in-process on the pure domain (no service, no Redis),
each bot seeing exactly what a seat sees: its view, with its redacted history when it asks for
it (``wants_history``).

What counts per game and seat (``METRICS``): Sixty-Six a win (the match), Shithead not being
the loser, Sheepshead the score per hand. Per bot name: the games played, the mean of that
measure with a 95 % interval (normal, over the per-deal means, so the rotations of one deal
count once), the median time per decision, and an openskill (Plackett-Luce) rating over all
games in deal order.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.events import canonical_json
from domain.protocol import Setup, fold
from domain.registry import get_game
from workers.bots.base import RandomBot, get_bot, is_wait

Z95 = 1.959964
# game -> (measure, how a seat's value is read from the outcome)
METRICS = {"sixty_six": "win", "shithead": "not_loser", "sheepshead": "score_per_hand"}


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one game."""

    deal: int
    rotation: int
    seat: int
    bot: str
    value: float
    decisions_ms: tuple[float, ...] = ()


@dataclass
class BotSummary:
    """The aggregate of one bot name."""

    bot: str
    games: int = 0
    mean: float = 0.0
    low: float = 0.0
    high: float = 0.0
    median_ms: float | None = None
    p90_ms: float | None = None
    rating: float = 0.0
    rating_mu: float = 0.0
    rating_sigma: float = 0.0
    per_deal: list[float] = field(default_factory=list)

    def as_json(self, measure: str) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if measure == "not_loser":  # Shithead's own figure: how often the bot is the shithead
            extra = {
                "loser_rate": round(1 - self.mean, 4),
                "loser_interval95": [round(1 - self.high, 4), round(1 - self.low, 4)],
            }
        return {
            "bot": self.bot,
            "games": self.games,
            "measure": measure,
            measure: round(self.mean, 4),
            "interval95": [round(self.low, 4), round(self.high, 4)],
            **extra,
            "median_decision_ms": None if self.median_ms is None else round(self.median_ms, 2),
            "p90_decision_ms": None if self.p90_ms is None else round(self.p90_ms, 2),
            "rating": {
                "ordinal": round(self.rating, 3),
                "mu": round(self.rating_mu, 3),
                "sigma": round(self.rating_sigma, 3),
            },
            "per_deal": [round(v, 6) for v in self.per_deal],  # runs on other seeds pool exactly
        }


def seat_value(game: str, outcome: dict[str, Any], seat: int) -> float:
    """The measure of one seat in a finished game."""
    measure = METRICS.get(game, "win")
    if measure == "not_loser":
        return 0.0 if outcome.get("loser") == seat or seat in outcome.get("losers", []) else 1.0
    if measure == "score_per_hand":
        hands = max(1, int(outcome.get("hands") or 1))
        return float(outcome["totals"][seat]) / hands
    winners = outcome.get("winners") or []
    return 1.0 if seat in winners else (0.5 if not winners else 0.0)


def rotation(bots: Sequence[str], shift: int) -> list[str]:
    """The bots seated for a rotation: the list shifted right by ``shift``."""
    n = len(bots)
    return [bots[(seat - shift) % n] for seat in range(n)]


def play_game(
    game_name: str,
    seats: Sequence[str],
    seed: str,
    options: dict[str, Any] | None = None,
    max_actions: int = 20000,
) -> tuple[dict[str, Any], list[list[float]]]:
    """One game between the seated bots; the outcome and each seat's decision times (ms)."""
    game = get_game(game_name)
    bots = [get_bot(name, game_name) for name in seats]
    history_for = [bool(getattr(b, "wants_history", False)) for b in bots]
    events = game.start(Setup(players=len(seats), seed=seed, options=dict(options or {})))
    state = fold(game, events)
    histories: list[list[Any]] = [[] for _ in seats]
    times: list[list[float]] = [[] for _ in seats]

    def remember(new: Iterable[Any]) -> None:
        for event in new:
            for seat, wanted in enumerate(history_for):
                if wanted:
                    histories[seat].append(json.loads(canonical_json(game.redact(event, seat))))

    remember(events)
    for step in range(max_actions):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome, times
        moved = False
        for seat in game.awaited_seats(state):  # as the service asks bots: awaited seats only
            view = json.loads(canonical_json(game.view(state, seat)))
            if not view["legal_actions"]:
                continue
            if history_for[seat]:
                view["history"] = histories[seat]
            rng = random.Random(f"{seed}:{seat}:{step}")
            started = time.perf_counter()
            action = bots[seat].choose(view, rng)
            times[seat].append((time.perf_counter() - started) * 1000)
            if is_wait(action):
                continue
            try:
                new = game.decide(state, seat, action)
            except Exception:  # an illegal answer is replaced, as the job runner does
                new = game.decide(state, seat, RandomBot().choose(view, rng))
            state = fold(game, new, state)
            remember(new)
            moved = True
            break
        if not moved:
            raise RuntimeError(f"no seat moved in {game_name} at step {step} (seed {seed})")
    raise RuntimeError(f"{game_name} did not end within {max_actions} actions (seed {seed})")


def play_deal(task: tuple[str, list[str], int, str, dict[str, Any]]) -> list[SeatResult]:
    """Every rotation of one deal (a worker process's unit of work)."""
    game_name, bots, deal, base_seed, options = task
    out: list[SeatResult] = []
    for shift in range(len(bots)):
        seated = rotation(bots, shift)
        outcome, times = play_game(game_name, seated, f"{base_seed}-{deal}", options)
        for seat, name in enumerate(seated):
            value = seat_value(game_name, outcome, seat)
            out.append(SeatResult(deal, shift, seat, name, value, tuple(times[seat])))
    return out


def _init_worker(imports: Sequence[str]) -> None:
    for module in imports:
        importlib.import_module(module)


def run(
    game_name: str,
    bots: Sequence[str],
    games: int,
    *,
    workers: int = 1,
    seed: str = "arena",
    options: dict[str, Any] | None = None,
    imports: Sequence[str] = (),
    progress: Any = None,
) -> list[SeatResult]:
    """Play at least ``games`` games (whole deals: a multiple of the seat count)."""
    _init_worker(imports)
    for name in set(bots):
        get_bot(name, game_name)  # an unknown bot fails here, before any process starts
    deals = max(1, math.ceil(games / len(bots)))
    tasks = [(game_name, list(bots), d, seed, dict(options or {})) for d in range(deals)]
    results: list[SeatResult] = []
    if workers <= 1:
        for task in tasks:
            results += play_deal(task)
            if progress:
                progress(len(bots))
        return results
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(list(imports),)) as pool:
        for part in pool.map(play_deal, tasks):
            results += part
            if progress:
                progress(len(bots))
    return results


def summarize(game_name: str, results: Sequence[SeatResult]) -> list[BotSummary]:
    """Per bot name: games, mean measure with a 95 % interval over deals, timing, rating."""
    names = sorted({r.bot for r in results})
    out = {n: BotSummary(n) for n in names}
    for name in names:
        mine = [r for r in results if r.bot == name]
        by_deal: dict[int, list[float]] = {}
        for r in mine:
            by_deal.setdefault(r.deal, []).append(r.value)
        per_deal = [statistics.fmean(v) for _, v in sorted(by_deal.items())]
        summary = out[name]
        summary.games = len({(r.deal, r.rotation) for r in mine})
        summary.per_deal = per_deal
        summary.mean, summary.low, summary.high = mean_interval(per_deal)
        if METRICS.get(game_name, "win") != "score_per_hand":  # a rate stays within 0..1
            summary.low, summary.high = max(0.0, summary.low), min(1.0, summary.high)
        decisions = [t for r in mine for t in r.decisions_ms]
        summary.median_ms = statistics.median(decisions) if decisions else None
        if len(decisions) >= 2:
            summary.p90_ms = statistics.quantiles(decisions, n=10)[-1]
    for name, (mu, sigma, ordinal) in ratings(results).items():
        out[name].rating_mu, out[name].rating_sigma, out[name].rating = mu, sigma, ordinal
    return [out[n] for n in names]


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95 % normal interval (the half-width is 0 for fewer than two values)."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def ratings(results: Sequence[SeatResult]) -> dict[str, tuple[float, float, float]]:
    """openskill Plackett-Luce ratings per bot name, games in (deal, rotation) order.

    Several seats with the same bot each play with that bot's rating; its new rating is the
    mean of their updates.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in {r.bot for r in results}}
    games: dict[tuple[int, int], list[SeatResult]] = {}
    for r in results:
        games.setdefault((r.deal, r.rotation), []).append(r)
    for key in sorted(games):
        seats = sorted(games[key], key=lambda r: r.seat)
        teams = [[model.rating(mu=current[r.bot].mu, sigma=current[r.bot].sigma)] for r in seats]
        scores = [r.value for r in seats]
        rated = model.rate(teams, scores=scores)
        updates: dict[str, list[tuple[float, float]]] = {}
        for r, team in zip(seats, rated, strict=True):
            updates.setdefault(r.bot, []).append((team[0].mu, team[0].sigma))
        for name, pairs in updates.items():
            mu = statistics.fmean(p[0] for p in pairs)
            sigma = statistics.fmean(p[1] for p in pairs)
            current[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {n: (r.mu, r.sigma, r.ordinal()) for n, r in current.items()}


def report(game_name: str, summaries: Sequence[BotSummary], elapsed: float) -> dict[str, Any]:
    """The JSON document ``--json`` writes."""
    measure = METRICS.get(game_name, "win")
    return {
        "game": game_name,
        "measure": measure,
        "seconds": round(elapsed, 1),
        "bots": {s.bot: s.as_json(measure) for s in summaries},
    }


def plot(summaries: Sequence[BotSummary], path: Path, title: str) -> None:
    """A PNG of the ratings (mu with a bar of three sigma either side)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 1.2 + 0.5 * len(summaries)))
    names = [s.bot for s in summaries]
    ax.errorbar(
        [s.rating_mu for s in summaries],
        range(len(names)),
        xerr=[3 * s.rating_sigma for s in summaries],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("openskill rating (mu ± 3 sigma)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def main(args: Any) -> int:
    """``cardroom arena`` (arguments parsed by service.cli)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    options = json.loads(args.options) if args.options else {}
    console = Console(stderr=True)
    started = time.monotonic()
    deals = max(1, math.ceil(args.games / len(bots)))
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=args.quiet,
    ) as bar:
        task = bar.add_task(f"{args.game}: {' vs '.join(bots)}", total=deals * len(bots))
        results = run(
            args.game,
            bots,
            args.games,
            workers=args.workers,
            seed=args.seed,
            options=options,
            imports=args.imports,
            progress=lambda n: bar.advance(task, n),
        )
    elapsed = time.monotonic() - started
    summaries = summarize(args.game, results)
    measure = METRICS.get(args.game, "win")
    table = Table(title=f"{args.game}, {deals} deals x {len(bots)} seats, seed {args.seed!r}")
    losers = measure == "not_loser"  # Shithead's table shows how often a bot is the shithead
    for column in ("bot", "games", "loser rate" if losers else measure, "95 % interval",
                   "median ms/move", "p90 ms", "rating"):  # fmt: skip
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in summaries:
        mean, low, high = (1 - s.mean, 1 - s.high, 1 - s.low) if losers else (s.mean, s.low, s.high)
        table.add_row(
            s.bot,
            str(s.games),
            f"{mean:.3f}",
            f"{low:.3f} .. {high:.3f}",
            "-" if s.median_ms is None else f"{s.median_ms:.1f}",
            "-" if s.p90_ms is None else f"{s.p90_ms:.1f}",
            f"{s.rating_mu:.1f} ± {s.rating_sigma:.1f}",
        )
    Console().print(table)
    document = report(args.game, summaries, elapsed)
    if args.json:
        Path(args.json).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    plot_path = args.plot or (str(Path(args.json).with_suffix(".png")) if args.json else None)
    if plot_path:
        plot(summaries, Path(plot_path), f"{args.game}: {' vs '.join(bots)}")
    return 0
