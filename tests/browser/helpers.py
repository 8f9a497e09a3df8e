"""Helpers of the browser tests: Playwright for Python driving the system's Chromium
(Debian's ``chromium`` package).

Playwright's own browser download does not work everywhere, so the tests launch
``/usr/bin/chromium`` (or ``CARDROOM_CHROMIUM``). Without it the tests skip with the reason
locally and fail in CI (``CI=true``: ``.ci/run`` installs the package first).
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"  # git-ignored
CHROMIUM = os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--metrics-recording-only",
]


def chromium_or_skip() -> str:
    """The browser's path; fail in CI and skip (saying why) elsewhere when it is missing."""
    if not Path(CHROMIUM).exists():
        reason = f"no Chromium at {CHROMIUM}: apt-get install -y chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " (.ci/run installs it)")
        pytest.skip(reason)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("playwright is not installed (it is in the dev extra)")
        pytest.skip("playwright is not installed: pip install -e '.[dev]'")
    return CHROMIUM


@dataclass
class Watched:
    """A page with what it asked of other hosts and the errors it logged."""

    page: Any
    base: str
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    conflicts: int = 0  # actions the page had refused as late (a 409 the browser logs)

    def goto(self, fragment: str = "") -> None:
        self.page.goto(f"{self.base}/{fragment}")

    def assert_clean(self, *provoked: str) -> None:
        """No request left the host and no error was logged (but the ``provoked`` ones: the
        browser logs each 4xx answer a test asks for on purpose)."""
        assert self.foreign == [], f"requests to other hosts: {sorted(set(self.foreign))}"
        errors = [e for e in self.errors if not any(p in e for p in provoked)]
        late = [e for e in errors if "status of 409" in e]
        assert len(late) <= self.conflicts, f"console errors: {errors}"
        errors = [e for e in errors if "status of 409" not in e]
        assert errors == [], f"console errors: {errors}"

    def screenshot(self, name: str, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


def open_page(browser: Any, base: str, width: int = 1100, height: int = 900) -> Watched:
    """A fresh context (own localStorage) whose requests to any other host are blocked and
    recorded, and whose console errors and uncaught exceptions are recorded."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    watched = Watched(page, base)
    origin = urlsplit(base).netloc

    def foreign(url: str) -> bool:
        return not url.startswith("data:") and urlsplit(url).netloc != origin

    def block(route: Any) -> None:
        watched.foreign.append(route.request.url)
        route.abort()

    # only other hosts are intercepted (intercepting the page's own event stream would cut it)
    context.route(foreign, block)
    page.on("request", lambda r: foreign(r.url) and watched.foreign.append(r.url))
    page.on("console", lambda m: m.type == "error" and watched.errors.append(m.text))
    page.on("pageerror", lambda e: watched.errors.append(f"uncaught: {e}"))
    return watched


# What the person at the table prefers (a short game): get ready, play, pick up last.
LAST = ("pickup", "pass", "swap", "close")
FIRST = ("ready", "pick")
CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|RJ|BJ)$")


def preference(action: dict[str, Any]) -> tuple[int, int]:
    kind = action["type"]
    rank = 0 if kind in FIRST else 2 if kind in LAST else 1
    return rank, -len(action.get("cards", []))


def action_cards(action: dict[str, Any]) -> list[str]:
    """The card codes an action names (as the page's ``actionCards``)."""
    found: list[str] = []
    for value in action.values():
        if isinstance(value, str) and CARD.match(value):
            found.append(value)
        elif isinstance(value, list):
            found.extend(v for v in value if isinstance(v, str) and CARD.match(v))
    return found


def seat_view(watched: Watched) -> dict[str, Any]:
    """The seat's view, read with the token the page keeps (what the page will show)."""
    game_id = watched.page.url.rsplit("/", 1)[1]
    kept = watched.page.evaluate(f"localStorage.getItem('cardroom.seat.{game_id}')")
    token = json.loads(kept)["token"]
    response = requests.get(
        f"{watched.base}/games/{game_id}/view",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    return dict(response.json())


def page_version(page: Any) -> int:
    return int(page.locator("#version").inner_text() or 0)


def act_by_touch(page: Any, action: dict[str, Any]) -> None:
    """Do ``action`` as a person does: touch its cards (the seat's own), then confirm it if the
    page asks; an action naming none of them is a button."""
    compact = json.dumps(action, separators=(",", ":"))  # as the page's JSON.stringify
    button = f"#actions button.action[data-action='{compact}']"
    cards = action_cards(action)
    own = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    if not cards or not all(card in own for card in cards):
        page.locator(button).click()
        return
    before = page_version(page)
    for card in cards:
        page.locator(f'#hand button.card[data-card="{card}"][aria-pressed="false"]').click()
    page.wait_for_function(
        "([v, b]) => document.querySelector('#version').textContent !== String(v)"
        " || document.querySelector(b) || document.querySelector('#refusal').textContent",
        arg=[before, button],
    )
    if page_version(page) == before and page.locator(button).count():
        page.locator(button).click()


def check_dimmed(page: Any, seen: dict[str, Any]) -> None:
    """While a card is to be chosen, the page dims exactly the seat's cards no legal action of
    the view names (nothing is dimmed when no card can be played)."""
    shown = page.locator("#hand button.card").evaluate_all(
        "bs => bs.map(b => [b.dataset.card, b.classList.contains('dimmed')])"
    )
    if page_version(page) != seen["version"]:
        return  # the page moved on while it was read
    named = {card for action in seen["view"]["legal_actions"] for card in action_cards(action)}
    choosing = any(card in named for card, _ in shown)
    for card, dimmed in shown:
        assert dimmed == (choosing and card not in named), (card, seen["view"]["legal_actions"])


IN_VIEW = """s => {
    const r = document.querySelector(s)?.getBoundingClientRect();
    const panel = document.querySelector('#play-panel').getBoundingClientRect();
    return r ? { top: r.top, bottom: r.bottom, left: r.left, right: r.right, panelTop: panel.top,
                 height: innerHeight, width: innerWidth, scrolled: scrollY } : null;
}"""


def assert_in_view(page: Any) -> None:
    """The seat's hand and the pile or trick are both on the screen, unscrolled, the pile or
    trick clear of the hand's panel fixed at the bottom."""
    hand = page.evaluate(IN_VIEW, "#hand-cards")
    middle = page.evaluate(IN_VIEW, "#felt .play-area")
    assert hand and middle, (hand, middle)
    assert middle["scrolled"] == 0, middle
    assert middle["top"] >= 0 and middle["bottom"] <= middle["panelTop"], middle
    assert hand["top"] >= 0 and hand["bottom"] <= hand["height"], hand
    for box in (hand, middle):
        assert box["left"] >= 0 and box["right"] <= box["width"], box
    cut = page.evaluate("""() => [...document.querySelectorAll('#play-panel button')]
        .map((b) => [b.textContent, b.getBoundingClientRect().right])
        .filter(([, right]) => right > innerWidth)""")
    assert cut == [], f"buttons cut at the window's edge: {cut}"


def play_through(
    watched: Watched, seconds: float = 90, shots: str | None = None
) -> list[dict[str, Any]]:
    """Play the seat's legal actions by touching cards on the page until its outcome shows;
    returns the actions played. The action is chosen from the seat's view once the page shows
    that version; at each the hand and the pile or trick are checked on the screen. With
    ``shots`` the screen of each phase is saved as ``<shots>-<phase>``."""
    page = watched.page
    clicks: list[dict[str, Any]] = []
    phases: set[str] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator("#outcome .outcome").count():
            if shots:
                watched.screenshot(f"{shots}-over", full_page=False)
            return clicks
        seen = seat_view(watched)
        # declaring out is legal at any time in Sixty-Six: the person never does
        found = [a for a in seen["view"]["legal_actions"]
                 if a["type"] != "declare_out" and not a.get("declare")]  # fmt: skip
        if not found or page_version(page) != seen["version"]:
            page.wait_for_timeout(40)
            continue
        check_dimmed(page, seen)
        assert_in_view(page)
        phase = page.inner_text("#phase")
        if shots and phase not in phases:
            phases.add(phase)
            watched.screenshot(f"{shots}-{phase.replace(' ', '_')}", full_page=False)
        action = min(found, key=preference)
        before = page_version(page)
        act_by_touch(page, action)
        clicks.append(action)
        page.wait_for_function(
            "v => document.querySelector('#version')?.textContent !== String(v)"
            " || document.querySelector('#refusal')?.textContent",
            arg=before,
        )
        refusal = page.locator("#refusal").inner_text()
        if "the table moved on" in refusal:
            # a bot acted first where both may act (Shithead's getting ready): the page says
            # so and catches up, and the person acts again on what it shows now
            clicks.pop()
            watched.conflicts += 1
            continue
        assert refusal == "", refusal
    raise AssertionError(f"no outcome after {len(clicks)} actions")


def wait_for_a_play(page: Any) -> None:
    """Until a card of the hand can be played (the deal may give the lead to a bot)."""
    page.wait_for_selector("#hand button.card.usable")


def wait_for_turn(stack: Any, game_id: str, seat: int, seconds: float = 15) -> int:
    """The game's version once it awaits ``seat`` (or is over)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        summary = stack.summary(game_id)
        if summary["status"] == "over" or summary["to_act"] == [seat]:
            return int(summary["version"])
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} never awaited seat {seat}")
