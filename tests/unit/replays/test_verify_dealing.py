"""What the audit of a format 2 replay says it proved about the deal (the OK line's dealing
part), and the words of a revealed seed that is not the derived one: both name the seats that
sent their own entropy, one seat or several (docs/fairness.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from domain.fairness import chain_salt
from domain.lifecycle import Keys, create_command, lifecycle
from domain.protocol import fold
from domain.registry import get_game
from replays import Replay, check, read
from replays.format import build_replay
from replays.record import entries, record_fair_game
from tests.unit.lifecycle.test_receipts import rechain

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
SECRET = "11" * 32
KEYS = Keys(secret=SECRET)
DERIVED = "secret matches its commitment; seed derived from the secret and"


def played(game: str, players: int, bots: int) -> Replay:
    """A game whose seats ``0 .. bots-1`` the server filled; the others joined with their own
    entropy; the first seat awaited resigns (the game ends at once: the deal is what counts)."""
    entropy = [f"{seat + 2:02d}" * 32 for seat in range(players)]
    replay, _ = record_fair_game(get_game(game), "g-dealing", keys=Keys(secret=SECRET),
                                 entropy=entropy, choose=lambda *_: {"type": "resign"},
                                 bots=bots)  # fmt: skip
    return replay


@pytest.mark.parametrize(
    ("game", "players", "bots", "said"),
    [
        ("sixty_six", 2, 2, f"{DERIVED} 2 seats' entropy (the server drew all of it)"),
        ("sixty_six", 2, 1, f"{DERIVED} 2 seats' entropy (seat 1 sent their own)"),
        ("shithead", 3, 1, f"{DERIVED} 3 seats' entropy (seats 1, 2 sent their own)"),
    ],
    ids=["server", "one-seat", "two-seats"],
)
def test_the_report_says_who_drew_the_entropy_the_seed_is_derived_from(
    game: str, players: int, bots: int, said: str
) -> None:
    report = check(played(game, players, bots))
    assert report.ok, report.summary()
    assert report.dealing == said
    assert f"; {said}; " in report.summary()


def test_a_prearranged_game_is_said_to_be_so() -> None:
    replay = read(GOLDEN / "shithead-3p-variant-seeded.replay.json")
    assert replay.header.prearranged
    report = check(replay)
    assert report.ok, report.summary()
    assert report.dealing == (
        "PREARRANGED (chosen seed or explicit deal); secret matches its commitment"
    )


@pytest.mark.parametrize(
    ("players", "bots", "named"),
    [(2, 2, None), (2, 1, "seat 1"), (3, 1, "seats 1, 2"), (3, 0, "seats 0, 1, 2")],
)
def test_a_revealed_seed_other_than_the_derived_one_names_the_seats_whose_entropy_it_ignores(
    players: int, bots: int, named: str | None
) -> None:
    replay = played("shithead" if players == 3 else "sixty_six", players, bots)
    revealed = replay.events[-1]
    assert revealed.event["type"] == "lifecycle.SecretRevealed"
    forged = {**revealed.event, "seed": "4711"}
    batches = [replace(b, events=tuple(replace(e, event=forged) if e is revealed else e
                                       for e in b.events)) for b in replay.batches]  # fmt: skip
    report = check(rechain(replace(replay, batches=tuple(batches)), chain_salt(SECRET)))
    assert (report.ok, report.bad_version) == (False, revealed.version)
    said = f", the entropy {named} sent included" if named else ""
    assert report.reason == (
        f"the revealed seed is not the one derived from the secret and every seat's entropy{said}"
    )


def test_a_game_that_expired_unfilled_cannot_claim_a_chosen_seed() -> None:
    rules, filled = lifecycle(get_game("sixty_six")), [(0, "01" * 32)]
    created = rules.create(players=2, options={}, dealer=None, keys=KEYS, filled=filled)
    state = fold(rules, created)
    claimed = rules.expire(state, Keys(secret=SECRET, seed="4711"))  # no seed was ever derived
    command = create_command(players=2, options={}, dealer=None, filled=filled)
    stored = entries(rules, [(command, created), ({"kind": "expire"}, claimed)], chain_salt(SECRET))
    replay = build_replay("g-expired", stored, game="sixty_six",
                          outcome=rules.outcome(fold(rules, claimed, state)))  # fmt: skip
    assert (replay.header.prearranged, replay.header.seed) == (False, "4711")
    report = check(replay)
    assert (report.ok, report.bad_version) == (False, 1)
    assert report.reason == ("the rules produce a different lifecycle.GameCreated here "
                             "(prearranged: rules true, replay false)")  # fmt: skip
