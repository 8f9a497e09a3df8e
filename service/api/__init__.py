"""The HTTP API: one flask-smorest blueprint per resource, registered from BLUEPRINTS.

To add a resource, add its blueprint here. ``OPTIONAL_BLUEPRINTS`` are modules owned by other
parts of the project (``service/api/replays.py``: GET /games/{id}/replay): each is registered
when the module exists and exposes ``blp``; views reach the service with
``service.api.deps.get_service()``.
"""

from __future__ import annotations

import importlib

from flask_smorest import Blueprint

from service.api import actions, events, games, seats, views

BLUEPRINTS: list[Blueprint] = [
    games.blp,
    games.catalogue_blp,
    seats.blp,
    views.blp,
    actions.blp,
    events.blp,
]

# >>> hook for other owners: module paths whose ``blp`` is registered when the module exists.
OPTIONAL_BLUEPRINTS: tuple[str, ...] = ("service.api.replays", "service.api.verification")


def all_blueprints() -> list[Blueprint]:
    """BLUEPRINTS plus the optional ones that exist."""
    found = list(BLUEPRINTS)
    for module_name in OPTIONAL_BLUEPRINTS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name != module_name:
                raise
            continue
        found.append(module.blp)
    return found
