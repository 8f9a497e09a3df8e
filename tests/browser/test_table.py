"""The browser table, in a real Chromium against real processes (gunicorn + RQ workers + Redis).

For each game a person plays a whole game through the page against bots until the outcome
shows; a spectator page sees live updates; a replay is stepped through to the end; /docs lists
every operation. Every page is checked for requests to other hosts and console errors, and each
game's table is saved as a screenshot under test-artifacts/screenshots/ (git-ignored).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.helpers import (
    Watched,
    act_by_touch,
    action_cards,
    play_through,
    seat_view,
    wait_for_a_play,
    wait_for_turn,
)
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e
OPEN = {"type": "open"}


def take_seat(watched: Any, game_id: str, name: str = "alice", seat: int = 0) -> None:
    watched.goto(f"#/game/{game_id}")
    watched.page.fill("#join-name", name)
    watched.page.click(f'button[data-join="{seat}"]')
    # seated, or a refusal in words (which then names the cause of the failure)
    watched.page.wait_for_selector(f'#felt .seat.me[data-seat="{seat}"], #join-error:not(:empty)')
    assert watched.page.locator("#join-error:not(:empty)").count() == 0, \
        watched.page.inner_text("#join-error")
    watched.page.wait_for_selector(f'#felt .seat.me[data-seat="{seat}"]')


def test_sixty_six_created_in_the_lobby_joined_reloaded_and_played_to_the_end(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    watched = pages()
    page = watched.page
    watched.goto()
    page.select_option("#create-game", "sixty_six")
    page.click("#create summary")  # the options are folded away by default
    assert page.input_value("#opt-game_target") == "7"  # every option shows its default
    assert "game points that win the match" in page.inner_text("#opt-game_target-help")
    page.fill("#opt-game_target", "0")
    page.fill("#create-seed", "browser-sixty-six")
    page.click("#create button[type=submit]")
    error = page.locator("#opt-game_target-error")
    error.wait_for()
    page.wait_for_function("() => document.querySelector('#opt-game_target-error').textContent")
    assert "at least 1" in error.inner_text()  # the server's refusal, next to its field
    watched.screenshot("lobby-refused-option")
    page.fill("#opt-game_target", "1")  # one deal
    page.click("#create button[type=submit]")
    page.wait_for_url("**/#/game/*")
    game_id = page.url.rsplit("/", 1)[1]
    assert table_stack.summary(game_id)["options"]["game_target"] == 1
    take_seat(watched, game_id)
    page.reload()  # the token kept in localStorage rejoins the seat
    page.wait_for_selector('#felt .seat.me[data-seat="0"]')
    assert "Playing seat 0" in page.inner_text("main")
    page.wait_for_selector("#felt >> text=Trump")
    # keyboard: a card whose only legal action is playing it is played by Space, and the
    # focus stays in the hand
    wait_for_a_play(page)
    seen = seat_view(watched)
    page.wait_for_function("v => document.querySelector('#version').textContent === String(v)",
                           arg=seen["version"])
    legal = seen["view"]["legal_actions"]
    alone = [c for a in legal if a["type"] == "play" for c in a["cards"]
             if sum(c in action_cards(b) for b in legal) == 1]  # fmt: skip
    assert alone, legal
    page.locator(f'#hand button.card[data-card="{alone[0]}"]').focus()
    page.keyboard.press("Space")
    page.wait_for_function("v => Number(document.querySelector('#version').textContent) > v",
                           arg=seen["version"])
    assert page.locator(f'#hand button.card[data-card="{alone[0]}"]').count() == 0
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
    watched.screenshot("sixty_six-table")
    assert play_through(watched)
    summary = table_stack.wait_over(game_id)
    assert summary["outcome"]["reason"] == "finished"
    assert "Game over" in page.inner_text("#outcome")
    watched.screenshot("sixty_six-over")
    watched.assert_clean("status of 422")  # the refused creation above


SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("shithead", [OPEN, BOT], {"action_limit": 600}),
        ("sheepshead", [OPEN, BOT, BOT], {"rounds": 1, "first_dealer": 2}),  # seat 0 picks first
        ("sixty_six", [OPEN, BOT], {"game_target": 1}),
    ],
)
def test_a_person_plays_a_whole_game_against_bots_by_touching_cards(
    table_stack: Stack,
    pages: Callable[..., Watched],
    game: str,
    seats: list[dict],
    options: dict,
    size: str,
) -> None:
    created = table_stack.create(game, seats, seed=f"browser-{game}", options=options)
    width, height = SIZES[size]
    watched = pages(width, height)
    take_seat(watched, created["id"])
    assert page_width_with_a_long_last_action(watched) <= width  # the window's: it wraps
    clicks = play_through(watched, shots=f"{game}-{size}")
    summary = table_stack.wait_over(created["id"])
    assert clicks and summary["outcome"]["reason"] == "finished"
    if game == "sheepshead":  # the person picked and buried a pair chosen in the hand
        assert [a["type"] for a in clicks][:2] == ["pick", "bury"]
    assert "Game over" in watched.page.inner_text("#outcome")
    # the game-over sheet: each deal's or hand's result, then what to do next
    watched.page.wait_for_selector("#game-over #results li")
    assert_every_hand_shown(watched.page)
    # the page's own audit: a prearranged game (a chosen seed) is no failure of the entropy
    # check, which does not apply to it
    watched.page.wait_for_function("n => document.querySelectorAll('#audit li').length === n",
                                   arg=7, timeout=20_000)  # fmt: skip
    audit = [line.strip() for line in watched.page.locator("#audit li").all_inner_texts()]
    assert not any(line.startswith("\u2718") for line in audit), audit
    entropy = next(line for line in audit if "your entropy is in the seed" in line)
    assert entropy.startswith("\u2013") and "not applicable" in entropy and "prearranged" in entropy
    assert watched.page.evaluate("document.documentElement.scrollWidth") <= width
    watched.screenshot(f"{game}-{size}-over-page")
    watched.assert_clean()


def assert_every_hand_shown(page: Any) -> None:
    """Once over nothing is hidden: every seat's cards face up on the table (no back), the
    person's own among them (not "your hand is below": the hand's panel is gone)."""
    page.wait_for_function("() => !document.querySelector('#felt .seat .card.back')")
    felt = page.inner_text("#felt")
    assert "your hand is below" not in felt
    assert page.locator("#play-panel").is_hidden()
    assert page.inner_text("#connection") == ""  # no stream to reconnect once over


def test_a_person_resigns_through_the_page_and_the_outcome_says_so(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-resign")
    watched = pages()
    take_seat(watched, created["id"])
    page = watched.page
    resign = page.locator("#lifecycle #resign")
    resign.wait_for()
    assert page.locator("#actions #resign").count() == 0  # not among the legal actions
    resign.click()
    assert "Click again" in resign.inner_text()  # asked twice: one stray click never resigns
    assert table_stack.http.get(f"{table_stack.base}/games/{created['id']}").json()["status"] \
        == "playing"
    resign.click()
    page.wait_for_selector("#outcome .outcome")
    assert "resigned" in page.inner_text("#outcome")
    summary = table_stack.http.get(f"{table_stack.base}/games/{created['id']}").json()
    assert summary["outcome"]["losers"] == [0] and summary["outcome"]["reason"] == "resigned"
    assert page.locator("#lifecycle #resign").count() == 0  # nothing to resign once it is over


def test_a_refused_action_is_shown_in_words(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-refusal")
    watched = pages()
    page = watched.page
    # this page hears of no change: it shows the table as it last fetched it
    page.route(lambda url: url.endswith("/stream") or "/stream?" in url, lambda r: r.abort())
    take_seat(watched, created["id"])
    token = page.evaluate(
        f"JSON.parse(localStorage.getItem('cardroom.seat.{created['id']}')).token"
    )
    auth = {"Authorization": f"Bearer {token}"}
    view_url = f"{table_stack.base}/games/{created['id']}/view"
    deadline = time.monotonic() + 15
    while not any(a["type"] == "play" for a in  # the bot may lead: wait for its card
                  table_stack.http.get(view_url, headers=auth).json()["view"]["legal_actions"]):
        assert time.monotonic() < deadline, "the bot never played"
        time.sleep(0.05)
    page.reload()
    wait_for_a_play(page)
    # another tab of the same seat plays first: this page's version is now stale (and it
    # cannot read the table meanwhile)
    view = table_stack.http.get(view_url, headers=auth).json()
    page.route("**/view", lambda r: r.abort())
    stale = next(a for a in view["view"]["legal_actions"] if a["type"] == "play")
    played = table_stack.http.post(
        f"{table_stack.base}/games/{created['id']}/actions",
        json={"type": "declare_out", "expected_version": view["version"]},
        headers=auth,
    )
    assert played.status_code == 200, played.text
    act_by_touch(page, stale)
    refusal = page.locator("#refusal")
    page.wait_for_function("() => document.querySelector('#refusal').textContent")
    assert "Refused:" in refusal.inner_text()
    assert "the table moved on" in refusal.inner_text()


def test_a_spectator_sees_the_game_move_live(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-watch")
    game_id = created["id"]
    watcher = pages(390, 844)  # phone width
    watcher.goto(f"#/watch/{game_id}")
    page = watcher.page
    page.wait_for_selector("#felt")
    assert "spectator" in page.inner_text("main")
    version = int(page.inner_text("#version"))
    joined = table_stack.http.post(
        f"{table_stack.base}/games/{game_id}/seats/0", json={"name": "bob"}
    )
    auth = {"Authorization": f"Bearer {joined.json()['token']}"}
    deadline = time.monotonic() + 15
    while True:  # the deal may give the lead to the bot: wait for its card
        view = table_stack.http.get(f"{table_stack.base}/games/{game_id}/view", headers=auth).json()
        plays = [a for a in view["view"]["legal_actions"] if a["type"] == "play"]
        if plays or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    play = plays[0]
    response = table_stack.http.post(
        f"{table_stack.base}/games/{game_id}/actions",
        json={**play, "expected_version": view["version"]},
        headers=auth,
    )
    assert response.status_code == 200, response.text
    # no reload: the stream brings the person's card and then the bot's answer
    page.wait_for_function(
        "v => Number(document.querySelector('#version').textContent) > v", arg=version
    )
    page.wait_for_selector(f'#felt .center [data-card="{play["cards"][0]}"]')
    assert page.inner_text("#last-action") != "none yet"
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 390, f"the page is {scroll_width}px wide at phone width"
    watcher.screenshot("sixty_six-spectator-phone")
    watcher.assert_clean()


def test_a_finished_game_is_replayed_step_by_step_with_its_audit(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    created = table_stack.create(
        "sixty_six", [BOT, BOT], seed="browser-replay", options={"game_target": 1}
    )
    summary = table_stack.wait_over(created["id"])
    watched = pages()
    watched.goto(f"#/replay/{created['id']}")
    page = watched.page
    page.wait_for_selector("#verification")
    assert "Verified" in page.inner_text("#verification")
    assert summary["commitment"] in page.inner_text("#audit")
    assert summary["head_hash"] in page.inner_text("#audit")
    link = page.locator("#download")
    assert link.get_attribute("href") == f"/games/{created['id']}/replay"
    page.wait_for_selector("#replay-step >> text=event 1 of")
    steps = 1
    while page.locator("#replay-next").is_enabled():
        page.click("#replay-next")
        steps += 1
        page.wait_for_selector(f"#replay-step >> text=event {steps} of")
    assert steps == summary["version"]
    page.wait_for_selector("#table .outcome")
    page.keyboard.press("Home")  # keyboard operable: back to the first event
    page.wait_for_selector("#replay-step >> text=event 1 of")
    page.select_option("#replay-as", "0")  # as seat 0: the other hand is face down
    page.locator("#replay-slider").fill(str(summary["version"] // 2))
    page.wait_for_selector(f"#replay-step >> text=event {summary['version'] // 2} of")
    page.wait_for_selector('#felt .seat[data-seat="1"] .card.back')
    watched.screenshot("sixty_six-replay")
    watched.assert_clean()


def test_docs_render_offline_and_list_every_operation(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    spec = table_stack.http.get(f"{table_stack.base}/openapi.json").json()
    operations = sum(
        1
        for item in spec["paths"].values()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    )
    watched = pages()
    watched.page.goto(f"{table_stack.base}/docs")
    blocks = watched.page.locator(".opblock")
    blocks.first.wait_for()
    watched.page.wait_for_function(
        "n => document.querySelectorAll('.opblock').length >= n", arg=operations
    )
    assert blocks.count() == operations
    watched.assert_clean()


def test_a_clocked_table_shows_the_time_left_and_a_timeout_in_words(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    options = {"turn_seconds": 3, "on_timeout": "forfeit"}
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-clock", options=options)
    watched = pages()
    take_seat(watched, created["id"])
    page = watched.page
    page.wait_for_selector("#clock")
    shown = page.inner_text("#clock")
    assert "you" in shown and "running" in shown  # the person's clock runs (the bot moved)
    page.wait_for_selector("#outcome .outcome")  # nobody moves: the clock ends the game
    assert "timed out" in page.inner_text("#outcome")
    assert table_stack.summary(created["id"])["outcome"]["losers"] == [0]
    watched.assert_clean()


def page_width_with_a_long_last_action(watched: Watched) -> int:
    """The page's width while the status shows a last action with a long unbroken word (as a
    join's, which names the seat's 64-digit entropy), measured at once and then put back."""
    return int(
        watched.page.evaluate(
            """() => {
                const shown = document.querySelector('#last-action');
                const was = shown.textContent;
                shown.textContent = 'Seat Filled: alice, entropy ' + '0'.repeat(64);
                const width = document.documentElement.scrollWidth;
                shown.textContent = was;
                return width;
            }"""
        )
    )


def test_the_table_says_how_many_watch_it(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT])
    game_id = created["id"]
    seated = pages(390, 844)
    take_seat(seated, game_id)
    page = seated.page
    # the seat's own stream is no spectator (the page's stream from before the join is, until
    # the server's next write to it finds it closed: within a heartbeat or its lifetime)
    page.wait_for_function("() => document.querySelector('#spectators')?.textContent === '0'",
                           timeout=30_000)  # fmt: skip
    watchers = [pages(), pages()]
    for watcher in watchers:
        watcher.goto(f"#/watch/{game_id}")
        watcher.page.wait_for_selector("#felt")
    # read again with every move, and every few seconds while nobody moves
    page.wait_for_function("() => document.querySelector('#spectators')?.textContent === '2'",
                           timeout=20_000)  # fmt: skip
    watchers[0].page.wait_for_function(
        "() => document.querySelector('#spectators')?.textContent === '2'", timeout=20_000)
    assert table_stack.summary(game_id)["spectators"] == 2
    seated.screenshot("sixty_six-spectators-phone", full_page=False)
    watchers[0].page.context.close()  # its stream ends; nobody counts it any more
    page.wait_for_function("() => document.querySelector('#spectators')?.textContent === '1'",
                           timeout=30_000)  # fmt: skip
    for watched in (seated, watchers[1]):
        watched.assert_clean()


FLIGHTS = """() => {
    window.flights = [];
    new MutationObserver((changes) => {
        for (const change of changes) for (const node of change.addedNodes) {
            if (!node.classList || !node.classList.contains('flight')) continue;
            const timing = node.getAnimations()[0]?.effect.getTiming();
            window.flights.push({ card: node.dataset.card, ms: timing ? timing.duration : null,
                                  through: getComputedStyle(node).pointerEvents });
        }
    }).observe(document.body, { childList: true });
}"""


def play_moves(table_stack: Stack, watched: Watched, game_id: str, moves: int) -> None:
    """The person's next ``moves`` moves (cards touched), each waited for the bot's answer."""
    page = watched.page
    for _ in range(moves):
        wait_for_turn(table_stack, game_id, seat=0)
        seen = seat_view(watched)
        legal = [a for a in seen["view"]["legal_actions"] if a["type"] == "play"]
        if not legal:
            return
        page.wait_for_function("v => document.querySelector('#version').textContent === String(v)",
                               arg=seen["version"])
        act_by_touch(page, legal[0])
        page.wait_for_function("v => document.querySelector('#version').textContent !== String(v)",
                               arg=seen["version"])


def test_cards_fly_to_the_trick_at_one_pace_and_never_with_reduced_motion(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    game_id = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-flights")["id"]
    watched = pages(1280, 800)
    take_seat(watched, game_id)
    page = watched.page
    page.evaluate(FLIGHTS)
    play_moves(table_stack, watched, game_id, 3)
    page.wait_for_function("() => window.flights.length >= 4", timeout=10_000)
    flights = page.evaluate("window.flights")
    pace = int(page.get_attribute("#moves", "data-pace-ms") or 0)
    assert pace == 400  # the stack's bots have no pace (bot_pace_ms 0)
    assert {f["ms"] for f in flights} == {pace * 0.75}, flights  # one duration for every move
    assert {f["through"] for f in flights} == {"none"}, flights  # touches pass through
    played = {c for a in watched_cards(table_stack, game_id) for c in a}
    assert {f["card"] for f in flights} <= played
    page.wait_for_function("() => !document.querySelector('.flight')")  # each lands and goes
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(FLIGHTS)
    play_moves(table_stack, watched, game_id, 2)
    page.wait_for_timeout(1_000)  # the moves shown meanwhile, at the pace
    assert page.evaluate("window.flights") == []
    watched.assert_clean()


def watched_cards(table_stack: Stack, game_id: str) -> list[list[str]]:
    """The cards of every card-moving event of the game so far (as a spectator sees them)."""
    events = table_stack.http.get(f"{table_stack.base}/games/{game_id}/events").json()["events"]
    return [[e["event"]["card"]] if "card" in e["event"] else list(e["event"].get("cards", []))
            for e in events if e["event"]["type"].endswith(("CardPlayed", "TrickWon"))]  # fmt: skip


def test_any_seated_person_proposes_a_rematch_and_the_others_accept_it(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    game_id = table_stack.create("sixty_six", [OPEN, OPEN])["id"]
    alice, bob, carol = pages(), pages(390, 844), pages()
    alice.goto(f"#/game/{game_id}")  # the first of two: the deal waits for bob
    alice.page.fill("#join-name", "alice")
    alice.page.click('button[data-join="0"]')
    alice.page.wait_for_selector("main >> text=Playing seat 0")
    take_seat(bob, game_id, "bob", 1)
    carol.goto(f"#/watch/{game_id}")
    bob.page.locator("#lifecycle #resign").click()
    bob.page.locator("#lifecycle #resign").click()
    for watched in (alice, bob, carol):
        watched.page.locator("#game-over").wait_for()
    bob.page.click("#rematch")  # bob created nothing, and lost: he proposes
    bob.page.wait_for_function("id => !location.hash.endsWith(id)", arg=game_id)
    bob.page.wait_for_selector("main >> text=Playing seat 1")  # and waits for alice
    rematch = bob.page.url.rsplit("/", 1)[1]
    assert table_stack.summary(game_id)["rematch"] == rematch
    # the others see the offer and a link to it; alice takes her seat again
    for watched in (alice, carol):
        watched.page.wait_for_selector("#rematch-offer", timeout=20_000)
        assert watched.page.get_attribute("#rematch-link", "href") == f"#/game/{rematch}"
    assert carol.page.locator("#rematch").count() == 0  # a spectator has no seat to take
    assert "Accept the rematch" in alice.page.inner_text("#rematch")
    alice.screenshot("sixty_six-rematch-offer")
    alice.page.click("#rematch")
    alice.page.wait_for_function("id => location.hash.endsWith(id)", arg=rematch)
    alice.page.wait_for_selector('#felt .seat.me[data-seat="0"]')  # dealt: both seats taken
    summary = table_stack.summary(rematch)
    assert summary["status"] == "playing" and summary["prearranged"] is False
    assert [(s["type"], s.get("name")) for s in summary["seats"]] == [
        ("human", "alice"), ("human", "bob")]  # fmt: skip
    carol.page.click("#rematch-link")
    carol.page.wait_for_selector("#felt .seat")
    for watched in (alice, bob, carol):
        watched.assert_clean()
