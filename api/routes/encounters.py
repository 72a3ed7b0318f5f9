"""Create, list and read encounters."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency
from litestar.handlers import BaseRouteHandler
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, QueryParameter

from api.http.auth import (
    NO_TOKEN,
    SERVICE,
    bearer_token,
    is_service_key,
    require_service_key,
    service_key_checked,
)
from api.http.headers import chain_head, etag, idempotency_key, none_match_version, stream_version
from api.http.problems import problem, token_refused, unauthorized
from api.http.responses import json_bytes
from api.http.writes import answer_headers
from api.openapi.operations import SERVICE_KEY
from api.routes.base import EncounterRoutes
from api.routes.reads import At
from api.schemas import CreateEncounter, EncounterPage, EncounterView
from api.state import Services
from events.db import Database
from events.idempotency import request_fingerprint
from events.replicas import ReadFrom
from events.store import SignedHead, signed_head
from projections.player_view import (
    audience_of,
    encounter_as_seen,
    player_combatants,
    public_encounter,
)
from projections.queries import ReaderRow, current_for_reader, current_state, list_encounters
from service.commands import Actor, CreatedEncounter
from service.loading import VersionNotReached, load_at
from service.registry import codec_for
from service.tokens import Viewer, checked, encounters_opened_by
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


async def _player_view(
    db: Database, encounter_id: UUID, signed: SignedHead, at: int | None
) -> Response[EncounterView]:
    head = signed.version
    version = head if at is None else at
    if version > head:
        raise VersionNotReached(encounter_id, version, head)
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
        headers["ETag"] = etag(version)
    return json_bytes(msgspec.json.encode(view), headers=headers)


async def _reader(
    request: Request[Any, Any, Any],
    services: Services,
    encounter_id: UUID,
    *,
    unless_version: int | None,
    gm_state: bool,
) -> tuple[Viewer, ReaderRow]:
    """The viewer and the current head (and state) in one round trip: the token's row
    is read in the same statement as the version.  What it found is remembered for the
    conditional reads that follow (``_known_unchanged``), until a notice says otherwise
    or ``read_cache_seconds`` pass."""
    token = bearer_token(request)
    if token is None:
        raise unauthorized(NO_TOKEN)
    service = is_service_key(services.settings.service_key, token)
    token_id = None if service else token.partition(".")[0]
    known = services.live.hub.known if services.live is not None else None
    generation, asked_at = (known.generation, time.monotonic()) if known else (0, 0.0)
    row = await current_for_reader(
        services.pool,
        encounter_id,
        token_id,
        unless_version=unless_version,
        want_state=gm_state,
    )
    viewer: Viewer | None = SERVICE
    if not service:
        viewer = checked(token, row.token if row is not None else None)
    if viewer is None:
        raise token_refused()
    services.verified_tokens.remember(token, viewer.token_id or viewer.role)
    if row is None:
        raise problem(404, "encounter-not-found", f"No encounter has id {encounter_id}.")
    if known is not None:
        known.remember(
            encounter_id,
            row.head.version,
            None if service else token,
            viewer,
            asked_at=asked_at,
            generation=generation,
        )
    return viewer, row


def _known_unchanged(
    request: Request[Any, Any, Any], services: Services, encounter_id: UUID, version: int
) -> bool:
    """Whether this process's last read of the encounter (api/live/heads.py) already
    says the token opens it and its head is still ``version``: a 304 without a query.

    Only while the wake-up link is up (down, notices may be missing), and not when the
    client states a newer version it must see (``X-Min-Version``)."""
    live = services.live
    if live is None or not live.status.ok or not live.hub.known.enabled:
        return False
    token = bearer_token(request)
    if token is None:
        return False
    stated = request.headers.get("x-min-version")
    if stated is not None and (stream_version(stated.strip()) or version + 1) > version:
        return False  # a newer version to wait for, or a malformed header (its 400)
    known, now = live.hub.known, time.monotonic()
    if known.head(encounter_id, now) != version:
        return False
    if is_service_key(services.settings.service_key, token):
        return True
    return known.viewer(encounter_id, token, now) is not None


async def _answered_from_known_head(request: Request[Any, Any, Any]) -> Response[Any] | None:
    """The current-state read's ``before_request``: a 304 when the client's
    If-None-Match is the head this process knows (``_known_unchanged``), before Litestar
    parses parameters or opens the ``read_from`` dependency, which such an answer needs
    neither of; None lets the handler answer."""
    if "at" in request.query_params:
        return None
    version = none_match_version(request.headers.get("if-none-match"))
    if version is None:
        return None
    services: Services = request.app.state.services
    if not _known_unchanged(request, services, request.path_params["encounter_id"], version):
        return None
    assert services.live is not None  # _known_unchanged says no without it
    services.live.hub.known.answered += 1
    return json_bytes(b"", status_code=304, headers={"ETag": etag(version)})


def _decode_cursor(cursor: str) -> tuple[datetime, UUID]:
    """Any cursor of the documented form is a position in the list, so a client may
    also build one ("encounters created before this instant")."""
    micros, _, ident = cursor.partition(".")
    try:
        return _EPOCH + int(micros) * _MICROSECOND, UUID(ident)
    except (ValueError, OverflowError):
        raise problem(400, "bad-cursor", "The cursor is not one this service handed out.") from None


class EncounterState(EncounterRoutes):
    """The current state of one encounter, and as it was at any version."""

    tags = ("encounters",)

    @get(
        "/",
        operation_id="getEncounter",
        summary="Current state",
        before_request=_answered_from_known_head,
    )
    async def get_encounter(
        self,
        request: Request[Any, Any, Any],
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        read_from: NamedDependency[ReadFrom],
        if_none_match: Annotated[str | None, HeaderParameter(name="If-None-Match")] = None,
        at: At = None,
    ) -> Response[EncounterView]:
        """The folded state with `ETag` = stream version (send it back as `If-Match`).
        `?at=N` gives the state as the table saw it right after version N. Players and
        spectators get the players' view: without what secret GM rolls decided until they
        are revealed, and health per the encounter's `npc_health` setting."""
        # One statement checks the token and reads the head, and the GM's state unless
        # the client already has this version: a 304 is one round trip that never reads
        # the state, a GM's 200 one that sends the stored state as it is.
        known = none_match_version(if_none_match) if at is None else None
        viewer, row = await _reader(
            request,
            services,
            encounter_id,
            unless_version=known,
            gm_state=at is None and not read_from.replica,
        )
        if at is None and known == row.head.version:
            return json_bytes(b"", status_code=304, headers={"ETag": etag(known)})
        if not viewer.is_gm:
            # A replica that passed the version check answers with its own head.
            head = await signed_head(read_from.db, encounter_id) if read_from.replica else row.head
            return await _player_view(read_from.db, encounter_id, head, at)
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
        # A replica that passed the version check sends its own stored state and head
        # (the token was checked on the primary above).
        state = await current_state(read_from.db, encounter_id) if read_from.replica else row.state
        if state is None:
            raise problem(404, "encounter-not-found", f"No encounter has id {encounter_id}.")
        view = EncounterView(
            encounter_id=encounter_id,
            ruleset=state.ruleset,
            version=state.version,
            state=state.state,
        )
        head = state.head if read_from.replica and state.head is not None else row.head
        headers = {"ETag": etag(state.version)}
        headers.update(chain_head(head.version, head.last_hash, head.signature))
        return json_bytes(msgspec.json.encode(view), headers=headers)
