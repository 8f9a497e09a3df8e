"""Games: create, list, read the public summary; the catalogue of games and options."""

from __future__ import annotations

from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas
from service.api.deps import SECURITY, bearer_token, get_service, problems, reader, required_token
from service.errors import Unauthorized

blp = Blueprint("games", __name__, url_prefix="/games", description="Create, list and read games")
catalogue_blp = Blueprint(
    "catalogue",
    __name__,
    url_prefix="/catalogue",
    description="The games this server plays and their options",
)


@blp.route("")
class Games(MethodView):
    @problems(blp, 422)
    @blp.arguments(schemas.ListQuerySchema(), location="query")
    @blp.response(200, schemas.GameListSchema())
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """List games, newest first (filter by game and status)."""
        return {"games": get_service().list_games(**query)}

    @problems(blp, 400, 413, 422)
    @blp.arguments(schemas.CreateGameSchema())
    @blp.arguments(schemas.IdempotencyHeadersSchema(), location="headers")
    @blp.response(201, schemas.CreatedSchema())
    def post(
        self, body: dict[str, Any], headers: dict[str, Any]
    ) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Create a game: seats open or bot, optional seed, dealer or explicit deal.

        Retrying with the same ``Idempotency-Key`` returns the first response and creates
        nothing twice (the game id is derived from the key).
        """
        created = get_service().create_game(
            body["game"],
            body["seats"],
            options=body.get("options"),
            seed=body.get("seed"),
            dealer=body.get("dealer"),
            deal=body.get("deal"),
            idempotency_key=headers.get("idempotency_key"),
            wait_for_bots=body["wait_for_bots"],
            creator=request.remote_addr or "",
        )
        return created, 201, {"Location": f"/games/{created['id']}"}


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404, 500)
    @blp.response(200, schemas.SummarySchema())
    def get(self, game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        """The public summary: seats, to act, version, deck commitment, head hash, outcome.
        A sealed fork's (a seat's fork of a game still played) is its seat's alone: 403
        ``fork_sealed`` without that seat's token.
        """
        try:
            who = reader()
        except Unauthorized:  # the summary is public: a header that is no bearer token is none
            who = None
        summary = get_service().summary(game_id, who)
        return summary, 200, {"ETag": f'"{summary["version"]}"'}


@blp.route("/<game_id>/forks")
class Forks(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 400, 401, 403, 404, 409, 422)
    @blp.arguments(schemas.ForkRequestSchema())
    @blp.arguments(schemas.IdempotencyHeadersSchema(), location="headers")
    @blp.response(201, schemas.CreatedSchema())
    def post(
        self, body: dict[str, Any], headers: dict[str, Any], game_id: str
    ) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Fork a game: a new game of its rules and options that starts at version ``at``,
        as a seat saw it (the cards it had not seen dealt afresh: nothing hidden is told) or,
        when it is over, with every card open (``"as": "open"``: the exact position,
        prearranged). A game still played is forked by a seat as itself, with its token: the
        fork is sealed (its alone, that seat open for it, the others the service's bots) until
        the game ends.
        """
        created = get_service().fork_game(
            game_id,
            at=body["at"],
            view_as=body["as_"],
            seats=body["seats"],
            idempotency_key=headers.get("idempotency_key"),
            creator=request.remote_addr or "",
            token=bearer_token(),
        )
        return created, 201, {"Location": f"/games/{created['id']}"}


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404, 409, 410)
    @blp.response(201, schemas.CreatedSchema())
    def post(self, game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Propose or accept the rematch of a finished game (a seat's token): a new game of the
        same rules, options and seats (the same bots, people's seats open for each to take
        with their own entropy), dealt afresh. Every seat asking gets the same game; the
        finished game's summary names it (``rematch``) for the others to follow.
        """
        created = get_service().rematch_game(game_id, required_token(),
                                             creator=request.remote_addr or "")  # fmt: skip
        return created, 201, {"Location": f"/games/{created['id']}"}


@blp.route("/<game_id>/review")
class Review(MethodView):
    @problems(blp, 403, 404, 409, 422)
    @blp.arguments(schemas.ReviewQuerySchema(), location="query")
    @blp.response(200, schemas.ReviewSchema())
    @blp.alt_response(202, schema=schemas.ReviewPendingSchema(), description="being made")
    def get(self, query: dict[str, Any], game_id: str) -> tuple[dict[str, Any], int,
                                                                dict[str, str]]:  # fmt: skip
        """A finished game's review for a seat: each of its decisions with the search bot's
        value of every alternative from that seat's view then, the move played and its cost
        (docs/analysis.md). 202 while a worker makes it (ask again after ``Retry-After``).
        """
        status, body = get_service().review(game_id, query["seat"])
        return body, status, {"Retry-After": "2"} if status == 202 else {}


@catalogue_blp.route("")
class Catalogue(MethodView):
    @catalogue_blp.response(200, schemas.CatalogueSchema())
    def get(self) -> dict[str, Any]:
        """Every game with its player range and options (types, defaults, limits)."""
        return {"games": get_service().catalogue()}
