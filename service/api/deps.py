"""What every view needs: the service of this app and the caller's seat (from the token)."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

from flask import current_app, request
from flask_smorest import Blueprint

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


def caller_seat(game_id: str, wanted: object = None) -> int | None:
    """The seat the request's token holds; None for a spectator (no token). A bot account's
    token holds every seat naming its bot: ``wanted`` picks one."""
    token = bearer_token()
    return None if token is None else get_service().seat_for_token(game_id, token, wanted)


def required_seat(game_id: str, wanted: object = None) -> int:
    """The seat the request's token holds; Unauthorized without a token."""
    seat = caller_seat(game_id, wanted)
    if seat is None:
        raise Unauthorized("this request needs a seat token: Authorization: Bearer <token>")
    return seat
