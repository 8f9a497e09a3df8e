"""Seat arithmetic shared by the games: seats are ints 0..n-1, clockwise = increasing."""

from __future__ import annotations

from collections.abc import Callable


def next_seat(
    seat: int, players: int, direction: int = 1, skip: Callable[[int], bool] | None = None
) -> int | None:
    """The first seat after ``seat`` in ``direction`` for which ``skip`` is false, if any."""
    for step in range(1, players + 1):
        candidate = (seat + direction * step) % players
        if skip is None or not skip(candidate):
            return candidate
    return None


def seats_from(start: int, players: int) -> list[int]:
    """All seats clockwise beginning at ``start``."""
    return [(start + i) % players for i in range(players)]
