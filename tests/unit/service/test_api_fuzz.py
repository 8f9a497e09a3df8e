"""Schemathesis fuzzes the app from its own OpenAPI spec, in process: no input gives a 5xx,
and every response matches what the spec documents (status, content type, body schema).

One pytest test per operation, each with its own node id (``[METHOD /path]``): schemathesis'
own ``parametrize`` gives every operation the same node id, and pytest-xdist then runs only
one of them (tests/conftest.py refuses duplicate node ids at collection time).
"""

from __future__ import annotations

import zlib
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
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
FINISHED = Table(APP.test_client(), game="fake", players=2, seed="fuzz-over")
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)
OPERATIONS = {op.label: op for op in (result.ok() for result in schema.get_all_operations())}
EXAMPLES = 230  # per operation: with >= 10 operations, >= 2,500 requests in all
# Not positive_data_acceptance: a schema-valid body may still break a game's rules (422).
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


def play_to_the_end(table: Table) -> None:
    """Each seat plays its first legal action until the game is over."""
    for _ in range(100):
        summary = table.summary()
        if summary["status"] == "over":
            return
        seat = summary["to_act"][0]
        action = table.view(seat)["view"]["legal_actions"][0]
        body = {**action, "expected_version": summary["version"]}
        path = f"/games/{table.id}/actions"
        assert table.client.post(path, json=body, headers=table.headers(seat)).status_code == 200
    raise AssertionError("the fake game did not end")


play_to_the_end(FINISHED)


def aim_at_the_real_game(case: Any) -> None:
    """A third of the cases reach the game in play (with seat 0's token), a third the finished
    one (replays), a third keep their random id (which only ever meets 404s)."""
    params = case.path_parameters or {}
    if "game_id" not in params:
        return
    which = zlib.crc32(repr((case.body, case.query, params)).encode()) % 3
    if which < 2:
        table = (TABLE, FINISHED)[which]
        params["game_id"] = table.id
        case.headers = {**(case.headers or {}), **table.headers(0)}


def has_inputs(label: str) -> bool:
    """Whether the operation takes anything to vary (else hypothesis soon runs out of cases)."""
    operation = OPERATIONS[label]
    return bool(len(operation.path_parameters) + len(operation.query) + len(operation.body))


def test_every_operation_is_fuzzed() -> None:
    assert len(OPERATIONS) >= 10
    assert sum(EXAMPLES for label in OPERATIONS if has_inputs(label)) >= 2000


@pytest.mark.slow
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_no_request_makes_the_server_fail(label: str) -> None:
    sent: list[int] = []

    @given(case=OPERATIONS[label].as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def fuzz(case: Any) -> None:
        aim_at_the_real_game(case)
        response = case.call_and_validate(checks=CHECKS)
        sent.append(response.status_code)

    fuzz()
    print(f"{label}: {len(sent)} requests, statuses {sorted(set(sent))}")
    assert all(status < 500 for status in sent)
    assert len(sent) >= (EXAMPLES if has_inputs(label) else 1)
