"""Worlds consistent with what one seat knows: the samplers of the search bots and of forks.

A *world* is a full state of a game (every hidden card placed) that agrees with everything a
seat has seen: its view and its redacted history (``view["history"]``). ``sample(game, view,
draws)`` deals the cards the seat has never seen to the places it cannot see, under the
constraints its history gives (voids, cards known to be in a hand, ...). The search bots draw
with ``random.Random``; a fork draws with ``SeededDraws``, a stream of the documented shuffle
(``domain.shuffle``), so that anyone can re-derive a fork's position from its seed.

Pure: the randomness is the caller's ``Draws``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

from domain.shuffle import SeededStream

T = TypeVar("T")
View = dict[str, Any]


class Draws(Protocol):
    """The few draws a sampler makes (``random.Random`` has them all)."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place."""
        ...

    def choices(self, population: Sequence[T], weights: Sequence[float] | None = None,
                *, k: int = 1) -> list[T]:  # fmt: skip
        """``k`` items drawn with replacement, by ``weights``."""
        ...

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items in a random order."""
        ...


class SeededDraws:
    """``Draws`` from the documented SHA-256 stream of (seed, label): the same on every
    machine and Python version (unlike ``random.Random``), so a fork's world is re-derivable.

    shuffle: Fisher-Yates as ``domain.shuffle.shuffled``; choices: one draw below the sum of the
    integer weights per item; sample: the first ``k`` of a shuffled copy."""

    def __init__(self, seed: str, label: str) -> None:
        self._stream = SeededStream(seed, label)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place."""
        for i in range(len(x) - 1, 0, -1):
            j = self._stream.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def choices(self, population: Sequence[T], weights: Sequence[float] | None = None,
                *, k: int = 1) -> list[T]:  # fmt: skip
        """``k`` items drawn with replacement by integer ``weights`` (all 1 when None)."""
        whole = [int(w) for w in weights] if weights is not None else [1] * len(population)
        out = []
        for _ in range(k):
            x = self._stream.below(sum(whole))
            index = 0
            while x >= whole[index]:
                x -= whole[index]
                index += 1
            out.append(population[index])
        return out

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items in a random order."""
        items = list(population)
        self.shuffle(items)
        return items[:k]


def events_of(view: View, start_type: str | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(short type, event) of the view's history, from the last event of ``start_type`` on."""
    events = list(view.get("history") or [])
    start = 0
    if start_type is not None:
        for i, event in enumerate(events):
            if str(event.get("type", "")).rpartition(".")[2] == start_type:
                start = i
    for event in events[start:]:
        yield str(event.get("type", "")).rpartition(".")[2], event


def samplers() -> dict[str, Callable[[View, Draws], Any]]:
    """Each game's sampler by the game's name."""
    from domain.worlds import sheepshead, shithead, sixty_six

    return {
        "shithead": shithead.sample_world,
        "sixty_six": sixty_six.sample_world,
        "sheepshead": sheepshead.sample_world,
    }
