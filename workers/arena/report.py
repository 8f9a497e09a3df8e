"""``cardroom arena``'s output: a progress bar (rich), a table, a warning for every bot that
ended games (a loop the action limit stopped, a crash, a fallback), the JSON document and,
with ``--plot``, a chart of the per-deal results."""

from __future__ import annotations

import json
import math
import secrets
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workers.arena.runs import Settings, run
from workers.arena.scoring import METRICS, BotSummary, summarize

WHY = {"action_limit": "stopped by the action limit", "crash": "by crashing",
       "fallback": "by an illegal, late or no answer"}  # fmt: skip


def as_json(summary: BotSummary, measure: str) -> dict[str, Any]:
    """One bot's entry in the JSON document."""
    s = summary
    extra: dict[str, Any] = {}
    if measure == "not_loser":  # Shithead's own figure: how often the bot is the shithead
        extra = {"loser_rate": round(1 - s.mean, 4),
                 "loser_interval95": [round(1 - s.high, 4), round(1 - s.low, 4)]}  # fmt: skip
    return {
        "bot": s.bot,
        "games": s.games,
        "measure": measure,
        measure: round(s.mean, 4),
        "interval95": [round(s.low, 4), round(s.high, 4)],
        **extra,
        "ended_by_it": dict(s.ended_by_it),
        "loops": s.loops,
        "notes": list(s.notes),
        "median_decision_ms": None if s.median_ms is None else round(s.median_ms, 2),
        "p90_decision_ms": None if s.p90_ms is None else round(s.p90_ms, 2),
        "rating": {
            "ordinal": round(s.rating, 3),
            "mu": round(s.rating_mu, 3),
            "sigma": round(s.rating_sigma, 3),
        },
        "per_deal": [round(v, 6) for v in s.per_deal],  # runs on other seeds pool exactly
    }


def report(settings: Settings, summaries: Sequence[BotSummary], elapsed: float) -> dict[str, Any]:
    """The JSON document ``--json`` writes."""
    measure = METRICS.get(settings.game, "win")
    return {
        "game": settings.game,
        "measure": measure,
        "seed": settings.seed,
        "bot_seed": settings.bot_seed,
        "duplicate": settings.duplicate,
        "move_seconds": settings.move_seconds,
        "seconds": round(elapsed, 1),
        "bots": {s.bot: as_json(s, measure) for s in summaries},
    }


def warnings(summaries: Sequence[BotSummary]) -> list[str]:
    """One line per bot that ended games, saying how and counting them against it."""
    lines = []
    for s in summaries:
        if s.ended_by_it:
            ended = sum(s.ended_by_it.values())
            how = ", ".join(f"{n} {WHY[k]}" for k, n in sorted(s.ended_by_it.items()))
            loop = ": LOOPS" if s.loops else ""
            lines.append(f"{s.bot}{loop}: ended {ended} of its {s.games} games ({how}), "
                         f"counted as lost. First: {s.notes[0]}")  # fmt: skip
    return lines


def plot(game: str, summaries: Sequence[BotSummary], path: Path, title: str) -> None:
    """A PNG of the per-deal results: each bot's value per deal and its running mean."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    for s in summaries:
        deals = range(1, len(s.per_deal) + 1)
        points = ax.plot(deals, s.per_deal, "o", alpha=0.3, markersize=3)
        running = [statistics.fmean(s.per_deal[:i]) for i in deals]
        ax.plot(deals, running, "-", color=points[0].get_color(), label=f"{s.bot} (running mean)")
    ax.set_xlabel("deal")
    ax.set_ylabel(f"{METRICS.get(game, 'win')} per deal (mean over its rotations)")
    ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def settings_of(args: Any) -> Settings:
    """The run's settings from the command line (seeds drawn when not given, and printed)."""
    return Settings(
        game=args.game,
        bots=tuple(b.strip() for b in args.bots.split(",") if b.strip()),
        seed=args.seed or secrets.token_hex(8),
        bot_seed=args.bot_seed or secrets.token_hex(8),
        options=json.loads(args.options) if args.options else {},
        duplicate=not args.no_duplicate,
        move_seconds=args.move_seconds,
    )


def main(args: Any) -> int:
    """``cardroom arena`` (arguments parsed by service.cli)."""
    from rich.console import Console

    settings = settings_of(args)
    console = Console(stderr=True)
    started = time.monotonic()
    results = _play(settings, args, console)
    summaries = summarize(settings.game, results)
    Console().print(_table(settings, summaries, math.ceil(len(results) / len(settings.bots))))
    for line in warnings(summaries):
        console.print(f"[bold red]warning[/]: {line}", highlight=False)
    document = report(settings, summaries, time.monotonic() - started)
    if args.json:
        Path(args.json).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if args.plot:
        title = f"{settings.game}: {' vs '.join(settings.bots)}"
        plot(settings.game, summaries, Path(args.plot), title)
    return 0


def _play(settings: Settings, args: Any, console: Any) -> list[Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    per_deal = settings.rotations()
    total = max(1, math.ceil(args.games / per_deal)) * per_deal
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, disable=args.quiet) as bar:  # fmt: skip
        task = bar.add_task(f"{settings.game}: {' vs '.join(settings.bots)}", total=total)
        return run(settings, args.games, workers=args.workers, imports=args.imports,
                   progress=lambda n: bar.advance(task, n))  # fmt: skip


def _table(settings: Settings, summaries: Sequence[BotSummary], games: int) -> Any:
    from rich.table import Table

    losers = METRICS.get(settings.game, "win") == "not_loser"  # Shithead: how often the loser
    measure = "loser rate" if losers else METRICS.get(settings.game, "win")
    kind = "duplicate deals" if settings.duplicate else "single deals"
    table = Table(title=f"{settings.game}, {games} games on {kind}",
                  caption=f"seed {settings.seed}, bot seed {settings.bot_seed}")  # fmt: skip
    for column in ("bot", "games", measure, "95 % interval", "ended by it", "ms/move p50 p90",
                   "rating"):  # fmt: skip
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in summaries:
        mean, low, high = (1 - s.mean, 1 - s.high, 1 - s.low) if losers else (s.mean, s.low, s.high)
        ended = sum(s.ended_by_it.values())
        table.add_row(
            s.bot, str(s.games), f"{mean:.3f}", f"{low:.2f}-{high:.2f}",
            f"{ended}{' LOOPS' if s.loops else ''}",
            f"{_ms(s.median_ms)} {_ms(s.p90_ms)}",
            f"{s.rating_mu:.1f}±{s.rating_sigma:.1f}",
        )  # fmt: skip
    return table


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
