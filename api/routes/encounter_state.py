"""The state of one encounter, as its reader may see it: current or as of a version,
answered from what this process knows of the head when nothing changed."""

from __future__ import annotations

import time
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter

from api.http.auth import (
    NO_TOKEN,
    SERVICE,
    bearer_token,
    is_service_key,
)
from api.http.headers import chain_head, etag, none_match_version, stream_version
from api.http.problems import problem, token_refused, unauthorized
from api.http.responses import json_bytes
from api.routes.base import EncounterRoutes
from api.routes.reads import At
from api.schemas import EncounterView
from api.state import Services
from events.db import Database
from events.replicas import ReadFrom
from events.store import SignedHead, signed_head
from projections.player_view import (
    audience_of,
    encounter_as_seen,
    player_combatants,
    public_encounter,
)
from projections.queries import ReaderRow, current_for_reader, current_state
from service.loading import VersionNotReached, load_at
from service.registry import codec_for
from service.tokens import Viewer, checked


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
