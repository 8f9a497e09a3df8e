"""A replay recorded before an event's shape changed still verifies through the upcaster."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events import Encoded, Event, EventCodec
from domain.protocol import Action
from replays.verify import check
from tests.support.fakegame import CardPlayed, CardsDealt, FakeGame, GameEnded, GameStarted
from tests.unit.replays.conftest import fake_replay


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayedV2(CardPlayed):
    """Schema 2 adds the card's rank (derived, for the example's sake)."""

    SCHEMA = 2
    rank: str


class FakeGameV2(FakeGame):
    codec = EventCodec([GameStarted, CardsDealt, CardPlayedV2, GameEnded])

    def decide(self, state: Any, seat: int, action: Action) -> list[Event]:
        return [
            CardPlayedV2(seat=e.seat, card=e.card, rank=e.card[0])
            if isinstance(e, CardPlayed)
            else e
            for e in super().decide(state, seat, action)
        ]


@FakeGameV2.codec.upcaster("fake.CardPlayed", 1)
def _add_rank(data: Encoded) -> Encoded:
    return {**data, "rank": data["card"][0]}


def test_an_old_replay_verifies_against_the_new_event_shape() -> None:
    old = fake_replay("upcast")
    assert {e.event["schema"] for e in old.events if e.event["type"] == "fake.CardPlayed"} == {
        1
    }
    report = check(old, FakeGameV2())
    assert report.ok, report.summary()


def test_without_the_upcaster_the_old_replay_is_a_compatibility_break() -> None:
    class NoUpcaster(FakeGameV2):
        codec = EventCodec([GameStarted, CardsDealt, CardPlayedV2, GameEnded])

    report = check(fake_replay("upcast"), NoUpcaster())
    assert not report.ok
    assert report.bad_version == 3 and "unreadable event" in report.reason
