"""``cardroom arena``: duplicate deals, per-bot measures with intervals (scipy), ratings
(openskill), the games a bot ends counted against it and reported, bots' rngs independent of
the deals, JSON and a chart."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from scipy.stats import binomtest

from service.cli import main
from workers.arena import (
    SeatResult,
    Settings,
    mean_interval,
    play_game,
    rate_interval,
    ratings,
    rotation,
    run,
    seat_value,
    summarize,
)
from workers.bots.base import register_bot


@register_bot("arena_first")
class FirstBot:
    """Always the first legal action (deterministic, so duplicate deals repeat exactly)."""

    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        return dict(view["legal_actions"][0])


@register_bot("arena_swapper", "shithead")
class SwapperBot:
    """Swaps its cards before play forever (the docs' old example bot did)."""

    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        legal = view["legal_actions"]
        swaps = [a for a in legal if a["type"] == "swap"]
        return dict((swaps or legal)[0])


@register_bot("arena_crasher")
class CrasherBot:
    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        raise ValueError("no idea")


@register_bot("arena_cheat")
class CheatBot:
    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        return {"type": "play", "cards": ["AS", "AH", "AD"]}


@register_bot("arena_slow")
class SlowBot:
    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        time.sleep(0.5)
        return dict(view["legal_actions"][0])


def settings(bots: list[str], game: str = "sixty_six", **extra: object) -> Settings:
    return Settings(game=game, bots=tuple(bots), seed="t", bot_seed="b", **extra)  # type: ignore[arg-type]


def test_rotations_seat_every_bot_in_every_seat() -> None:
    bots = ["a", "b", "b", "b"]
    seatings = [rotation(bots, shift) for shift in range(4)]
    assert seatings[1] == ["b", "a", "b", "b"]
    assert sorted(s.index("a") for s in seatings) == [0, 1, 2, 3]


def test_a_rates_interval_is_scipys_wilson_interval_of_the_binomial() -> None:
    rate, low, high = rate_interval([1.0] * 7 + [0.0] * 13)
    wilson = binomtest(7, 20).proportion_ci(0.95, method="wilson")
    assert (rate, low, high) == (0.35, pytest.approx(wilson.low), pytest.approx(wilson.high))
    assert low == pytest.approx(0.1812, abs=1e-4) and high == pytest.approx(0.5671, abs=1e-4)


def test_a_mean_scores_interval_is_student_t_over_the_values() -> None:
    mean, low, high = mean_interval([0.0, 1.0, 1.0, 0.0])
    # t(0.975, 3 degrees of freedom) = 3.182446; standard error (1/3)**0.5 / 2
    assert mean == 0.5
    assert high - mean == pytest.approx(3.182446 * (1 / 3) ** 0.5 / 2, rel=1e-6)
    assert low == pytest.approx(1 - high)
    assert mean_interval([0.25]) == (0.25, 0.25, 0.25)


def test_seat_values_follow_each_games_measure() -> None:
    assert seat_value("sixty_six", {"winners": [1]}, 1) == 1.0
    assert seat_value("sixty_six", {"winners": [1]}, 0) == 0.0
    assert seat_value("shithead", {"loser": 2, "losers": [2]}, 2) == 0.0
    assert seat_value("shithead", {"loser": 2, "losers": [2]}, 0) == 1.0
    assert seat_value("sheepshead", {"totals": [6, -3, -3], "hands": 3}, 0) == 2.0


def test_the_better_bot_gets_the_higher_rating() -> None:
    results = [
        SeatResult(d, r, seat, bot, 1.0 if bot == "strong" else 0.0)
        for d in range(10)
        for r in range(2)
        for seat, bot in enumerate(["strong", "weak"] if r == 0 else ["weak", "strong"])
    ]
    rated = ratings(results)
    assert rated["strong"][0] > rated["weak"][0]


def test_duplicate_deals_give_a_mirror_match_even_results() -> None:
    results = run(settings(["arena_first", "random"]), 4)
    assert len({(r.deal, r.rotation) for r in results}) == 4
    for deal in (0, 1):  # the same cards, each bot in each seat
        assert {r.seat for r in results if r.bot == "random" and r.deal == deal} == {0, 1}
    summaries = {s.bot: s for s in summarize("sixty_six", results)}
    assert summaries["arena_first"].games == summaries["random"].games == 4
    # two-player matches with one winner each: the two win rates add up to one
    assert summaries["arena_first"].mean + summaries["random"].mean == pytest.approx(1.0)
    mirror = run(settings(["arena_first", "arena_first"]), 2)
    assert {r.value for r in mirror if r.rotation == 0} == {0.0, 1.0}
    assert summarize("sixty_six", mirror)[0].mean == pytest.approx(0.5)


def test_without_duplicate_each_deal_is_played_once_as_seated() -> None:
    results = run(settings(["arena_first", "random"], duplicate=False), 3)
    assert {(r.deal, r.rotation) for r in results} == {(0, 0), (1, 0), (2, 0)}
    assert {r.bot for r in results if r.seat == 0} == {"arena_first"}


def test_a_bot_that_loops_loses_the_games_the_action_limit_ends_and_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "arena.json"
    code = main(
        ["arena", "--game", "shithead", "--bots", "arena_swapper,heuristic", "--games", "2",
         "--options", '{"action_limit": 300}', "--seed", "loop", "--json", str(out), "--quiet",
         "--import", "tests.unit.workers.test_arena"]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr()
    swapper = json.loads(out.read_text())["bots"]["arena_swapper"]
    assert swapper["loops"] is True and swapper["ended_by_it"] == {"action_limit": 2}
    assert swapper["loser_rate"] == 1.0
    assert "it loops" in swapper["notes"][0] and "'swap'" in swapper["notes"][0]
    assert "arena_swapper: LOOPS" in printed.err and "counted as lost" in printed.err
    assert "LOOPS" in printed.out


@pytest.mark.parametrize(
    ("bot", "kind", "note"),
    [("arena_crasher", "crash", "raised ValueError: no idea"),
     ("arena_cheat", "fallback", "that the rules refuse")],
)  # fmt: skip
def test_a_bot_that_crashes_or_answers_illegally_ends_its_game_against_itself(
    bot: str, kind: str, note: str
) -> None:
    results = run(settings([bot, "heuristic"]), 2)
    mine = {s.bot: s for s in summarize("sixty_six", results)}
    assert mine[bot].mean == 0.0 and mine["heuristic"].mean == 1.0
    assert mine[bot].ended_by_it == {kind: 2} and not mine["heuristic"].ended_by_it
    assert note in mine[bot].notes[0]


def test_a_decision_past_the_time_limit_ends_the_game_against_its_bot() -> None:
    record = play_game("sixty_six", ["heuristic", "arena_slow"], "slow", move_seconds=0.05)
    assert (record.ended_by, record.culprits) == ("fallback", (1,))
    assert "longer than 0.05 s" in record.note


class PeekingBot:
    """Tries to recover the deal's seed from its rng, as an imported bot did: a bot seeded
    from the deal learns every card."""

    recovered: list[str] = []

    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        state = rng.getstate()
        for deal in range(4):
            for step in range(60):
                for seed in (f"t-{deal}:{view['seat']}:{step}",):
                    if random.Random(seed).getstate() == state:
                        PeekingBot.recovered.append(f"t-{deal}")
        return dict(view["legal_actions"][0])


register_bot("arena_peek")(PeekingBot)


def test_a_bots_rng_tells_nothing_about_the_deal() -> None:
    PeekingBot.recovered = []
    run(settings(["arena_peek", "heuristic"]), 4)
    assert PeekingBot.recovered == []


@pytest.mark.slow  # draws its chart with matplotlib
def test_the_command_prints_a_table_and_writes_json_and_a_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, chart = tmp_path / "arena.json", tmp_path / "deals.png"
    code = main(
        ["arena", "--game", "shithead", "--bots", "heuristic,random,random", "--games", "3",
         "--json", str(out), "--plot", str(chart), "--quiet",
         "--import", "tests.unit.workers.test_arena"]
    )  # fmt: skip
    assert code == 0
    assert "heuristic" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["measure"] == "not_loser" and data["duplicate"] is True
    assert len(data["seed"]) == 16 and len(data["bot_seed"]) == 16  # drawn, and recorded
    heuristic = data["bots"]["heuristic"]
    assert heuristic["games"] == 3 and data["bots"]["random"]["games"] == 3
    low, high = heuristic["interval95"]
    assert 0 <= low <= heuristic["not_loser"] <= high <= 1
    assert heuristic["per_deal"] == [heuristic["not_loser"]]  # one deal of three rotations
    assert heuristic["loser_rate"] == pytest.approx(1 - heuristic["not_loser"], abs=1e-3)
    assert heuristic["loser_interval95"] == pytest.approx([1 - high, 1 - low], abs=1e-3)
    assert set(heuristic["rating"]) == {"mu", "sigma", "ordinal"}
    assert 0 < heuristic["median_decision_ms"] <= heuristic["p90_decision_ms"]
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unknown_bot_fails_before_any_game() -> None:
    with pytest.raises(KeyError, match="no bot named"):
        run(settings(["heuristic", "nosuchbot"]), 2)
