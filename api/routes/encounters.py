"""Create, list and read encounters."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, QueryParameter

from api.auth import bearer_token, require_service_key
from api.headers import chain_head, etag, idempotency_key
from api.problems import problem
from api.responses import json_bytes
from api.routes.base import EncounterRoutes
from api.routes.reads import At
from api.schemas import CreateEncounter, EncounterPage, EncounterView
from api.state import Services
from api.writes import answer_headers
from events.db import Database
from events.idempotency import request_fingerprint
from events.replicas import ReadFrom
from events.store import signed_head
from projections.player_view import (
    audience_of,
    encounter_as_seen,
    player_combatants,
    public_encounter,
)
from projections.queries import current_state, list_encounters
from service.commands import Actor, CreatedEncounter
from service.loading import VersionNotReached, load_at
from service.pipeline import Opened
from service.registry import codec_for
from service.tokens import Viewer, encounters_opened_by

_decode_created = msgspec.json.Decoder(CreatedEncounter).decode

Limit = Annotated[int, QueryParameter(ge=1, le=1000, description="Page size (at most 1000).")]


@post("/encounters", operation_id="createEncounter", status_code=201, summary="Create an encounter")
async def create_encounter(
    request: Request[Any, Any, Any],
    data: JSONBody[CreateEncounter],
    services: NamedDependency[Services],
    idempotency: Annotated[str | None, HeaderParameter(name="Idempotency-Key")] = None,
) -> Response[CreatedEncounter]:
    """Starts a stream with `encounter.created` and the first dice commitment, and returns
    the GM token (`gm_token`) this once: keep it. A replay of the same request with the
    same Idempotency-Key returns the encounter without the token."""
    require_service_key(request, services)
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


@get("/encounters", operation_id="listEncounters", summary="List encounters, newest first")
async def get_encounters(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    limit: Limit = 50,
    cursor: FromQuery[str | None] = None,
    ruleset: FromQuery[str | None] = None,
) -> EncounterPage:
    """Ids and names only. With a service key configured, it needs the key and lists
    every encounter; without one, it lists the encounters the presented token opens."""
    require_service_key(request, services)
    only = None
    if services.settings.service_key is None:
        token = bearer_token(request)
        if token is None:
            raise problem(
                401,
                "unauthorized",
                "listing encounters needs a token: it lists the encounters the token opens",
            )
        only = await encounters_opened_by(services.pool, token)
    before = _decode_cursor(cursor) if cursor else None
    items = await list_encounters(
        services.pool, limit=limit, before=before, ruleset=ruleset, only=only
    )
    next_cursor = None
    if len(items) == limit:
        last = items[-1]
        next_cursor = base64.urlsafe_b64encode(
            f"{last.created_at.isoformat()}|{last.encounter_id}".encode()
        ).decode()
    return EncounterPage(items=items, next_cursor=next_cursor)


async def _player_view(
    db: Database, encounter_id: UUID, if_none_match: str | None, at: int | None
) -> Response[EncounterView]:
    signed = await signed_head(db, encounter_id)
    head = signed.version
    version = head if at is None else at
    if version > head:
        raise VersionNotReached(encounter_id, version, head)
    tag = etag(version)
    if at is None and if_none_match is not None and if_none_match.strip() == tag:
        return json_bytes(b"", status_code=304, headers={"ETag": tag})
    encounter = await public_encounter(db, encounter_id, version, at=at)
    codec = codec_for(encounter.ruleset)
    audience = audience_of(encounter, await player_combatants(db, encounter_id))
    view = EncounterView(
        encounter_id=encounter_id,
        ruleset=encounter.ruleset,
        version=encounter.version,
        state=msgspec.Raw(encounter_as_seen(codec, encounter, audience)),
    )
    headers = chain_head(signed.version, signed.last_hash, signed.signature)
    if at is None:
        headers["ETag"] = tag
    return json_bytes(msgspec.json.encode(view), headers=headers)


def _decode_cursor(cursor: str) -> tuple[datetime, UUID]:
    try:
        created, _, ident = base64.urlsafe_b64decode(cursor.encode()).decode().partition("|")
        return datetime.fromisoformat(created), UUID(ident)
    except ValueError:
        raise problem(400, "bad-cursor", "The cursor is not one this service handed out.") from None


class EncounterState(EncounterRoutes):
    """The current state of one encounter, and as it was at any version."""

    tags = ("encounters",)

    @get("/", operation_id="getEncounter", summary="Current state")
    async def get_encounter(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        if_none_match: Annotated[str | None, HeaderParameter(name="If-None-Match")] = None,
        at: At = None,
    ) -> Response[EncounterView]:
        """The folded state with `ETag` = stream version (send it back as `If-Match`).
        `?at=N` gives the state as the table saw it right after version N. Players and
        spectators get the players' view: without what secret GM rolls decided until they
        are revealed, and health per the encounter's `npc_health` setting."""
        if not viewer.is_gm:
            return await _player_view(read_from.db, encounter_id, if_none_match, at)
        if at is not None:
            past = await load_at(read_from.db, encounter_id, at)
            codec = codec_for(past.ruleset)
            view = EncounterView(
                encounter_id=encounter_id,
                ruleset=past.ruleset,
                version=past.version,
                state=msgspec.Raw(codec.encode_state(past)),
            )
            return json_bytes(msgspec.json.encode(view))
        row = await current_state(read_from.db, encounter_id)
        if row is None:
            raise problem(404, "encounter-not-found", f"No encounter has id {encounter_id}.")
        tag = etag(row.version)
        if if_none_match is not None and if_none_match.strip() == tag:
            return json_bytes(b"", status_code=304, headers={"ETag": tag})
        view = EncounterView(
            encounter_id=encounter_id, ruleset=row.ruleset, version=row.version, state=row.state
        )
        headers = {"ETag": tag}
        if row.head is not None:
            headers.update(chain_head(row.head.version, row.head.last_hash, row.head.signature))
        return json_bytes(msgspec.json.encode(view), headers=headers)
