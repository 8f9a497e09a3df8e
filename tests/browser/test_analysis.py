"""Analysis in the browser (docs/analysis.md): the replay viewer shows the viewed seat's review
beside the steps, and "play on from here" forks the game at the step shown, as that seat, into
a game the person then plays to its end against bots; at the table, a seat plays on from its
own decision of a game still played in a sealed fork."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from replays.format import loads
from replays.verify import verify
from tests.browser.helpers import Watched, page_version, play_through, preference
from tests.browser.test_table import OPEN, take_seat
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


def test_play_on_is_offered_where_a_move_ends_not_between_its_events(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    # Shithead's first seat out: its play, PlayerOut and the turn passed on are one action's
    # events; at the PlayerOut the table is half made, and the server refuses a fork there
    created = table_stack.create("shithead", [BOT] * 3, seed="browser-play-on-moves")
    game_id = created["id"]
    table_stack.wait_over(game_id)
    replay = loads(table_stack.http.get(f"{table_stack.base}/games/{game_id}/replay").content)
    batch = next(b for b in replay.batches
                 if any(e.event["type"] == "shithead.PlayerOut" for e in b.events))  # fmt: skip
    inside = next(e.version for e in batch.events if e.event["type"] == "shithead.PlayerOut")
    end = batch.events[-1].version
    assert inside < end
    watched = pages()
    page = watched.page
    watched.goto(f"#/replay/{game_id}")
    page.wait_for_selector("#replay-step >> text=event 1 of")
    page.click(f'#event-log li[data-version="{inside}"] button')
    page.wait_for_selector(f"#replay-step >> text=event {inside} of")
    assert page.is_disabled("#play-on")
    where = page.locator("#play-on-where")
    why = f"Events {batch.events[0].version} to {end} are one action: a fork starts where it ends"
    assert why in where.inner_text() and why in (page.get_attribute("#play-on", "title") or "")
    watched.screenshot("analysis-inside-a-move")
    page.set_viewport_size({"width": 390, "height": 844})
    watched.screenshot("analysis-inside-a-move-390")
    page.set_viewport_size({"width": 1100, "height": 900})
    where.get_by_role("button").click()  # to the move's end, where the fork is offered
    page.wait_for_selector(f"#replay-step >> text=event {end} of")
    page.wait_for_selector("#play-on:enabled")  # once the table there is read
    assert not where.is_visible()
    page.click("#play-on")
    page.wait_for_url(lambda url: "#/game/" in url and game_id not in url)
    fork_id = page.url.rsplit("/", 1)[1]
    summary = table_stack.summary(fork_id)
    assert summary["forked"] == {"source": game_id, "version": end, "as": None}
    watched.assert_clean()


def test_play_on_is_offered_only_where_the_server_forks_as_the_seat_viewed(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    # A finished Shithead game viewed as seat 0: where an action ends, the server still
    # refuses a fork as that seat before the play begins (pre-play), where another seat is to
    # move, and where the game is over; the button says why and leads to a step it forks at
    http, base = table_stack.http, table_stack.base
    created = table_stack.create("shithead", [BOT] * 3, seed="browser-play-on-turns")
    game_id = created["id"]
    table_stack.wait_over(game_id)
    items = http.get(f"{base}/games/{game_id}/events?after=0&limit=1000").json()["events"]
    last = len(items)
    ends = [i["version"] + i["batch"] - 1 for i in items if i.get("batch")]

    def table(version: int) -> dict[str, Any]:
        return dict(http.get(f"{base}/games/{game_id}/replay?at={version}&as=0").json()["table"])

    tables = {v: table(v) for v in ends[:40]}
    mine = [v for v, t in tables.items() if t["phase"] == "play" and t["to_act"] == [0]]
    preplay = next(v for v, t in tables.items() if t["phase"] == "preplay" and 0 in t["to_act"])
    other = next(v for v, t in tables.items() if t["phase"] == "play" and 0 not in t["to_act"])
    after = next(v for v in mine if v > other)  # seat 0's next decision
    watched = pages()
    page = watched.page
    watched.goto(f"#/replay/{game_id}")
    page.wait_for_selector("#replay-step >> text=event 1 of")
    page.select_option("#replay-as", "0")
    where = page.locator("#play-on-where")

    def at(version: int, why: str) -> None:
        page.click(f'#event-log li[data-version="{version}"] button')
        page.wait_for_selector(f"#replay-step >> text=event {version} of")
        where.get_by_text(why).wait_for()
        assert page.is_disabled("#play-on")
        assert why in (page.get_attribute("#play-on", "title") or "")

    at(preplay, f"At event {preplay} the play has not begun")
    assert "a fork as a seat starts once it has" in where.inner_text()
    where.get_by_role("button", name=f"Go to event {mine[0]}").wait_for()  # its first decision
    watched.screenshot("analysis-play-on-preplay")
    page.set_viewport_size({"width": 390, "height": 844})
    watched.screenshot("analysis-play-on-preplay-390")
    page.set_viewport_size({"width": 1100, "height": 900})
    where.get_by_role("button", name=f"Go to event {mine[0]}").click()
    page.wait_for_selector(f"#replay-step >> text=event {mine[0]} of")
    page.wait_for_selector("#play-on:enabled")
    assert not where.is_visible()

    mover = tables[other]["to_act"][0]
    at(other, f"At event {other} heuristic (seat {mover}) is to move, not heuristic (seat 0): "
              "a fork as a seat starts at one of its own decisions.")  # fmt: skip
    watched.screenshot("analysis-play-on-not-its-turn")
    page.set_viewport_size({"width": 390, "height": 844})
    watched.screenshot("analysis-play-on-not-its-turn-390")
    page.set_viewport_size({"width": 1100, "height": 900})

    page.click("#replay-last")
    page.wait_for_selector(f"#replay-step >> text=event {last} of")
    where.get_by_text(f"The game is over at event {last}: nothing is left to play.").wait_for()
    assert page.is_disabled("#play-on")
    where.get_by_role("button", name="Go to event").wait_for()  # seat 0's last decision

    at(other, f"At event {other} heuristic (seat {mover}) is to move")
    where.get_by_role("button", name=f"Go to event {after}").click()
    page.wait_for_selector(f"#replay-step >> text=event {after} of")
    page.wait_for_selector("#play-on:enabled")
    page.click("#play-on")  # the server forks where the page offers it
    page.wait_for_url(lambda url: "#/game/" in url and game_id not in url)
    fork_id = page.url.rsplit("/", 1)[1]
    assert table_stack.summary(fork_id)["forked"] == {"source": game_id, "version": after, "as": 0}
    page.locator("#fork-origin").get_by_text(
        f"Plays on from game {game_id} at event {after}, as seat 0").wait_for()
    watched.assert_clean()


def test_a_seat_plays_on_from_its_decision_of_a_game_still_played_in_a_sealed_fork(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    from playwright.sync_api import expect

    http, base = table_stack.http, table_stack.base
    created = table_stack.create("sixty_six", [{"type": "open"}, BOT], seed="browser-live-fork",
                                 options={"game_target": 1})  # fmt: skip
    source = created["id"]
    watched = pages()
    page = watched.page
    take_seat(watched, source)
    kept = page.evaluate(f"localStorage.getItem('cardroom.seat.{source}')")
    token = json.loads(kept)["token"]
    page.click("#fork-here")  # shown at the seat's own decision
    page.wait_for_url(lambda url: "#/game/" in url and source not in url)
    fork_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector('#felt .seat.me[data-seat="0"]')  # its seat taken with the token
    sealed = http.get(f"{base}/games/{fork_id}")
    assert sealed.status_code == 403 and sealed.json()["code"] == "fork_sealed"
    # (a finished fork's replay while its source is played: tests/e2e/test_live_forks.py)
    # the fork is not forked again while its source is played: the table says why, and the
    # server refuses it (its seat's own token)
    button, why = page.locator("#fork-here"), page.locator("#fork-why")
    played = f"This game plays on from game {source}, which is still being played"
    expect(button).to_be_disabled()
    expect(why).to_contain_text(played)
    origin = page.locator("#fork-origin")  # where the fork plays on from, a link to it
    expect(origin).to_contain_text(f"Plays on from game {source} at event ")
    expect(origin).to_contain_text("as seat 0 (you). That game is still being played")
    assert origin.locator("a").get_attribute("href") == f"#/game/{source}"
    watched.screenshot("table-sealed-fork-play-on", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    watched.screenshot("table-sealed-fork-play-on-390", full_page=False)
    page.set_viewport_size({"width": 1100, "height": 900})
    fork_token = json.loads(page.evaluate(f"localStorage.getItem('cardroom.seat.{fork_id}')"))
    again = http.post(f"{base}/games/{fork_id}/forks",
                      json={"at": page_version(page), "as": 0, "seats": [OPEN, BOT]},
                      headers={"Authorization": f"Bearer {fork_token['token']}"})  # fmt: skip
    assert again.status_code == 403 and again.json()["code"] == "fork_sealed", again.text
    version = http.get(f"{base}/games/{source}").json()["version"]
    ended = http.post(f"{base}/games/{source}/actions",
                      headers={"Authorization": f"Bearer {token}"},
                      json={"type": "resign", "expected_version": version})  # fmt: skip
    assert ended.status_code == 200, ended.text
    expect(why).not_to_contain_text(played, timeout=15_000)  # the source is over: read again
    expect(origin).not_to_contain_text("still being played")
    clicks = play_through(watched)
    assert clicks, "the person made no move in the fork"
    summary = table_stack.wait_over(fork_id)
    assert summary["forked"] == {"source": source, "version": summary["forked"]["version"],
                                 "as": 0, "sealed": True}  # fmt: skip
    deadline = time.monotonic() + 20
    while (replay := http.get(f"{base}/games/{fork_id}/replay")).status_code != 200:
        assert time.monotonic() < deadline, replay.text
        time.sleep(0.1)
    report = verify(loads(replay.content), source=loads(
        http.get(f"{base}/games/{source}/replay").content))  # fmt: skip
    assert report.ok, report.summary()
    watched.assert_clean()


def test_the_table_offers_play_on_only_where_the_server_forks_as_its_seat(
    table_stack: Stack,
    pages: Callable[..., Watched],
) -> None:
    # A live Shithead game, seat 0 at the page and seat 1 a person over HTTP: before the deal,
    # in pre-play and at seat 1's turn the server refuses a fork as seat 0, so the table's
    # "Play on from here" is disabled with the reason; at seat 0's turn in the play it forks
    from playwright.sync_api import expect

    http, base = table_stack.http, table_stack.base
    source = table_stack.create("shithead", [OPEN, OPEN, BOT], seed="browser-table-play-on")["id"]
    watched = pages()
    page = watched.page
    watched.goto(f"#/game/{source}")
    page.fill("#join-name", "alice")
    page.click('button[data-join="0"]')
    page.wait_for_selector("text=Playing seat 0")  # seated; nothing dealt while seat 1 is open
    token = json.loads(page.evaluate(f"localStorage.getItem('cardroom.seat.{source}')"))["token"]
    alice = {"Authorization": f"Bearer {token}"}
    button, why = page.locator("#fork-here"), page.locator("#fork-why")

    def refused(text: str) -> None:
        expect(button).to_be_disabled()
        expect(why).to_have_text(text)
        assert button.get_attribute("title") == text

    def server_fork() -> Any:  # what the server answers to the fork the page would ask for
        body = {"at": page_version(page), "as": 0, "seats": [OPEN, BOT, BOT]}
        return http.post(f"{base}/games/{source}/forks", json=body, headers=alice)

    def act(auth: dict[str, str]) -> int:  # a seat's action over HTTP; the version before it
        for _ in range(20):  # another seat (the page's, the bot) may move between read and send
            seen = http.get(f"{base}/games/{source}/view", headers=auth).json()
            action = min(seen["view"]["legal_actions"], key=preference)
            acted = http.post(f"{base}/games/{source}/actions", headers=auth,
                              json={**action, "expected_version": seen["version"]})  # fmt: skip
            if acted.status_code != 409:
                break
        assert acted.status_code == 200, acted.text
        return int(seen["version"])

    def ready_offered() -> bool:  # seat 0 may still say it is ready (pre-play)
        seen = http.get(f"{base}/games/{source}/view", headers=alice).json()
        return any(a["type"] == "ready" for a in seen["view"]["legal_actions"])

    def screenshots(name: str) -> None:
        watched.screenshot(name, full_page=False)
        page.set_viewport_size({"width": 390, "height": 844})
        watched.screenshot(f"{name}-390", full_page=False)
        page.set_viewport_size({"width": 1100, "height": 900})

    refused("Nothing is dealt yet: there is no position to play on.")  # seat 1 still open
    joined = http.post(f"{base}/games/{source}/seats/1", json={"name": "bob"})
    assert joined.status_code in (200, 201), joined.text
    bob = {"Authorization": f"Bearer {joined.json()['token']}"}

    page.wait_for_selector("#phase >> text=preplay")
    expect(page.locator("#to-act")).to_contain_text("your turn")  # a decision, yet no fork
    refused("The play has not begun: a fork as a seat starts once it has.")
    answer = server_fork()  # the server refuses it too
    assert answer.status_code == 422, answer.text
    assert "only the play phase is sampled" in answer.text, answer.text
    screenshots("table-play-on-preplay")

    # seat 0 is ready: as a person clicks Ready again when the page says the table moved on
    # before it arrived (the seats choose at once in pre-play: another's move may come first)
    for _ in range(5):
        page.locator("#actions button.action", has_text="Ready").click()
        deadline = time.monotonic() + 10
        while ready_offered() and "moved on" not in page.inner_text("#refusal"):
            assert time.monotonic() < deadline, "seat 0's Ready neither landed nor was refused"
            time.sleep(0.05)
        if not ready_offered():
            break
    assert not ready_offered(), page.inner_text("#refusal")
    act(bob)  # and seat 1 (the bot at once): the play begins
    waited_on_bob = False
    deadline = time.monotonic() + 60
    summary: dict[str, Any] = {}
    while True:
        assert time.monotonic() < deadline, (
            "seat 0 was never to move after seat 1 in the play: the game at version "
            f"{summary.get('version')}, to act {summary.get('to_act')}, the page at version "
            f"{page_version(page)}, phase {page.inner_text('#phase')!r}; the stack's logs:\n"
            + table_stack.log_tail()
        )
        summary = table_stack.summary(source)
        assert summary["status"] != "over"
        if summary["to_act"] not in ([0], [1]):  # the bot's turn, or pre-play's end
            time.sleep(0.05)
            continue
        page.wait_for_function("v => Number(document.querySelector('#version')?.textContent) >= v",
                               arg=summary["version"])  # fmt: skip
        if page.inner_text("#phase") != "play" or page_version(page) != summary["version"]:
            time.sleep(0.05)
            continue
        if summary["to_act"] == [1]:
            refused("bob (seat 1) is to move, not you: a fork as a seat starts at one of its "
                    "own decisions.")  # fmt: skip
            answer = server_fork()
            assert answer.status_code == 422 and "not to move" in answer.text, answer.text
            if not waited_on_bob:
                screenshots("table-play-on-not-its-turn")
            waited_on_bob = True
            act(bob)
            continue
        expect(button).to_be_enabled()  # seat 0's turn in the play
        expect(why).to_be_hidden()
        if waited_on_bob:
            break
        act(alice)  # seat 0 plays (the page follows): then seat 1's turn comes
    version = page_version(page)
    screenshots("table-play-on-offered")
    button.click()  # the server forks where the page offers it
    page.wait_for_url(lambda url: "#/game/" in url and source not in url)
    fork_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector('#felt .seat.me[data-seat="0"]')  # its seat taken with the token
    kept = page.evaluate(f"localStorage.getItem('cardroom.seat.{fork_id}')")
    forked = http.get(f"{base}/games/{fork_id}",
                      headers={"Authorization": f"Bearer {json.loads(kept)['token']}"})  # fmt: skip
    assert forked.json()["forked"] == {"source": source, "version": version, "as": 0,
                                       "sealed": True}  # fmt: skip
    watched.assert_clean()
