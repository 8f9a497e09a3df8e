"""What the table's pages say, in a real Chromium against real processes: every game before its
deal and at every step of the start of its replay, in words, never "undefined" or "NaN"."""

from __future__ import annotations

import itertools
import json
import re
import statistics
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.helpers import (
    Watched,
    act_by_touch,
    preference,
    seat_view,
    wait_for_a_play,
    wait_for_turn,
)
from tests.browser.test_table import OPEN, take_seat
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e
PACE_MS = 400  # moves.js
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


def _one_deal_with_a_bot(
    table_stack: Stack, pages: Callable[..., Watched], seed: str
) -> tuple[str, Watched]:
    """A one-deal Sixty-Six, its open seat 0 against a bot, and a 1280x800 page (not yet open)."""
    created = table_stack.create("sixty_six", [OPEN, BOT], seed=seed, options={"game_target": 1})
    return created["id"], pages(1280, 800)


def test_the_move_list_tells_the_seats_events_one_after_another(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    game_id, watched = _one_deal_with_a_bot(table_stack, pages, "browser-moves")
    page = watched.page
    take_seat(watched, game_id)
    page.wait_for_selector("#moves li")
    page.evaluate("""() => {
        window.moveTimes = [];
        new MutationObserver(() => window.moveTimes.push(performance.now()))
            .observe(document.querySelector('#moves'), { childList: true });
    }""")
    for _ in range(4):  # the person's moves, each answered by the bot
        wait_for_turn(table_stack, game_id, seat=0)
        seen = seat_view(watched)
        legal = [a for a in seen["view"]["legal_actions"] if a["type"] not in ("declare_out",)]
        if not legal:
            break
        page.wait_for_function("v => document.querySelector('#version').textContent === String(v)",
                               arg=seen["version"])
        act_by_touch(page, min(legal, key=preference))
        page.wait_for_function("v => document.querySelector('#version').textContent !== String(v)",
                               arg=seen["version"])
    wait_for_turn(table_stack, game_id, seat=0)
    token = json.loads(page.evaluate(f"localStorage.getItem('cardroom.seat.{game_id}')"))["token"]
    items = table_stack.http.get(
        f"{table_stack.base}/games/{game_id}/events?after=0&limit=1000",
        headers={"Authorization": f"Bearer {token}"},
    ).json()["events"]
    told = [(str(i["version"]), i["text"]) for i in items if i["text"]]
    page.wait_for_function("n => document.querySelectorAll('#moves li').length >= n",
                           arg=len(told))
    shown = page.locator("#moves li").evaluate_all(
        "lis => lis.map(li => [li.dataset.version, li.textContent])"
    )
    assert [tuple(s) for s in shown] == told
    for item in items:  # every card played is in the words of its move, with the player's name
        if item["event"]["type"] == "sixty_six.CardPlayed":
            words = dict(told)[str(item["version"])]
            assert item["event"]["card"] in words
            assert words.startswith("alice" if item["event"]["seat"] == 0 else "heuristic")
    times = page.evaluate("window.moveTimes")
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    if table_stack.summary(game_id)["status"] != "over":  # at the end the rest shows at once
        # one move at a time, at one pace: the observer's callback runs after whatever else the
        # page's microtasks were doing when a move was shown (a redraw), so under load a single
        # gap reads short by that much; the pace itself is in the median
        assert gaps and statistics.median(gaps) >= PACE_MS - 20, gaps
        assert min(gaps) >= PACE_MS * 0.75, gaps
    watched.assert_clean()


def test_a_table_has_what_every_card_site_has(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    game_id, watched = _one_deal_with_a_bot(table_stack, pages, "browser-basics")
    page = watched.page
    watched.goto(f"#/game/{game_id}")
    invite = page.locator("#invite-link")  # an open seat: a link to send
    assert invite.input_value().endswith(f"/#/game/{game_id}")
    take_seat(watched, game_id)
    page.wait_for_selector("#invite", state="hidden")  # every seat taken
    wait_for_a_play(page)
    assert page.title().startswith("\u25cf Your turn")  # the tab says whose turn it is
    page.click("#sound")  # the tone can be muted, and stays so in this browser
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('cardroom.mute')") == "1"
    declare = page.locator('#actions button.action[data-action=\'{"type":"declare_out"}\']')
    version = table_stack.summary(game_id)["version"]
    declare.click()  # a costly move is asked twice
    assert "Really declare out" in declare.inner_text()
    assert table_stack.summary(game_id)["version"] == version
    watched.goto()  # the lobby marks the person's own games
    mine = page.locator(f'#games-playing li[data-game="{game_id}"]')
    mine.wait_for()
    assert "mine" in (mine.get_attribute("class") or "") and "your seat 0" in mine.inner_text()
    page.select_option("#create-game", "sheepshead")  # the server's bots are suggested
    suggested = page.locator("#bot-names option").evaluate_all("os => os.map(o => o.value)")
    assert "search" in suggested
    watched.goto(f"#/game/{game_id}")
    resign = page.locator("#lifecycle #resign")
    resign.click()
    resign.click()
    page.locator("#game-over").wait_for()  # the sheet, under the outcome
    assert "resigned" in page.inner_text("#outcome")
    assert page.locator("#play-panel").is_hidden()  # no hand to play at the end
    page.click("#rematch")  # the same game and seats, the person seated again
    page.wait_for_function("id => !location.hash.endsWith(id)", arg=game_id)
    page.wait_for_selector('#felt .seat.me[data-seat="0"]')
    again = table_stack.summary(page.url.rsplit("/", 1)[1])
    assert again["game"] == "sixty_six" and again["options"]["game_target"] == 1
    assert again["seats"][1]["bot"] == "heuristic" and again["seats"][0]["type"] == "human"
    watched.assert_clean()
