"""Fair dealing from the table (docs/fairness.md): the page a person joins from adds its own
entropy to the deal (32 bytes of crypto.getRandomValues), so the server never draws a person's
share; the page keeps it to check the seed with once the game is over. Issue 30: the table's
join sent only a name and the replay said ``source: "server"``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.helpers import Watched
from tests.browser.test_table import OPEN, take_seat
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e


def test_a_person_joining_from_the_table_sends_the_browsers_own_entropy(
    table_stack: Stack, pages: Callable[..., Watched]
) -> None:
    game_id = table_stack.create("shithead", [OPEN, BOT])["id"]
    watched = pages()
    take_seat(watched, game_id)
    kept = watched.page.evaluate(f"localStorage.getItem('cardroom.entropy.{game_id}.0')")
    events = table_stack.http.get(f"{table_stack.base}/games/{game_id}/events").json()["events"]
    filled = [e["event"] for e in events if e["event"]["type"] == "lifecycle.SeatFilled"]
    person = next(e for e in filled if e["seat"] == 0)
    assert person["source"] == "client"
    assert isinstance(kept, str) and person["entropy"] == kept and len(kept) == 64
    watched.assert_clean()
