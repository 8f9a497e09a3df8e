"""What every view needs: the service of this app and the caller's seat (from the token)."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

from flask import current_app, request
from flask_smorest import Blueprint

from service.access import Reader
from service.errors import Unauthorized
from service.games import GameService

EXTENSION = "cardroom"
SECURITY: list[dict[str, list[str]]] = [{"bearerAuth": []}, {}]  # a seat token, or none
F = TypeVar("F", bound=Callable[..., Any])


def problems(blp: Blueprint, *statuses: int) -> Callable[[F], F]:
    """Document the problem responses an operation can give (OpenAPI)."""

    def decorate(view: F) -> F:
        for status in statuses:
            view = blp.alt_response(status, response=HTTPStatus(status).name)(view)
        return view

    return decorate


def get_service() -> GameService:
    """The GameService of the running app (``create_app`` puts it there)."""
    service: GameService = current_app.extensions[EXTENSION]
    return service


def bearer_token() -> str | None:
    """The token of ``Authorization: Bearer <token>``; None without the header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send Authorization: Bearer <seat token>")
    return token.strip()


def reader(wanted: object = None) -> Reader:
    """Who the request reads as: its bearer token (none: a spectator). A bot account's token
    holds every seat naming its bot: ``wanted`` picks one."""
    return Reader(token=bearer_token(), wanted=wanted)


def required_token() -> str:
    """The request's bearer token; Unauthorized without one."""
    token = bearer_token()
    if token is None:
        raise Unauthorized("this request needs a seat token: Authorization: Bearer <token>")
    return token
