"""Redaction fails closed: an event no game declared the visibility of is never published whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from domain.events import Event
from domain.registry import get_game
from tests.contract.scenarios import GAME_NAMES


@dataclass(frozen=True, slots=True, kw_only=True)
class SecretRevealed(Event):
    """An event type no game knows, carrying a hidden card."""

    TYPE: ClassVar[str] = "test.SecretRevealed"
    seat: int
    card: str


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_event_of_no_declared_visibility_is_refused(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Registered in the game's codec (so it encodes) but absent from its redaction: the
    # situation of a new event type whose visibility nobody decided.
    codec = get_game(name).codec
    monkeypatch.setattr(codec, "_classes", dict(codec._classes))
    monkeypatch.setattr(codec, "_fields", dict(codec._fields))
    codec.register(SecretRevealed)
    with pytest.raises(AssertionError):
        get_game(name).redact(SecretRevealed(seat=0, card="AS"), 1)
