"""Post-game reviews (docs/analysis.md): each decision of a seat valued by the search bot from
that seat's view then, the same for the same seed, and a planted blunder (a Sixty-Six seat that
throws away a trump marriage) marked as the costliest decision."""

from __future__ import annotations

from typing import Any

import pytest

from domain.events import canonical_json
from service.games import GameService
from service.store import InMemoryEventStore
from tests.support.api import make_app
from tests.support.moments import moments
from workers.jobs import play_one_turn
from workers.process import use_service
from workers.review import COSTLY, review_game, review_job

SEARCH = {"type": "bot", "bot": "search"}
HEURISTIC = {"type": "bot", "bot": "heuristic"}


def play(svc: GameService, game_id: str, blunder: bool = False) -> int | None:
    """Bots play the game out; with ``blunder`` seat 0's first trump marriage is thrown away
    (its card led without declaring it). The version the blunder was made at."""
    planted = None
    for _ in range(5000):
        loaded = svc.load(game_id)
        if loaded.over:
            return planted
        seat = loaded.game.awaited_seats(loaded.state)[0]
        if blunder and planted is None and seat == 0:
            trump = loaded.state.inner.deal.trump_card[1]
            marriages = [a for a in loaded.game.legal_actions(loaded.state, 0)
                         if a["type"] == "marriage" and a["cards"][0][1] == trump]  # fmt: skip
            if marriages:
                thrown = {"type": "play", "cards": marriages[0]["cards"]}
                svc.submit_action(game_id, 0, thrown, loaded.version)
                planted = loaded.version
                continue
        play_one_turn(svc, game_id, seat, loaded.version)
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def blundered() -> tuple[GameService, str, int]:
    svc = GameService(InMemoryEventStore())
    game_id = svc.create_game("sixty_six", [SEARCH, HEURISTIC], seed="blunder-0",
                              idempotency_key="review-blunder-0")["id"]  # the bots' draws
    planted = play(svc, game_id, blunder=True)
    assert planted is not None
    return svc, game_id, planted


def without_timing(review: dict[str, Any]) -> str:
    return canonical_json([{k: v for k, v in d.items() if k != "ms"}
                           for d in review["decisions"]])  # fmt: skip


@pytest.mark.slow  # a whole Sixty-Six game reviewed by the search bot (the fixture)
def test_a_thrown_away_trump_marriage_is_the_costliest_decision(
    blundered: tuple[GameService, str, int],
) -> None:
    svc, game_id, planted = blundered
    review = review_game(svc, game_id, 0)
    assert review["costliest"] == planted
    decision = next(d for d in review["decisions"] if d["version"] == planted)
    assert decision["costly"] and decision["cost"] > COSTLY["sixty_six"]
    values = {canonical_json(a["action"]): a["value"] for a in decision["alternatives"]}
    declared = {"type": "marriage", "cards": decision["played"]["cards"]}
    assert values[canonical_json(declared)] == max(values.values())  # declaring it was best
    assert values[canonical_json(decision["played"])] == pytest.approx(
        max(values.values()) - decision["cost"], abs=1e-3)
    assert all(d["cost"] is None or d["cost"] >= 0 for d in review["decisions"])


@pytest.mark.slow  # a whole Sixty-Six game reviewed by the search bot (the fixture)
def test_a_review_is_the_same_for_the_same_seed(blundered: tuple[GameService, str, int]) -> None:
    svc, game_id, _ = blundered
    first = review_game(svc, game_id, 1, seed="s", worlds=4)
    again = review_game(svc, game_id, 1, seed="s", worlds=4)
    other = review_game(svc, game_id, 1, seed="t", worlds=4)
    assert without_timing(first) == without_timing(again)
    assert without_timing(first) != without_timing(other)
    assert first["worlds"] == 4 and first["seat"] == 1


@pytest.mark.parametrize("name,players", [("shithead", 3), ("sheepshead", 3)])
def test_the_other_games_are_reviewed_too(name: str, players: int) -> None:
    svc = GameService(InMemoryEventStore())
    game_id = svc.create_game(name, [HEURISTIC] * players, seed=f"review-{name}")["id"]
    play(svc, game_id)
    review = review_game(svc, game_id, 0, worlds=2)
    valued = [d for d in review["decisions"] if d["cost"] is not None]
    assert valued, "no decision of seat 0 was valued"
    for decision in valued:
        assert decision["cost"] >= 0
        assert decision["played"] in [a["action"] for a in decision["alternatives"]]


@pytest.mark.slow  # a whole Sixty-Six game reviewed by the search bot (the fixture)
def test_the_job_keeps_the_review_with_the_game(blundered: tuple[GameService, str, int]) -> None:
    svc, game_id, planted = blundered
    use_service(svc)
    try:
        assert review_job(game_id, 0).startswith("reviewed")
    finally:
        use_service(None)
    kept = svc.review(game_id, 0)
    assert kept[0] == 200 and kept[1]["costliest"] == planted


def test_a_forks_review_values_its_seat_from_what_it_knew_before_the_fork() -> None:
    svc = GameService(InMemoryEventStore())
    source = svc.create_game("shithead", [HEURISTIC] * 3, seed="review-fork",
                             idempotency_key="review-fork")["id"]  # the same game each run
    play(svc, source)
    rules = svc.load(source).game
    decisions = [version for version, state, _ in moments(svc, source)
                 if state.inner is not None and rules.outcome(state) is None
                 and state.inner.phase == "play" and 0 in rules.awaited_seats(state)]  # fmt: skip
    fork = svc.fork_game(source, at=decisions[len(decisions) // 2], view_as=0,
                         seats=[HEURISTIC] * 3)  # fmt: skip
    play(svc, fork["id"])
    review = review_game(svc, fork["id"], 0, worlds=2)
    valued = [d for d in review["decisions"] if d["cost"] is not None]
    assert valued and len(valued) == len([d for d in review["decisions"]
                                          if d["played"]["type"] != "flip"])  # fmt: skip


class Reviews:
    """A scheduler whose review queue only records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    def after_append(self, *args: Any, **kwargs: Any) -> None:
        return None

    def enqueue_review(self, game_id: str, seat: int) -> bool:
        self.asked.append((game_id, seat))
        return True


def test_the_api_answers_202_until_the_review_is_kept_then_the_review() -> None:
    store = InMemoryEventStore()
    queue = Reviews()
    app = make_app(store, scheduler=queue)
    svc = app.extensions["cardroom"]
    client = app.test_client()
    game_id = client.post("/games", json={"game": "sixty_six", "seats": [HEURISTIC, HEURISTIC],
                                          "seed": "api-review"}).json["id"]  # fmt: skip
    live = client.get(f"/games/{game_id}/review?seat=0")
    assert live.status_code == 409 and live.json["code"] == "game_not_over"
    play(svc, game_id)
    pending = client.get(f"/games/{game_id}/review?seat=0")
    assert pending.status_code == 202 and pending.json["status"] == "running"
    assert pending.headers["Retry-After"] == "2"
    assert queue.asked == [(game_id, 0)]
    store.put_review(game_id, 0, canonical_json(review_game(svc, game_id, 0, worlds=2)))
    done = client.get(f"/games/{game_id}/review?seat=0")
    assert done.status_code == 200 and done.json["seat"] == 0 and done.json["decisions"]
    bad = client.get(f"/games/{game_id}/review?seat=7")
    assert bad.status_code == 422 and bad.json["code"] == "invalid_field"
