"""The HTTP API: one flask-smorest blueprint per resource, registered from BLUEPRINTS.

To add a resource, add its blueprint here; views reach the service with
``service.api.deps.get_service()``.
"""

from __future__ import annotations

from flask_smorest import Blueprint

from service.api import (
    actions,
    admin,
    bots,
    events,
    fairness,
    games,
    replays,
    seats,
    verification,
    views,
)

BLUEPRINTS: list[Blueprint] = [
    games.blp,
    games.catalogue_blp,
    seats.blp,
    views.blp,
    actions.blp,
    events.blp,
    replays.blp,
    verification.blp,
    bots.blp,
    admin.blp,
    fairness.blp,
]


def all_blueprints() -> list[Blueprint]:
    """Every blueprint of the API."""
    return list(BLUEPRINTS)
