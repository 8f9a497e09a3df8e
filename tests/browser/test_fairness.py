"""Fair dealing from the table (docs/fairness.md). The page a person joins from adds its own
entropy to the deal (32 bytes of crypto.getRandomValues), so the server never draws a person's
share (issue 30: the table's join sent only a name and the replay said ``source: "server"``).
Once the game is over the page audits it itself with WebCrypto (fairness.js), from the public
events and what it kept during play, and lists each check with ✔ or ✘: a server that reveals
another secret, or rewrites one past event, is caught in the browser."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.helpers import Watched
from tests.browser.test_table import OPEN, take_seat
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e
CHECKS = 7  # secret, the public log, entropy in the seed, deck, cards shown, chain, receipts


def test_a_person_joining_from_the_table_sends_the_browsers_own_entropy(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    game_id = table_stack.create("shithead", [OPEN, BOT])["id"]
    watched = pages()
    take_seat(watched, game_id)
    kept = watched.page.evaluate(f"JSON.parse(localStorage.getItem('cardroom.fair.{game_id}.0'))")
    events = table_stack.http.get(f"{table_stack.base}/games/{game_id}/events").json()["events"]
    filled = [e["event"] for e in events if e["event"]["type"] == "lifecycle.SeatFilled"]
    person = next(e for e in filled if e["seat"] == 0)
    assert person["source"] == "client"
    assert isinstance(kept, dict) and person["entropy"] == kept["entropy"]
    shown = watched.page.inner_text("#deal-fairness")  # beside the commitment, during play
    commitment = table_stack.http.get(f"{table_stack.base}/games/{game_id}").json()["commitment"]
    assert kept["entropy"][:8] in shown and commitment[:8] in shown
    watched.assert_clean()


def _audited(
    table_stack: Stack,
    watched: Watched,
    tamper: Callable[[Any], None] | None,
    log: Callable[[Any], None] | None = None,
    bot: dict[str, Any] = BOT,
    created: Callable[[str], None] | None = None,
) -> list[str]:
    """A Sixty-Six game of seat 0 and ``bot`` (``created``: what happens before the page joins,
    given the game) joined from the page, resigned once the page has seen the deal; the audit
    panel's lines, the events served to the page changed by ``tamper`` first."""
    game_id = table_stack.create("sixty_six", [OPEN, bot], wait_for_bots=True)["id"]
    if tamper is not None:
        def served(route: Any) -> None:
            data = route.fetch().json()
            if data.get("over"):
                tamper(data["events"])
            route.fulfill(json=data)

        # the audit's own read of the log (the move list reads pages of it with ?after=)
        watched.page.route(lambda url: url.endswith(f"/games/{game_id}/events"), served)
    if log is not None:
        def logged(route: Any) -> None:
            data = route.fetch().json()
            log(data)
            route.fulfill(json=data)

        watched.page.route(lambda url: url.endswith(f"/fairness/log/{game_id}"), logged)
    if created is not None:
        created(game_id)
    take_seat(watched, game_id)
    watched.page.wait_for_function("key => (JSON.parse(localStorage.getItem(key)) || {}).shown",
                                   arg=f"cardroom.fair.{game_id}.0")  # the page saw its cards
    seat = json.loads(watched.page.evaluate(f"localStorage.getItem('cardroom.seat.{game_id}')"))
    auth = {"Authorization": f"Bearer {seat['token']}"}
    version = table_stack.http.get(f"{table_stack.base}/games/{game_id}/view",
                                   headers=auth).json()["version"]
    for _ in range(5):  # the bot may move between the read and the resign: resign again
        resigned = table_stack.http.post(f"{table_stack.base}/games/{game_id}/actions",
                                         headers=auth,
                                         json={"type": "resign", "expected_version": version})
        if resigned.status_code != 409:
            break
        version = resigned.json()["current_version"]
    assert resigned.status_code == 200, resigned.text
    watched.page.wait_for_function("n => document.querySelectorAll('#audit li').length === n",
                                   arg=CHECKS, timeout=20_000)  # fmt: skip
    return [line.strip() for line in watched.page.locator("#audit li").all_inner_texts()]


def _every_check_holds(lines: list[str], entropy: str) -> None:
    """Every line of the page's audit is ticked; the entropy line ends by saying ``entropy``."""
    assert all(line.startswith("✔") for line in lines), lines
    said = next(line for line in lines if "your entropy is in the seed" in line)
    assert said.endswith(entropy), said


def test_the_page_audits_a_fair_game_itself_and_every_check_holds(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    watched = pages()
    lines = _audited(table_stack, watched, None)
    _every_check_holds(lines, entropy="seat 0: yours; seat 1: drawn by the server")
    watched.assert_clean()


def test_the_page_says_an_http_bot_sent_its_own_entropy(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    """A user's HTTP bot at the table: its own entropy is in the seed (posted here with its
    token as soon as the game exists, as cardroom bot run does; the person's join deals), and
    the audit says whose share each seat's is."""
    made = table_stack.http.post(f"{table_stack.base}/bots", json={"name": "tablebot"}).json()

    def bot_sends(game_id: str) -> None:
        sent = table_stack.http.post(f"{table_stack.base}/games/{game_id}/seats/1/entropy",
                                     json={"entropy": "5a" * 32},
                                     headers={"Authorization": f"Bearer {made['token']}"})
        assert sent.status_code == 200 and not sent.json()["dealt"], sent.text

    watched = pages()
    lines = _audited(table_stack, watched, None, bot={"type": "bot", "bot": "tablebot"},
                     created=bot_sends)  # fmt: skip
    _every_check_holds(lines, entropy="seat 0: yours; seat 1: its bot's own")
    watched.assert_clean()


def test_a_server_that_reveals_another_secret_is_caught_by_the_page(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    def other_secret(events: list[dict[str, Any]]) -> None:
        for item in events:
            if item["event"]["type"] == "lifecycle.SecretRevealed":
                item["event"]["secret"] = "5" * 64

    lines = _audited(table_stack, pages(), other_secret)
    assert any(line.startswith("✘ the revealed secret") for line in lines), lines


def test_a_server_that_rewrites_a_past_event_is_caught_by_the_page(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    def rewritten(events: list[dict[str, Any]]) -> None:
        filled = next(i for i in events if i["event"]["type"] == "lifecycle.SeatFilled")
        filled["event"]["entropy"] = "7" * 64  # a past event changed, its hash left alone

    lines = _audited(table_stack, pages(), rewritten)
    assert any(line.startswith("✘ the hash chain") for line in lines), lines


def test_a_log_that_shows_another_commitment_is_caught_by_the_page(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    def other_commitment(entry: dict[str, Any]) -> None:
        entry["commitment"] = "6" * 64  # what another person was shown, say

    lines = _audited(table_stack, pages(), None, other_commitment)
    assert any(line.startswith("✘ the game's commitment") for line in lines), lines
