"""The table never freezes and never goes stale: a lost request, a cut stream and a redraw in
the middle of a click, each recovered by the page itself, in a real Chromium against real
processes."""

from __future__ import annotations

import ctypes
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import Watched, wait_for_a_play, wait_for_turn
from tests.browser.test_table import OPEN, take_seat
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e
# what Chromium logs for a request cut before its answer, and for an answer cut halfway
NETWORK = ("ERR_FAILED", "ERR_INTERNET_DISCONNECTED", "ERR_INCOMPLETE_CHUNKED_ENCODING",
           "ERR_CONTENT_LENGTH_MISMATCH")


def version(page: Any) -> int:
    return int(page.inner_text("#version"))


def is_stream(url: str) -> bool:
    return url.endswith("/stream") or "/stream?" in url


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (``cardroom serve``: gunicorn's master, its workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue  # self, thread-self, the kernel's files
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo.extend(children.get(found[-1], []))
    return found


def close_accepted_connections(stack: Stack) -> int:
    """Shut down, on the server's side, every connection the stack's processes accepted on its
    port (the open event streams): what a failing network does to them. Each socket is taken
    from its process with pidfd_getfd(2) (our own descendants) and shut down; nothing is killed.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    closed = 0
    for pid in descendants(stack.web.pid):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            pidfd = os.pidfd_open(pid)
        except OSError:
            continue  # gone
        try:
            for fd in fds:
                copy = libc.syscall(438, pidfd, int(fd), 0)  # SYS_pidfd_getfd
                if copy < 0:
                    continue  # closed meanwhile
                try:
                    sock = socket.socket(fileno=copy)
                except OSError:
                    os.close(copy)  # not a socket
                    continue
                with sock:
                    try:
                        sock.getpeername()  # the listening socket has none
                        ours = sock.family == socket.AF_INET
                        accepted = ours and sock.getsockname()[1] == stack.port
                    except OSError:
                        continue
                    if accepted:
                        sock.shutdown(socket.SHUT_RDWR)
                        closed += 1
        finally:
            os.close(pidfd)
    return closed


def test_a_lost_action_request_is_said_and_retried_and_the_page_stays_usable(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-lost-request")
    watched = pages()
    page = watched.page
    take_seat(watched, created["id"])
    wait_for_a_play(page)
    before = version(page)
    # the network loses the first action request (a blip): nothing reaches the server
    page.route("**/actions", lambda route: route.abort(), times=1)
    page.locator("#actions button.action").first.click()
    retry = page.locator("#refusal #retry")
    retry.wait_for()
    assert "no answer" in page.inner_text("#refusal")
    assert table_stack.summary(created["id"])["version"] == before
    retry.click()  # the page is not stuck: the same action goes out again
    page.wait_for_function("v => Number(document.querySelector('#version').textContent) > v",
                           arg=before)
    assert page.inner_text("#refusal") == ""
    assert table_stack.summary(created["id"])["version"] > before
    watched.assert_clean(*NETWORK)


def test_a_cut_stream_says_reconnecting_follows_by_polling_and_comes_back(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-cut-stream")
    game_id = created["id"]
    watched = pages()
    page = watched.page
    take_seat(watched, game_id)
    wait_for_a_play(page)
    # the network fails mid-game: every request fails, the open stream is cut (neither a route
    # nor Chromium's offline mode touches a connection already open: it is shut down on the
    # server's side) and, when the network is back, the stream still cannot reconnect
    page.route(is_stream, lambda route: route.abort())
    page.context.set_offline(True)
    assert close_accepted_connections(table_stack) >= 1
    page.wait_for_selector("#connection >> text=reconnecting")
    # the page's reads fail too: said, without hiding that the stream is down
    page.wait_for_selector("#connection >> text=no answer")
    assert "reconnecting" in page.inner_text("#connection")
    page.context.set_offline(False)
    page.wait_for_selector("#connection >> text=meanwhile the table is read")
    # the person plays; the bot's answer comes to the page by polling, with no stream
    wait_for_a_play(page)
    page.locator("#actions button.action").first.click()
    answered = wait_for_turn(table_stack, game_id, seat=0)  # the bot has moved
    page.wait_for_function(
        "v => Number(document.querySelector('#version').textContent) >= v", arg=answered
    )
    page.unroute(is_stream)
    page.wait_for_function("() => document.querySelector('#connection').textContent === ''")
    watched.assert_clean(*NETWORK)


def test_a_click_counts_when_the_table_redraws_between_press_and_release(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-redraw-click")
    watched = pages()
    page = watched.page
    take_seat(watched, created["id"])
    wait_for_a_play(page)
    resign = page.locator("#lifecycle #resign")
    box = resign.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # the hand redraws (a card played or selected from the keyboard) while the button is held
    before = version(page)
    page.focus("#hand button.card.usable")
    page.keyboard.press("Space")
    page.wait_for_function(
        "v => document.querySelector('#version').textContent !== String(v)"
        " || document.querySelector('#hand button.card[aria-pressed=\"true\"]')",
        arg=before,
    )
    moved = resign.bounding_box()  # the row changed: the button may have moved; follow it
    assert moved is not None
    page.mouse.move(moved["x"] + moved["width"] / 2, moved["y"] + moved["height"] / 2)
    page.mouse.up()
    assert "Click again" in resign.inner_text()
    watched.assert_clean()


def test_a_streams_planned_end_says_nothing(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    created = table_stack.create("sixty_six", [OPEN, BOT], seed="browser-planned-end")
    watched = pages()
    page = watched.page
    take_seat(watched, created["id"])
    wait_for_a_play(page)  # the person's turn: nothing moves while the streams come and go
    page.evaluate("""() => {
        window.notices = [];
        const shown = document.querySelector('#connection');
        new MutationObserver(() => shown.textContent && window.notices.push(shown.textContent))
            .observe(shown, { childList: true, characterData: true, subtree: true });
    }""")
    reopened: list[str] = []
    page.on("request", lambda r: is_stream(r.url) and reopened.append(r.url))
    page.wait_for_timeout(11_000)  # the stack's streams live 4 to 8 s, then come back
    assert reopened, "no stream ended and came back meanwhile"
    assert page.evaluate("window.notices") == []  # a planned end is no failure
    watched.assert_clean()
