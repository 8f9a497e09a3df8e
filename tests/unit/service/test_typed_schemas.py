"""The typed schemas describe what the games really produce and accept.

Random playouts of every contract setup of every game: each seat's and the spectator's view
loads with the game's view schema, every redacted event with its event schema, every legal
action passes ``check_action`` (the endpoint's validation), and the spec documents them all as
discriminated unions.
"""

from __future__ import annotations

import json
import random
from typing import Any

import marshmallow as ma
import pytest
from flask.testing import FlaskClient

from domain.errors import InvalidAction, InvalidCard
from domain.protocol import Setup, fold
from domain.registry import get_game
from service.api import typed
from service.api.typed.union import load_member
from tests.contract.scenarios import available

SCENARIOS = available()
# every game's first setup runs in the fast subset (``make unit``), the others with ``make test``
CASES = [
    pytest.param(name, players, options, id=f"{name}-{players}p-{i}",
                 marks=pytest.mark.slow if i else ())
    for name, module in SCENARIOS.items()
    for i, (players, options) in enumerate(module.SETUPS)
]


def _json(data: Any) -> Any:
    return json.loads(json.dumps(data))  # as the service sends it (tuples become lists)


def _check(game: str, state: Any, events: list[Any], players: int) -> None:
    rules = get_game(game)
    views = typed.all_views()
    event_schemas = typed.all_events()
    for seat in [*range(players), None]:
        view = rules.view(state, seat)
        load_member(views, _json(view), "game")
        for event in events:
            load_member(event_schemas, _json(rules.redact(event, seat)), "type")
        if seat is not None:
            for action in rules.legal_actions(state, seat):
                typed.check_action(game, action)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_every_view_event_and_legal_action_fits_its_schema(
    game: str, players: int, options: dict[str, Any]
) -> None:
    rules = get_game(game)
    rnd = random.Random(f"{game}{players}{sorted(options.items())}")
    events = list(rules.start(Setup(players=players, seed="typed", options=options)))
    state = fold(rules, events)
    for _ in range(120):
        _check(game, state, events, players)
        acting = rules.seats_to_act(state)
        if rules.outcome(state) is not None or not acting:
            break
        seat = rnd.choice(acting)
        events = rules.decide(state, seat, rnd.choice(rules.legal_actions(state, seat)))
        state = fold(rules, events, state)
    _check(game, state, events, players)


@pytest.mark.parametrize(
    ("game", "action", "error", "says"),
    [
        ("sixty_six", {"type": "play", "card": "AS"}, InvalidAction, '"cards": [<card code>]'),
        ("sixty_six", {"type": "play", "cards": ["AS", "KS"]}, InvalidAction, "cards"),
        ("sixty_six", {"type": "play", "cards": ["ZZ"]}, InvalidCard, "not a card code"),
        ("shithead", {"type": "flip", "slot": "0"}, InvalidAction, '"slot": <number>'),
        ("shithead", {"type": "swap", "hand_card": "3H"}, InvalidAction, "face_up_card"),
        ("sheepshead", {"type": "pick", "blitz": False}, InvalidAction, "blitz"),
        ("sheepshead", {"type": "resign", "now": True}, InvalidAction, "now"),
        ("sheepshead", {"type": "fly"}, InvalidAction, "expected one of pick"),
    ],
)
def test_a_wrong_shape_is_refused_saying_what_to_send(
    game: str, action: dict[str, Any], error: type[Exception], says: str
) -> None:
    with pytest.raises(error) as info:
        typed.check_action(game, action)
    assert type(info.value) is error and says in str(info.value)


def test_a_refused_shape_over_http_stores_nothing(client: FlaskClient) -> None:
    from tests.support.api import Table

    table = Table(client, game="sixty_six", seed="typed")
    before = table.summary()["version"]
    seat = table.summary()["to_act"][0]
    # the schema answers (the game itself would call a bare card code an invalid_card)
    response = client.post(f"/games/{table.id}/actions", headers=table.headers(seat),
                           json={"type": "play", "cards": "AS", "expected_version": before})
    assert response.status_code == 422 and response.json["code"] == "invalid_action"
    assert response.json["detail"] == (
        'play: cards: Not a valid list.; send {"type": "play", "cards": [<card code>]}'
    )
    assert table.summary()["version"] == before


def test_the_spec_has_a_discriminated_union_per_game(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    schemas = spec["components"]["schemas"]
    for game in typed.GAMES:
        camel = typed.camel(game)
        for kind, prop in (("Action", "type"), ("Event", "type")):
            union = schemas[f"{camel}{kind}"]
            assert union["discriminator"]["propertyName"] == prop
            assert len(union["oneOf"]) == len(union["discriminator"]["mapping"]) > 1
        assert f"{camel}Options" in schemas and f"{camel}Outcome" in schemas
        view = schemas[f"{camel}View"]["properties"]
        assert view["legal_actions"]["items"] == {"$ref": f"#/components/schemas/{camel}Action"}
    options = schemas["SixtySixOptions"]["properties"]
    assert options["game_target"]["minimum"] == 1 and options["game_target"]["default"] == 7
    assert schemas["GameView"]["discriminator"]["propertyName"] == "game"
    assert "lifecycle.SeatResigned" in schemas["GameEvent"]["discriminator"]["mapping"]
    assert "resign" in schemas["SixtySixAction"]["discriminator"]["mapping"]
    body = spec["paths"]["/games/{game_id}/actions"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["$ref"].endswith("/GameAction")
    replay = spec["paths"]["/games/{game_id}/replay"]["get"]["responses"]
    assert {"404", "409", "422", "503"} <= set(replay)
    assert "429" in spec["paths"]["/games/{game_id}/actions"]["post"]["responses"]


@pytest.mark.slow  # the whole spec through openapi-spec-validator
def test_the_spec_is_valid_openapi(client: FlaskClient) -> None:
    from openapi_spec_validator import validate

    validate(client.get("/openapi.json").json)


def test_a_schema_refuses_an_unknown_field() -> None:
    with pytest.raises(ma.ValidationError):
        load_member(typed.all_events(), {"type": "sixty_six.Passed", "seat": 0, "x": 1}, "type")


def test_lifecycle_actions_come_from_the_lifecycle_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from domain import lifecycle as registry
    from tests.support.api import make_app

    monkeypatch.setattr(registry, "LIFECYCLE_ACTIONS", ("resign", "leave"))
    monkeypatch.setattr(registry, "LIFECYCLE_ACTION_FIELDS", {"leave": {"note": "str"}},
                        raising=False)
    typed.check_action("shithead", {"type": "leave", "note": "bye"})
    with pytest.raises(InvalidAction, match="note"):
        typed.check_action("shithead", {"type": "leave", "note": 3})
    spec = make_app().test_client().get("/openapi.json").json
    mapping = spec["components"]["schemas"]["SheepsheadAction"]["discriminator"]["mapping"]
    assert mapping["leave"].endswith("/LifecycleLeaveAction")
    leave = spec["components"]["schemas"]["LifecycleLeaveAction"]["properties"]
    assert leave["note"]["type"] == "string"
