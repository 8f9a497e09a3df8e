"""A wall clock moved by hand: the service's (or a scheduler's) ``clock`` in tests of time."""

from __future__ import annotations


class Wall:
    """Says ``now`` (Unix seconds) until a test moves it."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
