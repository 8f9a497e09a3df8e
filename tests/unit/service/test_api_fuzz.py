"""Schemathesis fuzzes the app from its own OpenAPI spec, in process: no input gives a 5xx,
and every response matches what the spec documents (status, content type, body schema)."""

from __future__ import annotations

import zlib
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.api import Table, make_app

APP = make_app(CARDROOM_SSE_SECONDS=0.02, CARDROOM_SSE_HEARTBEAT=0.01)
TABLE = Table(APP.test_client(), game="fake", players=2, seed="fuzz")
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)
# Not positive_data_acceptance: a schema-valid body may still break a game's rules (422).
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


def aim_at_the_real_game(case: Any) -> None:
    """Half the cases reach a real game and seat (random ids only ever meet 404s)."""
    params = case.path_parameters or {}
    if "game_id" in params and zlib.crc32(repr(case.body).encode()) % 2 == 0:
        params["game_id"] = TABLE.id
        case.headers = {**(case.headers or {}), **TABLE.headers(0)}


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_makes_the_server_fail(case: Any) -> None:
    aim_at_the_real_game(case)
    case.call_and_validate(checks=CHECKS)
