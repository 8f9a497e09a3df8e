"""Security headers on every response of the app: the table's pages and files, /docs, the API's
answers (the action hot path's included), its problems and gunicorn's.

- ``Content-Security-Policy``: the service's own scripts, styles, images (and ``data:`` images:
  Swagger UI's icons), fonts and requests only; no plugin, no ``<base>``, no framing;
- ``X-Frame-Options: DENY`` (``frame-ancestors 'none'`` for browsers without CSP 2);
- ``X-Content-Type-Options: nosniff``: a JSON answer is never run as a script;
- ``Referrer-Policy: no-referrer``: a page's URL (a stream ticket, a game id) goes nowhere.
"""

from __future__ import annotations

from flask import Flask, Response

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")  # fmt: skip
HEADERS: list[tuple[str, str]] = [
    ("Content-Security-Policy", CSP),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
]


def secured(response: Response) -> Response:
    """``response`` with each of ``HEADERS`` it does not set itself."""
    for name, value in HEADERS:
        response.headers.setdefault(name, value)
    return response


def install(app: Flask) -> None:
    """Every answer Flask makes carries ``HEADERS`` (the action hot path adds them to its own:
    ``service.api.hotpath``; the bot accounts' refusals too: ``service.api.limits``; gunicorn's
    refusals too: ``service.gunicorn_conf``)."""
    app.after_request(secured)
