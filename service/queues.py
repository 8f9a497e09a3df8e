"""The names of RQ's queues, shared by the workers that serve them and the service's metrics.

``bots`` for the built-in bots, ``bots-guests`` for the built-in bots' turns in games of bots
only that seat an HTTP bot account, and those games' exports (a stranger's bot sets their pace:
a worker gives them a bounded share of its time, ``workers.shares``), ``bot:<name>`` for an
operator's own bot, ``clocks`` for the clocks' scheduled enforcement, ``replays`` for replay
exports; under another namespace than the default each name is prefixed with it
(``<namespace>:bots``), so several deployments (or test runs) can share one Redis.
"""

from __future__ import annotations

DEFAULT_NAMESPACE = "cardroom"
BOTS = "bots"
GUESTS = "bots-guests"
REPLAYS = "replays"
CLOCKS = "clocks"


def queue_name(base: str, namespace: str) -> str:
    """A queue's name under the namespace (unprefixed under the default namespace)."""
    return base if namespace == DEFAULT_NAMESPACE else f"{namespace}:{base}"


def default_queues(namespace: str) -> list[str]:
    """What ``cardroom worker`` serves without ``--queue``: built-in bots (both queues),
    clocks, replays (a worker serves them by their shares of its time: ``workers.shares``)."""
    return [queue_name(BOTS, namespace), queue_name(GUESTS, namespace),
            queue_name(CLOCKS, namespace), queue_name(REPLAYS, namespace)]  # fmt: skip


def sweeper_seen_key(namespace: str) -> str:
    """The sweeper's record of the live games (on RQ's Redis, a hash: game -> ``version:since``,
    since when it has seen the game at that version): what the operator reads as stalled."""
    return f"{namespace}:sweeper:seen"
