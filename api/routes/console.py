"""The table console: a static page of plain ES modules shipped in the package and served
at ``/console`` (docs/console.md).  It is a client of the public API like any other: it
reaches the service only through the REST routes and the live stream."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from litestar import Router
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

FILES = Path(str(resources.files("api") / "console"))


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
    )
