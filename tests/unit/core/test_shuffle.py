"""The shuffle is pinned forever by test vectors: any change is a compatibility break."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from domain import cards
from domain.shuffle import (
    SeededStream,
    deal_label,
    deck_commitment,
    iter_draws,
    seeded_choice,
    shuffled,
)

VECTORS = json.loads((Path(__file__).parents[2] / "vectors" / "shuffle.json").read_text())
DECKS = {
    "52": cards.deck_52,
    "54": cards.deck_54,
    "24": cards.deck_24,
    "20": cards.deck_20,
    "32": cards.deck_32,
}


@pytest.mark.parametrize("case", VECTORS["shuffles"], ids=lambda c: f"{c['deck']}-{c['label']}")
def test_shuffle_matches_the_published_vector(case: dict) -> None:
    deck = DECKS[case["deck"]]()
    assert list(deck) == case["canonical"]
    assert shuffled(deck, case["seed"], case["label"]) == case["shuffled"]
    assert deck_commitment(case["seed"], case["shuffled"]) == case["commitment"]


def test_draws_match_the_published_vector() -> None:
    v = VECTORS["draws"]
    assert list(iter_draws(v["seed"], v["label"], v["n"], len(v["draws"]))) == v["draws"]


def test_a_draw_is_the_first_eight_bytes_of_sha256_of_seed_label_counter() -> None:
    block = hashlib.sha256(b"cardroom\x00vector\x00" + (0).to_bytes(8, "big")).digest()
    x = int.from_bytes(block[:8], "big")
    limit = 2**64 - (2**64 % 6)
    assert x < limit
    assert SeededStream("cardroom", "vector").below(6) == x % 6


def test_rejection_sampling_discards_values_above_the_last_full_range() -> None:
    stream = SeededStream("s", "l")
    n = 2**63 + 1  # almost half of all 64-bit values must be rejected
    draws = [stream.below(n) for _ in range(20)]
    assert all(0 <= d < n for d in draws)


def test_shuffle_is_a_permutation_and_depends_on_seed_and_label() -> None:
    deck = cards.deck_52()
    a = shuffled(deck, "x", deal_label(0))
    assert sorted(a) == sorted(deck)
    assert a != shuffled(deck, "y", deal_label(0))
    assert a != shuffled(deck, "x", deal_label(1))
    assert a == shuffled(deck, "x", deal_label(0))


def test_shuffle_is_close_to_uniform_on_a_small_deck() -> None:
    counts = Counter(tuple(shuffled("abc", f"seed-{i}", "u")) for i in range(6000))
    assert len(counts) == 6
    assert all(850 < c < 1150 for c in counts.values())


def test_seeded_choice_is_reproducible_and_in_range() -> None:
    picks = {seeded_choice(f"s{i}", "dealer", 5) for i in range(200)}
    assert picks == set(range(5))
    assert seeded_choice("same", "dealer", 5) == seeded_choice("same", "dealer", 5)


def test_commitment_binds_seed_and_order() -> None:
    deck = list(cards.deck_24())
    c = deck_commitment("s", deck)
    assert c != deck_commitment("t", deck)
    assert c != deck_commitment("s", deck[1:] + deck[:1])
    expected = hashlib.sha256(b"s\x00" + ",".join(deck).encode()).hexdigest()
    assert c == expected
