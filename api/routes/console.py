"""The table console: a static page of plain ES modules shipped in the package and served
at ``/console`` (docs/console.md).  It is a client of the public API like any other: it
reaches the service only through the REST routes and the live stream."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from litestar import Response, Router
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

FILES = Path(str(resources.files("api") / "console"))

SECURITY_HEADERS = {
    # Only the page's own files run, and it talks only to this service: a name or a log
    # line that somehow reached the page as markup could neither run a script nor send
    # the token elsewhere.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'self'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _secure(response: Response[Any]) -> Response[Any]:
    response.headers.update(SECURITY_HEADERS)
    return response


def console_router() -> Router:
    """``/console`` serves index.html, the rest its modules and styles.  ``no-cache`` lets
    browsers keep a copy but revalidate it, so an upgraded service is never shown with the
    modules of the previous one."""
    return create_static_files_router(
        path="/console",
        directories=[FILES],
        html_mode=True,
        name="console",
        cache_control=CacheControlHeader(no_cache=True),
        after_request=_secure,
    )
