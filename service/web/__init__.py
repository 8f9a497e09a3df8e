"""The table: the browser client (lobby, play, watch, replay) and the offline /docs assets.

Plain files served from the installed package (``service/web/static``, package data), no build
step and nothing fetched from another host: the page is ES modules talking to the JSON API.
The Swagger UI files of /docs come from the ``swagger-ui-bundle`` package.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, send_from_directory, url_for
from markupsafe import escape

STATIC = Path(__file__).resolve().parent / "static"
SWAGGER_UI_URL = "/swagger-ui/"  # OPENAPI_SWAGGER_UI_URL: flask-smorest's /docs loads from here
# Swagger UI asks validator.swagger.io about the spec unless told not to: no request leaves.
SWAGGER_UI_CONFIG = {"validatorUrl": None}

blp = Blueprint("table", __name__)


def swagger_ui_dir() -> Path:
    """The folder of Swagger UI's files, shipped by the swagger-ui-bundle package."""
    import swagger_ui_bundle

    return Path(swagger_ui_bundle.swagger_ui_path)


@blp.get("/")
def index() -> Response:
    """The single page: lobby, table, watch and replay are views of it (hash routes)."""
    response = send_from_directory(STATIC, "index.html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.get("/table/<path:filename>")
def static_file(filename: str) -> Response:
    """The client's modules, styles and icon."""
    response = send_from_directory(STATIC, filename)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.get("/favicon.ico")
def favicon() -> Response:
    return send_from_directory(STATIC, "favicon.svg", mimetype="image/svg+xml")


@blp.get(f"{SWAGGER_UI_URL}<path:filename>")
def swagger_ui(filename: str) -> Response:
    """Swagger UI's files for /docs, served from the package (no CDN)."""
    return send_from_directory(swagger_ui_dir(), filename)


DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{title} API</title>
  <link rel="stylesheet" href="{ui}swagger-ui.css">
  <script src="{ui}swagger-ui-bundle.js" defer></script>
  <script src="{ui}swagger-ui-standalone-preset.js" defer></script>
  <script src="/table/docs.js" defer></script>
</head>
<body><div id="swagger-ui-container" data-config="{config}"></div></body>
</html>
"""


def docs_page() -> Response:
    """/docs: Swagger UI over the spec, started by a file of ours (``static/docs.js``) instead of
    flask-smorest's inline script, which the Content-Security-Policy would refuse to run."""
    config = {"url": url_for("api-docs.openapi_json"), "dom_id": "#swagger-ui-container",
              **SWAGGER_UI_CONFIG}  # fmt: skip
    page = DOCS_PAGE.format(title=escape(current_app.config["API_TITLE"]), ui=SWAGGER_UI_URL,
                            config=escape(json.dumps(config)))  # fmt: skip
    return Response(page, mimetype="text/html")


def register(app: Flask) -> None:
    """Serve the table, and /docs from the packaged Swagger UI (after the API's blueprints)."""
    app.register_blueprint(blp)
    app.view_functions["api-docs.openapi_swagger_ui"] = docs_page
