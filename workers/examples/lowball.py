"""An example user bot: always sends the legal action with the lowest cards.

Run it on its own queue with your own worker (docs/bots.md)::

    cardroom worker --bot lowball --import workers.examples.lowball
    # or plain RQ, using this module as the settings file:
    rq worker -c workers.examples.lowball -w rq.worker.SimpleWorker

and seat it in a game with ``{"type": "bot", "bot": "lowball"}``.
"""

from __future__ import annotations

import os
import random
from typing import Any

from workers.bots.base import Action, View, register_bot
from workers.config import bot_queue

RANK_ORDER = "23456789TJQKA"


def _card_value(card: str) -> int:
    return RANK_ORDER.index(card[0]) if card[0] in RANK_ORDER else len(RANK_ORDER)


AVOID = ("swap", "pickup")  # rearranging or taking cards only when nothing else is legal


def _weight(action: dict[str, Any]) -> tuple[int, int, int]:
    cards = action.get("cards") or ([action["card"]] if "card" in action else [])
    if cards:
        return (0, min(_card_value(c) for c in cards), -len(cards))
    return (2 if action.get("type") in AVOID else 1, 0, 0)


@register_bot("lowball")
class LowballBot:
    """Plays its lowest cards first (the most of them); else anything but a swap or a pickup."""

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view["legal_actions"]
        best = min(_weight(a) for a in legal)
        return dict(rng.choice([a for a in legal if _weight(a) == best]))


# RQ settings, for `rq worker -c workers.examples.lowball`: the worker imports this module
# (which registers the bot) and serves the bot's own queue.
REDIS_URL = (  # RQ's Redis: RQ_REDIS_URL, else the store's (docs/operations.md)
    os.environ.get("RQ_REDIS_URL") or os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
)
QUEUES = [bot_queue("lowball")]
