"""Ruleset commands served past Litestar's routing and per-request machinery.

A command is what the service serves most, and what Litestar adds around the route's
own work (its CORS layer, the router's search, the kwargs model, dependency resolution,
the signature model) cost about a tenth of a command's CPU in the throughput benchmark
(bench/README.md).  Everything that is the service's own still runs, the same functions
in the same order: the observing middleware (log line, correlation id, rate limit,
metrics), the token guard, the strict body check, the ``viewer`` and ``write``
dependencies' providers, the route's function, its answer and the problem details of
any refusal.

Only a plain request goes this way: ``POST /encounters/{id}/commands`` with the id in
its canonical form, no ``Origin`` header (answers to other origins need Litestar's CORS
layer), a Host header Litestar accepts, and ``X-Correlation-ID`` and ``Prefer`` within
the length the route declares.  Anything else, and a body the strict check leaves to
Litestar (malformed JSON, none at all), is served by Litestar as before, so a client
cannot tell the two ways apart.  On a Litestar the service was not tested with,
everything goes through Litestar (api/litestar_internals.py ``serve_directly``).
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from litestar import Litestar, Request
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

from api import litestar_internals
from api.http.auth import provide_viewer
from api.http.headers import MAX_FREE_TEXT
from api.http.writes import provide_write
from api.state import Services

OPERATION = "postCommand"

_PATH = re.compile(
    r"/encounters/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
    r"[0-9a-fA-F]{12})/commands"
)
_LIMITED = (b"x-correlation-id", b"prefer")


def serve_commands_directly(app: Litestar) -> bool:
    """Serve plain command requests past Litestar's layers; False where it cannot."""
    return litestar_internals.serve_directly(app, OPERATION, _command, CommandDispatch)


class CommandDispatch:
    """In front of the app's layers: a plain command request to the direct route,
    everything else to Litestar."""

    def __init__(self, app: ASGIApp, direct: litestar_internals.DirectRoute) -> None:
        self.litestar, self._direct = app, direct

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == ScopeType.HTTP
            and scope["method"] == "POST"
            and not scope.get("root_path")
            and (match := _PATH.fullmatch(scope["path"])) is not None
            and _plain(scope["headers"])
        ):
            await self._direct(scope, receive, send, {"encounter_id": UUID(match[1])})
            return
        await self.litestar(scope, receive, send)


def _plain(headers: Any) -> bool:
    for key, value in headers:
        if key == b"origin":
            return False
        if key in _LIMITED and len(value) > MAX_FREE_TEXT:
            return False
        if key == b"host" and not litestar_internals.host_accepted(value):
            return False
    return True


async def _command(request: Request[Any, Any, Any], body: Any) -> Any:
    """What Litestar would call the command route with, from the same providers."""
    services: Services = request.app.state.services
    encounter_id: UUID = request.path_params["encounter_id"]
    headers = request.headers
    viewer = await provide_viewer(request, services, encounter_id)
    write = await provide_write(
        request,
        viewer,
        headers.get("if-match"),
        headers.get("idempotency-key"),
        headers.get("x-correlation-id"),
    )
    handler = request.route_handler
    return await handler.fn(
        encounter_id=encounter_id,
        data=body,
        services=services,
        viewer=viewer,
        write=write,
        prefer=headers.get("prefer"),
    )
