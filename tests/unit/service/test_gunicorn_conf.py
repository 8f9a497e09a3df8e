"""The gunicorn hooks ``cardroom serve`` adds, in a worker before it serves."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from gunicorn import util

from service import gunicorn_conf


@pytest.fixture
def hooked() -> Iterator[None]:
    write_error = util.write_error
    try:
        yield
    finally:
        util.write_error = write_error
        gc.unfreeze()


def test_a_worker_freezes_what_it_loaded_and_answers_its_own_errors_as_problems(
    hooked: None,
) -> None:
    loaded = len(gc.get_objects())
    gunicorn_conf.post_worker_init(object())
    assert gc.get_freeze_count() >= loaded  # a full collection no longer walks the app
    assert util.write_error is gunicorn_conf.write_problem
