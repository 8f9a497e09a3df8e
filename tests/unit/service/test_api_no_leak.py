"""Whole games of every registered game played over HTTP by random seats: the API never shows
a seat (or a spectator) a card that seat could not have seen at the table, and a finished
game's log is complete, chained and matches what the store holds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.lifecycle import lifecycle
from domain.registry import all_games
from service.store import InMemoryEventStore
from tests.support.api import Table, cards_in, make_app
from tests.support.fakegame import FAKE
from tests.support.visibility import may_see

GAMES = {**all_games(), FAKE.name: FAKE}
ACTION_LIMIT = 150
# each game with its fewest players runs in the fast subset (``make unit``), the rest too in
# ``make test``
CASES = [
    pytest.param(name, players, id=f"{name}-{players}p",
                 marks=pytest.mark.slow if players > game.min_players else ())
    for name, game in sorted(GAMES.items())
    for players in sorted({game.min_players, game.max_players})
]


class Witness:
    """What each seat has seen: the union, after every single event, of the cards the rules
    let it see (written from the rules, independently of the game's ``view``)."""

    def __init__(self, store: InMemoryEventStore, game_id: str, players: int) -> None:
        meta = store.meta(game_id)
        assert meta is not None
        self.store, self.game_id = store, game_id
        self.rules = lifecycle(GAMES[meta.game])
        self.state = self.rules.initial_state()
        self.version = 0
        self.seen: dict[int | None, set[str]] = {s: set() for s in [None, *range(players)]}

    def catch_up(self) -> None:
        for stored in self.store.read(self.game_id, self.version):
            self.state = self.rules.evolve(self.state, self.rules.codec.decode(stored.event))
            self.version = stored.version
            for seat, seen in self.seen.items():
                seen |= self.visible(seat)

    def visible(self, seat: int | None) -> set[str]:
        # From the rules' visibility zones (tests.support.visibility), never the game's view.
        return may_see(self.rules.name, self.state, seat)

    def check(self, seat: int | None, response: Any, what: str) -> None:
        self.catch_up()
        if self.rules.outcome(self.state) is not None:
            return  # everything may be shown once the game is over
        leaked = cards_in(response) - self.seen[seat]
        assert not leaked, f"{what} shows seat {seat} cards it never saw: {sorted(leaked)}"


# Actions taken whenever legal (and ones put off: they end a deal early), so that the games
# reach the moments that move hidden cards.
PREFER = {"sixty_six": ("exchange_trump", "marriage")}
AVOID = {"sixty_six": ("declare_out", "close")}
MUST_REACH = {"sixty_six": ("sixty_six.MarriageAnnounced", "sixty_six.TrumpExchanged")}


def options_for(name: str) -> dict[str, Any]:
    return {"action_limit": ACTION_LIMIT}


class LeakyFake(type(FAKE)):  # type: ignore[misc]
    """The fake game with a redaction bug: every dealt hand is shown to everyone."""

    def redact(self, event: Any, seat: int | None) -> Any:
        return self.codec.encode(event)


def test_the_witness_catches_a_leaky_redaction() -> None:
    store = InMemoryEventStore()
    client = make_app(store, ).test_client()
    client.application.extensions["cardroom"].rulebook.games = {"fake": LeakyFake()}
    table = Table(client, game="fake", players=2)
    witness = Witness(store, table.id, 2)
    with pytest.raises(AssertionError, match="never saw"):
        witness.check(0, table.events(0), "the events")


class LeakyViewFake(type(FAKE)):  # type: ignore[misc]
    """The fake game with a view bug: a seat's view shows every hand."""

    def view(self, state: Any, seat: int | None) -> Any:
        return {**super().view(state, seat), "hands": [list(h) for h in state.hands]}


def test_the_witness_catches_a_leak_inside_the_game_s_own_view() -> None:
    store = InMemoryEventStore()
    client = make_app(store).test_client()
    client.application.extensions["cardroom"].rulebook.games = {"fake": LeakyViewFake()}
    table = Table(client, game="fake", players=2)
    witness = Witness(store, table.id, 2)
    witness.rules = lifecycle(LeakyViewFake())
    with pytest.raises(AssertionError, match="never saw"):
        witness.check(0, table.view(0), "a view")


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_random_game_over_http_never_leaks_a_hidden_card(name: str, players: int) -> None:
    store = InMemoryEventStore()
    client: FlaskClient = make_app(store).test_client()
    rnd = random.Random(f"{name}-{players}")
    table = Table(client, game=name, players=players, options=options_for(name),
                  seed=f"leak-{name}-{players}")
    witness = Witness(store, table.id, players)
    everyone: list[int | None] = [None, *range(players)]
    steps = 0
    prefer, avoid = PREFER.get(name, ()), AVOID.get(name, ())
    while (move := table.random_move(rnd, prefer, avoid)) is not None:
        seat, action, version = move
        response = table.act(seat, action, version=version, key=f"k{steps}")
        assert response.status_code == 200, response.json
        witness.check(seat, response.json, "an action response")
        if steps % 7 == 0:
            for viewer in everyone:
                witness.check(viewer, table.view(viewer), "a view")
                witness.check(viewer, table.events(viewer, after=max(0, version - 10)),
                              "the events")
            witness.check(None, table.summary(), "the summary")
        steps += 1
        assert steps <= ACTION_LIMIT + 5, "the action limit did not end the game"
    finished(table, store, name, f"leak-{name}-{players}")
    played = {e["event"]["type"] for e in table.events(None)["events"]}
    assert set(MUST_REACH.get(name, ())) <= played, "the game reaches its hidden-card moments"


def finished(table: Table, store: InMemoryEventStore, name: str, seed: str) -> None:
    summary = table.summary()
    assert summary["status"] == "over" and summary["outcome"] is not None
    assert summary["seed"] == seed
    log = table.all_events(None)
    assert log["over"] is True and log["version"] == summary["version"]
    entries = store.entries(table.id)
    assert [e["version"] for e in log["events"]] == [v for v, _ in entries]
    assert log["events"][-1]["hash"] == summary["head_hash"]
    commands = [e["command"] for e in log["events"] if "command" in e]
    players = summary["players"]
    assert commands[0]["kind"] == "create" and summary["prearranged"] is True
    assert [c["kind"] for c in commands[1 : players + 1]] == ["join"] * players
    assert all(c["kind"] == "action" for c in commands[players + 1 :])
    assert log["events"][-1]["event"]["seed"] == summary["seed"]  # lifecycle.SecretRevealed
    assert store.verify_chain(table.id).ok
    assert [g["id"] for g in table.client.get(f"/games?game={name}&status=over").json["games"]]
