"""``copy_with``: the one copy of a frozen game state with some fields changed.

To mypy it *is* ``dataclasses.replace``, whose plugin checks every field name and type at each
call. At run time it copies the instance's ``__dict__`` instead of re-running the generated
``__init__`` (which sets every field through ``object.__setattr__`` one by one): the fold copies
a state for every event, and this is several times faster. The state classes are therefore
frozen dataclasses *without* ``slots`` (a ``__dict__`` copies in one C call). The result is
the same as ``replace`` for these classes (no ``__post_init__``, no ``InitVar``; checked by
``tests/unit/core/test_state_copies.py``), and an unknown field name raises ``TypeError`` as
``replace`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

__all__ = ["Folds", "combined", "copy_with", "remember_fold"]

if TYPE_CHECKING:
    from dataclasses import replace as copy_with
else:
    _new = object.__new__
    _set = object.__setattr__

    def copy_with(obj: Any, /, **changes: Any) -> Any:
        """A copy of the frozen dataclass ``obj`` with ``changes`` (``dataclasses.replace``)."""
        current = obj.__dict__
        values = current.copy()
        values.update(changes)
        if len(values) != len(current):  # a name that is not a field added a key
            cls = type(obj)
            unknown = sorted(set(changes) - set(cls.__dataclass_fields__))
            raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
        new = _new(type(obj))
        _set(new, "__dict__", values)
        return new


def combined(obj: T) -> T:
    """The same object with an ordinary dict as its ``__dict__`` (for a fold's first state).

    ``__init__`` leaves a key-sharing (split) dict, and its copies (``copy_with``: every later
    state's) stay split: CPython (3.11) does not specialise attribute reads on an instance
    whose dict is split (about twice as slow), while an ordinary dict is read through a
    cached index (LOAD_ATTR_WITH_HINT)."""
    object.__setattr__(obj, "__dict__", dict(obj.__dict__))
    return obj


# A game's decide may fold some of an action's events to see their effect (a trick's end, a
# bury), and whoever applies the action then folds the same events onto the same states again.
# Such a game remembers decide's folds in a ``Folds`` of its own, one action's at a time (its
# decide clears it first), and its evolve answers them from it, by identity, before folding:
#     known = FOLDS.get(id(state))
#     if known is not None and known[1] is event and known[0] is state: return known[2]
# (inline: evolve runs for every event). States and events are immutable, so a remembered
# result is what the fold gives; a miss (another thread's action, events read back) folds.
Folds = dict[int, tuple[T, Any, T]]  # id(state) -> (state, event, the state after)


def remember_fold(folds: Folds[T], evolve: Callable[[T, Any], T], state: T, event: Any) -> T:
    """``evolve(state, event)``, remembered in ``folds`` for the same fold again."""
    after = evolve(state, event)
    folds[id(state)] = (state, event, after)
    return after
