"""The domain's one home for speed: how a game's frozen state is copied, and how a game
remembers the folds its ``decide`` made.

**Copies.** A game's state is a frozen dataclass, and its fold makes a new state for every
event with ``copy_with(state, field=value, ...)``. To mypy ``copy_with`` *is*
``dataclasses.replace``, whose plugin checks every field name and type at each call (mypy runs
strict over domain, replays, service and workers). At run time it builds the copy's
``__dict__`` in one step instead of running ``replace`` and the generated ``__init__`` (which
sets every field through ``object.__setattr__``): about a tenth of ``replace``'s time, and the
fold copies a state or two for every event. It checks nothing more at run time (a check of
the field names cost 2 % of Sixty-Six's random self-play); the tests fold every game and hold
each state to its fields. The state
classes are therefore frozen dataclasses *without* ``slots``. A copy's ``__dict__`` is an
ordinary dict, even when the original's was the key-sharing dict ``__init__`` leaves: CPython
3.11 reads an attribute of the latter about half as fast. Nothing else in the domain needs to
know any of this.

**Remembered folds.** A game's decide may fold some of an action's events to see their effect
(a trick's end, a bury), and whoever applies the action then folds the same events onto the
same states again. Such a game wraps its fold in a ``FoldMemo``: decide folds through
``remembered``, and ``evolve`` answers those folds again by identity before folding. States and
events are immutable, so a remembered result is what the fold gives; a miss (another thread's
action, events read back from the store) folds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

S = TypeVar("S")

__all__ = ["FoldMemo", "copy_with", "filled"]

if TYPE_CHECKING:
    from dataclasses import replace as copy_with
else:
    _new = object.__new__
    _set = object.__setattr__

    def copy_with(obj: Any, /, **changes: Any) -> Any:
        """A copy of the frozen dataclass ``obj`` with ``changes`` (``dataclasses.replace``)."""
        new = _new(type(obj))
        values = {**obj.__dict__, **changes}
        _set(new, "__dict__", values)
        return new


def filled(cls: type[S], values: dict[str, Any]) -> S:
    """An instance of the dataclass ``cls`` holding ``values`` (its fields, each once), made
    without running any code of the class (``__init__``, ``__post_init__``): how a snapshot's
    data is read back (``domain.state_codec``). Its ``__dict__`` is ``values`` itself, an
    ordinary dict as a copy's is; a class with slots gets them set one by one."""
    made: S = object.__new__(cls)
    if hasattr(made, "__dict__"):
        object.__setattr__(made, "__dict__", values)
    else:
        for name, value in values.items():
            object.__setattr__(made, name, value)
    return made


class FoldMemo(Generic[S]):
    """A game's fold, remembering the folds of the action being decided (one at a time)."""

    __slots__ = ("_fold", "_folds")

    def __init__(self, fold: Callable[[S, Any], S]) -> None:
        self._fold = fold
        self._folds: dict[int, tuple[S, Any, S]] = {}  # id(state) -> (state, event, after)

    def forget(self) -> None:
        """Drop what was remembered (a new action is being decided)."""
        self._folds.clear()

    def remembered(self, state: S, event: Any) -> S:
        """The fold of ``event`` onto ``state``, remembered for the same fold again."""
        after = self._fold(state, event)
        self._folds[id(state)] = (state, event, after)
        return after

    def evolve(self, state: S, event: Any) -> S:
        """The fold of ``event`` onto ``state``: remembered, or folded now."""
        known = self._folds.get(id(state))
        if known is not None and known[0] is state and known[1] is event:
            return known[2]
        return self._fold(state, event)
