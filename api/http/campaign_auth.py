"""Who is asking on ``/campaigns/{id}``: a token of that campaign (or the service key).

Campaign tokens live apart from encounter tokens (service/campaign_store/tokens.py), so
no encounter's token opens the campaign; the campaign's own tokens open its encounters
only through the copies made of them there (the GM's in every encounter the campaign
starts, a player's in those its member fights in).
Checked before anything else of the request is read, as on an encounter's routes; a
wrong, revoked or other campaign's token gets the same 401.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from api.http.auth import SERVICE, bearer_token, is_service_key
from api.http.problems import token_refused, unauthorized
from api.state import Services
from service.campaign_store.tokens import campaign_viewer
from service.tokens import Viewer

NO_CAMPAIGN_TOKEN = "this campaign needs a token: send 'Authorization: Bearer <token>'"  # noqa: S105
_VIEWER = "campaign_viewer"


async def campaign_token_checked(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    token = bearer_token(connection)
    if token is None:
        raise unauthorized(NO_CAMPAIGN_TOKEN)
    services: Services = connection.app.state.services
    campaign_id: UUID = connection.path_params["campaign_id"]
    if is_service_key(services.settings.service_key, token):
        connection.state[_VIEWER] = SERVICE
        return
    viewer = await campaign_viewer(services.pool, campaign_id, token)
    if viewer is None:
        raise token_refused()
    services.verified_tokens.remember(token, viewer.token_id or viewer.role)
    connection.state[_VIEWER] = viewer


async def provide_campaign_viewer(request: Request[Any, Any, Any]) -> Viewer:
    """The viewer ``campaign_token_checked`` found (the guard runs first)."""
    viewer: Viewer = request.state[_VIEWER]
    return viewer
