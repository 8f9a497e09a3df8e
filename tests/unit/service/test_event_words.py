"""Each event item (GET /events, the stream) is told in game words, as its reader may see it:
the table's move list shows these words, so they must name seats by name and never a card the
reader could not see."""

from __future__ import annotations

import json
import random
import re

import pytest
from flask.testing import FlaskClient

from service.narration import named
from tests.support.api import Table

CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|RJ|BJ)\b")
GAMES = [("sixty_six", 2, {"game_target": 1}), ("shithead", 3, {}), ("sheepshead", 3, {})]


def played(client: FlaskClient, game: str, players: int, options: dict, moves: int) -> Table:
    table = Table(client, game, players=players, options=options, seed=f"words-{game}")
    rnd = random.Random(7)
    for _ in range(moves):
        move = table.random_move(rnd)
        if move is None:
            break
        assert table.act(*move).status_code == 200
    return table


def test_events_are_told_with_the_seats_names(client: FlaskClient) -> None:
    table = played(client, "sixty_six", 2, {"game_target": 1}, 2)
    items = client.get(f"/games/{table.id}/events?after=0", headers=table.headers(0)).json
    said = {item["event"]["type"]: item["text"] for item in items["events"]}
    assert said["lifecycle.SeatFilled"] == "player1 sat down"
    assert said["sixty_six.DealStarted"] == "deal 1 started; player0 deals"
    led = next(i for i in items["events"] if i["event"]["type"] == "sixty_six.CardPlayed")
    assert led["text"] == f"player{led['event']['seat']} led {led['event']['card']}"
    assert said["lifecycle.GameCreated"] is None  # nothing worth saying


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_an_event_told_names_no_card_its_reader_could_not_see(
    client: FlaskClient, game: str, players: int, options: dict
) -> None:
    table = played(client, game, players, options, 40)
    for reader in [None, *range(players)]:
        items = client.get(
            f"/games/{table.id}/events?after=0", headers=table.headers(reader)
        ).json["events"]
        told = [item for item in items if item["text"]]
        assert len(told) > 5, items
        for item in told:
            seen = set(CARD.findall(json.dumps(item["event"])))
            assert set(CARD.findall(item["text"])) <= seen, (reader, item)


def test_several_seats_are_named_too() -> None:
    names = ["ada", None, "cy"]
    assert named("the match ended: seats 0, 2 won", names) == "the match ended: ada, cy won"
    assert named("hand 1 scored (normal): seats 1, 2 won", names) == (
        "hand 1 scored (normal): seat 1, cy won"  # an open seat keeps its number
    )
    assert named("seat 2 took the trick", names) == "cy took the trick"
