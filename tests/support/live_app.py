"""The app on an in-memory store, served over real HTTP from a thread (werkzeug's threaded
server): for clients that speak only HTTP, such as ``cardroom bot run``, without Redis; or a
stand-in server's request handler, served the same way (``serving_handler``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

from flask import Flask
from werkzeug.serving import make_server


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """The app's base URL while it is served on a free loopback port."""
    with _served(make_server("127.0.0.1", 0, app, threaded=True)) as url:
        yield url


@contextmanager
def serving_handler(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A stand-in server (a request handler class) at a base URL on a free loopback port."""
    with _served(ThreadingHTTPServer(("127.0.0.1", 0), handler)) as url:
        yield url


@contextmanager
def _served(server: HTTPServer) -> Iterator[str]:
    """The server's base URL while a thread serves it; shut down and closed after."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
