"""The table console: a static page of plain ES modules shipped in the package and served
at ``/console`` (docs/console.md).  It is a client of the public API like any other: it
reaches the service only through the REST routes and the live stream."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import msgspec
import segno
from litestar import Response, Router, post
from litestar.datastructures import CacheControlHeader
from litestar.params import JSONBody
from litestar.static_files import create_static_files_router

FILES = Path(str(resources.files("api") / "console"))

SECURITY_HEADERS = {
    # Only the page's own files run, and it talks only to this service: a name or a log
    # line that somehow reached the page as markup could neither run a script nor send
    # the token elsewhere.  Styles may be inline: streaming software adds its users' own
    # stylesheet to the overlay that way, and a style can fetch nothing from elsewhere
    # (images only from this service) nor run anything.  blob: images are the invite
    # links' QR codes, drawn by the service and shown from memory.
    "Content-Security-Policy": (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'self'; form-action 'self'"
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


class QrRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=1000)]
    """What the code holds: an invite link (the page sends it in a body, never in a URL,
    since the link carries a token)."""


@post("/console/qr", status_code=200, include_in_schema=False, name="console-qr")
async def qr_code(data: JSONBody[QrRequest]) -> Response[bytes]:
    """An invite link as a QR code (SVG), so a player at the table joins with the phone's
    camera.  Drawn here with segno rather than in the page: the page runs only its own
    small modules, and a well-kept encoder gets error correction and masking right."""
    out = io.BytesIO()
    segno.make(data.text, error="m").save(
        out, kind="svg", scale=4, border=4, xmldecl=False, title="QR code of the link"
    )
    return _secure(
        Response(
            out.getvalue(),
            media_type="image/svg+xml",
            headers={"Cache-Control": "no-store"},
        )
    )
