"""Fixtures of the browser tests: Chromium (Playwright), a stack of their own, watched pages."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.helpers import ARGS, Watched, chromium_or_skip, open_page
from tests.e2e.conftest import Stack


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def table_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A stack of its own for the browser: each open page holds a stream (a sync gunicorn
    worker) for up to CARDROOM_SSE_SECONDS, so it runs more web workers and shorter streams.
    Bots answer at once (no CARDROOM_BOT_PACE_MS): the tests play whole games against them,
    and the page's own pace (moves.js) is what they follow."""
    running = Stack(
        tmp_path_factory.mktemp("table"),
        web_workers=4,
        env={"CARDROOM_SSE_SECONDS": "8", "CARDROOM_BOT_PACE_MS": "0"},
    )
    yield running
    running.stop()


@pytest.fixture
def pages(browser: Any, table_stack: Stack) -> Iterator[Callable[..., Watched]]:
    """Opens watched pages on the table stack; closes them (and their streams) afterwards."""
    opened: list[Watched] = []

    def make(width: int = 1100, height: int = 900) -> Watched:
        watched = open_page(browser, table_stack.base, width, height)
        opened.append(watched)
        return watched

    yield make
    for watched in opened:
        watched.page.context.close()
