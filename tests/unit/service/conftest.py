"""Fixtures of the API tests: an in-memory store and a test client of the app on it."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from service.store import InMemoryEventStore
from tests.support.api import make_app


@pytest.fixture
def store() -> InMemoryEventStore:
    return InMemoryEventStore()


@pytest.fixture
def client(store: InMemoryEventStore) -> FlaskClient:
    return make_app(store).test_client()
