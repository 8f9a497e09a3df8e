"""Views: what the caller's seat (or a spectator) sees, with the legal actions."""

from __future__ import annotations

from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas
from service.api.deps import SECURITY, get_service, problems, reader

blp = Blueprint("views", __name__, url_prefix="/games", description="Seat and spectator views")


@blp.route("/<game_id>/view")
class View(MethodView):
    @blp.doc(security=SECURITY)
    @problems(blp, 401, 403, 404, 410, 500)
    @blp.response(200, schemas.ViewSchema())
    def get(self, game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        """The caller's view (Bearer seat token; none = spectator) with legal_actions.

        A bot account's token holds every seat naming its bot: ``?seat=N`` picks one.
        """
        view = get_service().view_for(game_id, reader(request.args.get("seat", type=int)))
        return view, 200, {"ETag": f'"{view["version"]}"'}
