"""The samplers' seeded draws (domain.worlds.SeededDraws): the documented stream, the same on
every machine and Python version."""

from __future__ import annotations

from collections import Counter

from domain.shuffle import shuffled
from domain.worlds import SeededDraws

CARDS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]


def test_a_seeded_shuffle_is_the_documented_shuffle() -> None:
    drawn = list(CARDS)
    SeededDraws("cardroom", "deal/0").shuffle(drawn)
    assert drawn == shuffled(CARDS, "cardroom", "deal/0")


def test_seeded_draws_are_pinned() -> None:
    draws = SeededDraws("cardroom", "cardroom/fork-world")
    assert draws.choices(["a", "b", "c"], weights=[1, 2, 3], k=6) == [
        "c", "a", "c", "c", "b", "b"]  # fmt: skip
    assert draws.sample(CARDS, 3) == ["7C", "5C", "3C"]


def test_weighted_choices_follow_their_weights() -> None:
    counts = Counter(SeededDraws("w", "x").choices(["a", "b"], weights=[1, 3], k=4000))
    assert 0.7 < counts["b"] / 4000 < 0.8
    assert SeededDraws("w", "x").choices(["a", "b"], weights=[0, 5], k=50) == ["b"] * 50
