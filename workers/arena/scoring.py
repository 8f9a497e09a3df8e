"""What the arena counts: a measure per seat and game, and per bot its mean with a 95 %
interval, its decision times, the games it ended, and an openskill rating.

Measures (``METRICS``): Sixty-Six a win (the match), Shithead not being the loser, Sheepshead
the score per hand. A game a bot ended (``GameRecord.culprits``: a crash, a fallback, a loop
the action limit stopped) counts as lost by it and won by every other seat: 0 for each culprit
and 1 for the others (Sixty-Six, Shithead); in Sheepshead -(players - 1) per hand for each
culprit and +1 per hand for the others, the base value of a hand lost alone.

Intervals (scipy): a rate's is the Wilson score interval of the binomial (wins over seat-games);
a mean score's is Student's t over the per-deal means (the rotations of one deal count once).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

METRICS = {"sixty_six": "win", "shithead": "not_loser", "sheepshead": "score_per_hand"}
CONFIDENCE = 0.95


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one game; ``ended_by`` names how a bot ended it (``culprit``: this one)."""

    deal: int
    rotation: int
    seat: int
    bot: str
    value: float
    decisions_ms: tuple[float, ...] = ()
    ended_by: str = "rules"
    culprit: bool = False
    note: str = ""


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
    ended_by_it: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def loops(self) -> bool:
        """Whether the action limit stopped a game this bot kept from ending."""
        return self.ended_by_it.get("action_limit", 0) > 0


def seat_value(game: str, outcome: dict[str, Any], seat: int) -> float:
    """The measure of one seat in a game its rules ended."""
    measure = METRICS.get(game, "win")
    if measure == "not_loser":
        return 0.0 if outcome.get("loser") == seat or seat in outcome.get("losers", []) else 1.0
    if measure == "score_per_hand":
        hands = max(1, int(outcome.get("hands") or 1))
        return float(outcome["totals"][seat]) / hands
    winners = outcome.get("winners") or []
    return 1.0 if seat in winners else (0.5 if not winners else 0.0)


def forfeit_value(game: str, players: int, culprit: bool) -> float:
    """The measure of a seat in a game a bot ended (see the module's docstring)."""
    if METRICS.get(game, "win") == "score_per_hand":
        return -(players - 1.0) if culprit else 1.0
    return 0.0 if culprit else 1.0


def summarize(game_name: str, results: Sequence[SeatResult]) -> list[BotSummary]:
    """Per bot name: games, mean measure with its interval, timing, games it ended, rating."""
    rate = METRICS.get(game_name, "win") != "score_per_hand"
    out = {name: _summary(name, [r for r in results if r.bot == name], rate)
           for name in sorted({r.bot for r in results})}  # fmt: skip
    for name, (mu, sigma, ordinal) in ratings(results).items():
        out[name].rating_mu, out[name].rating_sigma, out[name].rating = mu, sigma, ordinal
    return list(out.values())


def _summary(name: str, mine: Sequence[SeatResult], rate: bool) -> BotSummary:
    by_deal: dict[int, list[float]] = {}
    for r in mine:
        by_deal.setdefault(r.deal, []).append(r.value)
    summary = BotSummary(name, games=len({(r.deal, r.rotation) for r in mine}))
    summary.per_deal = [statistics.fmean(v) for _, v in sorted(by_deal.items())]
    values = [r.value for r in mine]
    if rate and all(v in (0.0, 1.0) for v in values):
        summary.mean, summary.low, summary.high = rate_interval(values)
    else:
        summary.mean, summary.low, summary.high = mean_interval(summary.per_deal)
    decisions = [t for r in mine for t in r.decisions_ms]
    summary.median_ms = statistics.median(decisions) if decisions else None
    if len(decisions) >= 2:
        summary.p90_ms = statistics.quantiles(decisions, n=10)[-1]
    for r in mine:
        if r.culprit:
            summary.ended_by_it[r.ended_by] = summary.ended_by_it.get(r.ended_by, 0) + 1
            if r.note not in summary.notes and len(summary.notes) < 3:
                summary.notes.append(r.note)
    return summary


def rate_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """A rate of 0/1 values and its 95 % Wilson interval (scipy's binomial test)."""
    from scipy.stats import binomtest

    if not values:
        return 0.0, 0.0, 0.0
    successes = int(sum(values))
    found = binomtest(successes, len(values)).proportion_ci(CONFIDENCE, method="wilson")
    return successes / len(values), float(found.low), float(found.high)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95 % Student-t interval (scipy; none for fewer than two values)."""
    from scipy.stats import t

    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) >= 2 else 0.0
    if spread == 0.0:
        return mean, mean, mean
    low, high = t.interval(CONFIDENCE, len(values) - 1, loc=mean,
                           scale=spread / math.sqrt(len(values)))  # fmt: skip
    return mean, float(low), float(high)


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
        rated = model.rate(teams, scores=[r.value for r in seats])
        updates: dict[str, list[tuple[float, float]]] = {}
        for r, team in zip(seats, rated, strict=True):
            updates.setdefault(r.bot, []).append((team[0].mu, team[0].sigma))
        for name, pairs in updates.items():
            mu = statistics.fmean(p[0] for p in pairs)
            sigma = statistics.fmean(p[1] for p in pairs)
            current[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {n: (r.mu, r.sigma, r.ordinal()) for n, r in current.items()}
