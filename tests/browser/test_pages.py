"""What the table's pages say, in a real Chromium against real processes: every game before its
deal and at every step of the start of its replay, in words, never "undefined" or "NaN"."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.helpers import Watched
from tests.browser.test_table import OPEN
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e
BROKEN = re.compile(r"\bundefined\b|\bNaN\b|\bnull\b|\[object Object\]")
GAMES = [
    ("sixty_six", 2, {"game_target": 1}),
    ("shithead", 2, {"action_limit": 600}),
    ("sheepshead", 3, {"rounds": 1}),
]


def assert_in_words(page: Any, where: str) -> None:
    shown = page.inner_text("main")
    found = BROKEN.search(shown)
    assert found is None, f"{where}: {shown[max(0, found.start() - 300):found.end() + 100]!r}"


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_a_table_before_its_deal_says_who_it_waits_for(
    table_stack: Stack,
    pages: Callable[..., Watched],
    game: str,
    players: int,
    options: dict[str, Any],
) -> None:
    created = table_stack.create(game, [OPEN] + [BOT] * (players - 1), options=options)
    watched = pages()
    watched.goto(f"#/watch/{created['id']}")
    watched.page.wait_for_selector("#felt >> text=Waiting for the deal")
    assert "seat 0" in watched.page.inner_text("#felt")
    assert_in_words(watched.page, f"{game} before the deal")
    watched.screenshot(f"{game}-waiting")
    watched.assert_clean()


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_a_replay_opens_in_words_at_its_first_steps(
    table_stack: Stack,
    pages: Callable[..., Watched],
    game: str,
    players: int,
    options: dict[str, Any],
) -> None:
    created = table_stack.create(game, [BOT] * players, seed=f"words-{game}", options=options)
    summary = table_stack.wait_over(created["id"])
    watched = pages()
    page = watched.page
    watched.goto(f"#/replay/{created['id']}")
    for step in (1, 2, 3, 4, 5, 6, summary["version"]):
        page.locator("#replay-jump").fill(str(step))
        page.locator("#replay-jump").dispatch_event("change")
        page.wait_for_selector(f"#replay-step >> text=event {step} of")
        page.wait_for_selector(f'#table[data-step="{step}"] #felt')
        assert_in_words(page, f"{game} replay at event {step}")
    watched.screenshot(f"{game}-replay-end")
    watched.assert_clean()
