"""``cardroom arena``: named bots play each other on duplicate deals, in parallel processes.

One bot name per seat (``--bots search,heuristic`` is a two-player table). Games run in-process
on the pure domain (no service, no Redis), each bot seeing exactly what a seat sees: its view,
with its redacted history when it asks for it (``wants_history``), and an rng of its own that
is independent of the deal. ``play`` plays one game, ``runs`` a run of deals, ``scoring`` says
what counts, ``report`` prints and writes the results.

An imported bot runs inside the arena's processes: the arena keeps the deal out of what it is
given, but cannot stop code that inspects its own process. Strangers' bots play over HTTP.
"""

from workers.arena.play import GameRecord, looping_seats, play_game
from workers.arena.report import main, report
from workers.arena.runs import Settings, play_deal, rotation, run
from workers.arena.scoring import (
    METRICS,
    BotSummary,
    SeatResult,
    forfeit_value,
    mean_interval,
    rate_interval,
    ratings,
    seat_value,
    summarize,
)

__all__ = [
    "METRICS",
    "BotSummary",
    "GameRecord",
    "SeatResult",
    "Settings",
    "forfeit_value",
    "looping_seats",
    "main",
    "mean_interval",
    "play_deal",
    "play_game",
    "rate_interval",
    "ratings",
    "report",
    "rotation",
    "run",
    "seat_value",
    "summarize",
]
