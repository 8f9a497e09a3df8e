"""``cardroom arena``: duplicate deals, per-bot measures with intervals, ratings, JSON and PNG."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from service.cli import main
from workers.arena import SeatResult, mean_interval, ratings, rotation, run, seat_value, summarize
from workers.bots.base import register_bot


@register_bot("arena_first")
class FirstBot:
    """Always the first legal action (deterministic, so duplicate deals repeat exactly)."""

    def choose(self, view: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
        return dict(view["legal_actions"][0])


def test_rotations_seat_every_bot_in_every_seat() -> None:
    bots = ["a", "b", "b", "b"]
    seatings = [rotation(bots, shift) for shift in range(4)]
    assert seatings[1] == ["b", "a", "b", "b"]
    assert sorted(s.index("a") for s in seatings) == [0, 1, 2, 3]


def test_the_interval_is_the_normal_95_percent_one_over_the_values() -> None:
    mean, low, high = mean_interval([0.0, 1.0, 1.0, 0.0])
    assert mean == 0.5
    assert high - mean == pytest.approx(1.959964 * (1 / 3) ** 0.5 / 2)
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
    results = run("sixty_six", ["arena_first", "random"], 4, seed="t")
    assert len({(r.deal, r.rotation) for r in results}) == 4
    for deal in (0, 1):  # the same cards, each bot in each seat
        assert {r.seat for r in results if r.bot == "random" and r.deal == deal} == {0, 1}
    summaries = {s.bot: s for s in summarize("sixty_six", results)}
    assert summaries["arena_first"].games == summaries["random"].games == 4
    # two-player matches with one winner each: the two win rates add up to one
    assert summaries["arena_first"].mean + summaries["random"].mean == pytest.approx(1.0)
    mirror = run("sixty_six", ["arena_first", "arena_first"], 2, seed="t")
    assert {r.value for r in mirror if r.rotation == 0} == {0.0, 1.0}
    assert summarize("sixty_six", mirror)[0].mean == pytest.approx(0.5)


def test_the_command_prints_a_table_and_writes_json_and_a_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "arena.json"
    code = main(
        ["arena", "--game", "shithead", "--bots", "heuristic,random,random", "--games", "3",
         "--json", str(out), "--quiet", "--import", "tests.unit.workers.test_arena"]
    )  # fmt: skip
    assert code == 0
    assert "heuristic" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["measure"] == "not_loser"
    heuristic = data["bots"]["heuristic"]
    assert heuristic["games"] == 3 and data["bots"]["random"]["games"] == 3
    low, high = heuristic["interval95"]
    assert 0 <= low <= heuristic["not_loser"] <= high <= 1
    assert heuristic["per_deal"] == [heuristic["not_loser"]]  # one deal of three rotations
    assert heuristic["loser_rate"] == pytest.approx(1 - heuristic["not_loser"], abs=1e-3)
    assert heuristic["loser_interval95"] == pytest.approx([1 - high, 1 - low], abs=1e-3)
    assert set(heuristic["rating"]) == {"mu", "sigma", "ordinal"}
    assert 0 < heuristic["median_decision_ms"] <= heuristic["p90_decision_ms"]
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unknown_bot_fails_before_any_game() -> None:
    with pytest.raises(KeyError, match="no bot named"):
        run("sixty_six", ["heuristic", "nosuchbot"], 2)
