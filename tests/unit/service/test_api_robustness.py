"""Game-shaped garbage (options, deals, actions near the legal ones) never makes a 5xx."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cards import deck_52
from domain.registry import all_games
from tests.support.api import Table, make_app

APP = make_app()
CLIENT = APP.test_client()
GAMES = sorted(all_games())
CODES = [*deck_52(), "RJ", "BJ", "ZZ", "", "10H"]

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.sampled_from(CODES),
                      st.text(max_size=6))
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=8,
)
cards = st.lists(st.sampled_from(CODES), max_size=12)
zone = st.sampled_from(["hand", "face_up", "face_down", "blind", "trump_card", "stock", "x"])
deal = st.fixed_dictionaries(
    {"seats": st.lists(st.dictionaries(zone, cards | json_value, max_size=3), max_size=7)},
    optional={"stock": cards | json_value, "extra": st.dictionaries(zone, cards | json_value,
                                                                    max_size=2)},
)
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def option_values(name: str) -> st.SearchStrategy[dict[str, Any]]:
    game = all_games()[name]
    specs = {o.name: o for o in game.options}
    value = st.one_of(json_leaf, *(st.sampled_from(o.choices) for o in specs.values()
                                   if o.choices))
    return st.dictionaries(st.sampled_from(sorted(specs)), value, max_size=4)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_creating_games_from_garbage_never_fails_the_server(name: str) -> None:
    @SETTINGS
    @given(options=option_values(name), deal=st.none() | deal, players=st.integers(0, 8),
           dealer=st.none() | st.integers(-1, 8))
    def create(options: dict[str, Any], deal: Any, players: int, dealer: int | None) -> None:
        body = {"game": name, "seats": [{"type": "open"}] * max(players, 1),
                "options": options, "deal": deal, "dealer": dealer}
        response = CLIENT.post("/games", json=body)
        assert response.status_code < 500, (body, response.json)

    create()


def mutations(legal: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    keys = sorted(legal)
    return st.one_of(
        st.builds(lambda k, v: {**legal, k: v}, st.sampled_from(keys), json_value),
        st.builds(lambda k: {x: legal[x] for x in keys if x != k}, st.sampled_from(keys)),
        st.builds(lambda k, v: {**legal, k: v}, st.text(max_size=8), json_value),
        st.builds(lambda c: {**legal, "cards": c}, st.lists(st.sampled_from(CODES), max_size=5)),
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_mangled_actions_never_fail_the_server(name: str) -> None:
    players = all_games()[name].min_players
    tables = [Table(CLIENT, game=name, players=players, seed=f"robust-{name}")]
    legal = [(s, a) for s in range(players) for a in tables[0].view(s)["view"]["legal_actions"]]
    assert legal

    @SETTINGS
    @given(data=st.data())
    def act(data: st.DataObject) -> None:
        seat, action = data.draw(st.sampled_from(legal))
        mangled = data.draw(mutations(action))
        response = tables[-1].act(seat, mangled, version=tables[-1].created["version"])
        assert response.status_code < 500, (mangled, response.json)
        if response.status_code == 200:  # a mutation that is legal: play on at a fresh table
            tables.append(Table(CLIENT, game=name, players=players, seed=f"robust-{name}"))

    act()
