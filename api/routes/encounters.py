"""Create and list encounters (reading one is api/routes/encounter_state.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency
from litestar.handlers import BaseRouteHandler
from litestar.params import FromQuery, HeaderParameter, JSONBody, QueryParameter

from api.http.auth import (
    bearer_token,
    require_service_key,
    service_key_checked,
)
from api.http.headers import idempotency_key
from api.http.problems import problem, unauthorized
from api.http.responses import json_bytes
from api.http.writes import answer_headers
from api.openapi.operations import SERVICE_KEY
from api.schemas import CreateEncounter, EncounterPage
from api.state import Services
from events.idempotency import request_fingerprint
from projections.queries import list_encounters
from service.commands import Actor, CreatedEncounter
from service.tokens import encounters_opened_by
from service.write.unit_of_work import Opened

_decode_created = msgspec.json.Decoder(CreatedEncounter).decode

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
Cursor = Annotated[
    str | None,
    QueryParameter(
        pattern=r"^[0-9]{1,16}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
        description="`next_cursor` of the page before: the creation time (microseconds since "
        "1970) and id of the last encounter listed; the page holds those created before it.",
    ),
]
Limit = Annotated[int, QueryParameter(ge=1, le=1000, description="Page size (at most 1000).")]


OPEN_OR_SERVICE_KEY: list[dict[str, list[str]]] = [{SERVICE_KEY: []}, {}]
"""The service key when the service has one (AEON_SERVICE_KEY), else no token."""


@post(
    "/encounters",
    operation_id="createEncounter",
    status_code=201,
    summary="Create an encounter",
    security=OPEN_OR_SERVICE_KEY,
    guards=[service_key_checked],
)
async def create_encounter(
    request: Request[Any, Any, Any],
    data: JSONBody[CreateEncounter],
    services: NamedDependency[Services],
    idempotency: Annotated[str | None, HeaderParameter(name="Idempotency-Key")] = None,
) -> Response[CreatedEncounter]:
    """Starts a stream with `encounter.created` and the first dice commitment, and returns
    the GM token (`gm_token`) this once: keep it. A replay of the same request with the
    same Idempotency-Key returns the encounter without the token."""
    body = await request.body()
    opened = await services.pipeline.create_encounter(
        ruleset=data.ruleset,
        name=data.name,
        options=data.options,
        client_seed=data.client_seed,
        allow_player_dice=data.allow_player_dice,
        npc_health=data.npc_health,
        actor=Actor(role="gm"),
        idempotency_key=_creation_key(request, services, idempotency_key(idempotency)),
        request_hash=request_fingerprint(body),
    )
    return created_response(opened, services)


def _creation_key(
    request: Request[Any, Any, Any], services: Services, key: str | None
) -> str | None:
    """Creation keys under their client: the service key's holder, else the client's
    address, so another client sending the same key opens its own encounter."""
    if key is None:
        return None
    if services.settings.service_key is not None:
        return f"service/{key}"
    host = request.client.host if request.client else "unknown"
    return f"client {host}/{key}"


def created_response(opened: Opened, services: Services) -> Response[CreatedEncounter]:
    """201 with the stored answer, plus the GM token when this request minted it."""
    created = _decode_created(opened.response)
    body = opened.response
    if opened.gm_token is not None:
        services.verified_tokens.remember(opened.gm_token)
        body = msgspec.json.encode(msgspec.structs.replace(created, gm_token=opened.gm_token))
    headers = {"Location": f"/encounters/{created.encounter_id}"}
    headers.update(answer_headers(opened.response))
    return json_bytes(body, status_code=201, headers=headers)


def _may_list(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard of the list: the service key where there is one, else a token (whose
    encounters are listed), before the query is read."""
    services: Services = connection.app.state.services
    require_service_key(connection, services)
    if services.settings.service_key is None and bearer_token(connection) is None:
        raise unauthorized(
            "listing encounters needs a token: it lists the encounters the token opens"
        )


@get(
    "/encounters",
    operation_id="listEncounters",
    summary="List encounters, newest first",
    security=OPEN_OR_SERVICE_KEY,
    guards=[_may_list],
)
async def get_encounters(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    limit: Limit = 50,
    cursor: Cursor = None,
    ruleset: FromQuery[str | None] = None,
) -> EncounterPage:
    """Ids and names only. With a service key configured, it needs the key and lists
    every encounter; without one, it lists the encounters the presented token opens."""
    only = None
    if services.settings.service_key is None:
        token = bearer_token(request)
        assert token is not None  # the guard refused the request without one
        only = await encounters_opened_by(services.pool, token)
    before = _decode_cursor(cursor) if cursor else None
    items = await list_encounters(
        services.pool, limit=limit, before=before, ruleset=ruleset, only=only
    )
    next_cursor = None
    if len(items) == limit:
        last = items[-1]
        next_cursor = f"{(last.created_at - _EPOCH) // _MICROSECOND}.{last.encounter_id}"
    return EncounterPage(items=items, next_cursor=next_cursor)


def _decode_cursor(cursor: str) -> tuple[datetime, UUID]:
    """Any cursor of the documented form is a position in the list, so a client may
    also build one ("encounters created before this instant")."""
    micros, _, ident = cursor.partition(".")
    try:
        return _EPOCH + int(micros) * _MICROSECOND, UUID(ident)
    except (ValueError, OverflowError):
        raise problem(400, "bad-cursor", "The cursor is not one this service handed out.") from None
