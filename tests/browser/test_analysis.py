"""Analysis in the browser (docs/analysis.md): the replay viewer shows the viewed seat's review
beside the steps, and "play on from here" forks the game at the step shown, as that seat, into
a game the person then plays to its end against bots."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.helpers import Watched, play_through
from tests.browser.test_table import take_seat
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e


def test_a_replay_is_reviewed_and_played_on_from_a_decision_as_its_seat(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    created = table_stack.create(
        "sixty_six", [BOT, BOT], seed="browser-analysis", options={"game_target": 1}
    )
    table_stack.wait_over(created["id"])
    watched = pages()
    page = watched.page
    watched.goto(f"#/replay/{created['id']}")
    page.wait_for_selector("#replay-step >> text=event 1 of")
    page.select_option("#replay-as", "0")
    page.click("#review-get")  # a worker makes it: the page asks again while it answers 202
    valued = page.locator("#review li button", has_text="cost")
    valued.first.wait_for(timeout=60_000)
    assert "decisions valued by the search bot" in page.inner_text("#analysis-status")
    version = int(valued.first.locator("xpath=..").get_attribute("data-version") or 0)
    valued.first.click()  # the replay moves to that decision
    page.wait_for_selector(f"#replay-step >> text=event {version} of")
    assert "as " in page.inner_text("#play-on")  # as the seat viewed
    page.click("#play-on")
    page.wait_for_url(lambda url: "#/game/" in url)
    fork_id = page.url.rsplit("/", 1)[1]
    assert fork_id != created["id"]
    summary = table_stack.http.get(f"{table_stack.base}/games/{fork_id}").json()
    assert summary["forked"] == {"source": created["id"], "version": version, "as": 0}
    assert summary["prearranged"] is False
    take_seat(watched, fork_id)
    clicks = play_through(watched)
    assert clicks, "the person made no move in the fork"
    assert table_stack.wait_over(fork_id)["outcome"] is not None
    watched.screenshot("analysis-fork-over")
    watched.assert_clean()
