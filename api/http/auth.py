"""Who is asking: bearer tokens checked per encounter, and the GM-only rule.

Every route under ``/encounters/{id}`` has the ``token_checked`` guard and takes the
``viewer`` dependency, so no read or write of an encounter happens without a token of that
encounter (or the service key), and a request without one is refused before its body,
headers or query are read.
A token of another encounter, a wrong or a revoked one is a 401; a known viewer asking
for something their role may not do is a 403.  Tokens are never logged or echoed.
"""

from __future__ import annotations

import hmac
from typing import Any
from uuid import UUID

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency
from litestar.handlers import BaseRouteHandler
from litestar.params import FromPath

from api.http.problems import token_refused, unauthorized
from api.state import Services
from service.authorize import Forbidden
from service.commands import Actor
from service.tokens import Viewer, authenticate
from telemetry import context

SERVICE = Viewer(role="service")

REVOCATION_CHECKED_ON_WRITE = "revocation_checked_on_write"
"""Route option: the route writes through the pipeline, whose statement refuses a revoked
token, so a token this process checked before needs no new query (service.tokens); the
pipeline checks again before any refusal or replay, so a revoked token learns nothing."""
PLAYERS_WRITE = "players_write"
"""Route option: players may write here.  On other write routes a player's token is
always checked anew: those routes refuse players (403), and a revoked token must get its
401 first."""


NO_TOKEN = "this encounter needs a token: send 'Authorization: Bearer <token>'"  # noqa: S105
_VIEWER = "viewer"
"""Where the guard leaves the viewer it checked, for the ``viewer`` dependency: a key of
the request's state, read and written in the scope's own dict (what ``connection.state``
wraps in a new ``State`` on every access)."""


def bearer_token(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    header = connection.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("the Authorization header must read 'Bearer <token>'")
    return token.strip()


def is_service_key(settings_key: str | None, token: str | None) -> bool:
    return (
        settings_key is not None
        and token is not None
        and hmac.compare_digest(settings_key.encode(), token.encode())
    )


async def token_checked(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Guard of every route under ``/encounters/{id}``: the token is checked before the
    route reads anything else of the request (its body, headers, query), so a caller
    without a valid token hears 401 and nothing about the rest (docs/api.md).

    A route that checks the token in the very statement that reads the encounter (the
    state read, whose answer may come from no query at all) gets only the cheap part here
    when it has no query parameters, which are all it could refuse before that check."""
    token = bearer_token(connection)
    if token is None:
        raise unauthorized(NO_TOKEN)
    parameters = handler.parsed_fn_signature.parameters
    if "viewer" not in parameters and "write" not in parameters and not connection.query_params:
        return
    services: Services = connection.app.state.services
    encounter_id: UUID = connection.path_params["encounter_id"]
    viewer = await _viewer(services, encounter_id, token, handler.opt)
    connection.scope.setdefault("state", {})[_VIEWER] = viewer


async def provide_viewer(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    encounter_id: FromPath[UUID],
) -> Viewer:
    """The viewer the guard checked (``token_checked``); checked here if it was not."""
    checked: Viewer | None = request.scope.get("state", {}).get(_VIEWER)
    if checked is not None:
        return checked
    token = bearer_token(request)
    if token is None:
        raise unauthorized(NO_TOKEN)
    return await _viewer(services, encounter_id, token, request.route_handler.opt)


async def _viewer(
    services: Services, encounter_id: UUID, token: str, opt: dict[str, Any]
) -> Viewer:
    if is_service_key(services.settings.service_key, token):
        services.verified_tokens.remember(token, "service")
        context.note_token("service")
        return SERVICE
    viewer = None
    if opt.get(REVOCATION_CHECKED_ON_WRITE):
        viewer = await services.known_tokens.authenticate(services.pool, encounter_id, token)
        if viewer is not None and not viewer.is_gm and not _writes_here(viewer, opt):
            viewer = None
    if viewer is None:
        viewer = await authenticate(services.pool, encounter_id, token)
    if viewer is None:
        raise token_refused()
    services.verified_tokens.remember(token, viewer.token_id or viewer.role)
    context.note_token(viewer.token_id)
    return viewer


def _writes_here(viewer: Viewer, opt: dict[str, Any]) -> bool:
    """Whether this (non-GM) viewer may write on a route: a player where players write, a
    spectator nowhere.  Refused viewers are looked up anew, so a revoked one gets its 401."""
    return viewer.role == "player" and bool(opt.get(PLAYERS_WRITE))


def service_key_checked(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Guard of creating and listing encounters: ``require_service_key`` before the body
    or the query is read."""
    require_service_key(connection, connection.app.state.services)


def require_service_key(connection: ASGIConnection[Any, Any, Any, Any], services: Services) -> None:
    """When a service key is configured, creating and listing encounters need it."""
    key = services.settings.service_key
    token = bearer_token(connection)
    if key is not None and not is_service_key(key, token):
        raise unauthorized("creating and listing encounters needs this service's key")
    if key is not None and token is not None:
        services.verified_tokens.remember(token, "service")


def require_gm(viewer: Viewer, what: str) -> None:
    if not viewer.is_gm:
        raise Forbidden(f"only the GM may {what}")


def actor_of(viewer: Viewer, correlation_id: str | None = None) -> Actor:
    """The actor events record: role and token id, never the token.  Every write names
    its actor through here, so this is where a spectator token is refused (403)."""
    role = viewer.role
    if role == "spectator":
        raise Forbidden("a spectator token is read-only: it may not issue, undo, reveal or fork")
    return Actor(role=role, token_id=viewer.token_id, correlation_id=correlation_id)
