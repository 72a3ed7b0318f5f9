"""Campaigns: create one, send it the GM's commands, start its encounters, carry one over
(docs/campaigns.md; its tokens are api/routes/campaign_tokens.py's, its reads
campaign_reads.py's).  Thin: the
campaign's rules are service/campaigns/, its reading service/campaign_store/, its
writing service/write/campaigns.py and campaign_encounters.py."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Response, post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody

from api.campaigns.carrier import carry_now
from api.campaigns.loaded import loaded, not_found
from api.campaigns.schemas import (
    CampaignCommandBody,
    CreateCampaignBody,
    StartEncounterBody,
)
from api.http.auth import require_gm, service_key_checked
from api.http.headers import etag, idempotency_key
from api.http.responses import json_bytes
from api.openapi.operations import SERVICE_KEY
from api.routes.base import CampaignRoutes
from api.routes.encounters import created_response
from api.state import Services
from events.errors import StreamNotFound
from events.idempotency import request_fingerprint
from service.campaigns.commands import CreateCampaign
from service.commands import Actor, Write
from service.tokens import Viewer
from service.write.campaign_encounters import filling
from service.write.campaigns import CampaignWriter, CampaignWritten
from service.write.unit_of_work import Terms

OPEN_OR_SERVICE_KEY: list[dict[str, list[str]]] = [{SERVICE_KEY: []}, {}]
"""As creating an encounter: the service key when the service has one, else no token."""


def _writer(services: Services) -> CampaignWriter:
    return CampaignWriter(services.pool, services.settings.chain_key_bytes)


@post(
    "/campaigns",
    operation_id="createCampaign",
    status_code=201,
    summary="Create a campaign",
    security=OPEN_OR_SERVICE_KEY,
    guards=[service_key_checked],
    tags=("campaigns",),
)
async def create_campaign(
    request: Request[Any, Any, Any],
    data: JSONBody[CreateCampaignBody],
    services: NamedDependency[Services],
    idempotency: Annotated[str | None, HeaderParameter(name="Idempotency-Key")] = None,
) -> Response[Any]:
    """Starts the campaign's stream with `campaign.created` and returns its GM token
    (`gm_token`) this once: keep it. 422 with the reason when the ruleset or its carry-over
    options are refused (nothing is written). A replay with the same Idempotency-Key
    returns the campaign without the token."""
    key = idempotency_key(idempotency)
    if key is not None:
        host = request.client.host if request.client else "unknown"
        key = f"service/{key}" if services.settings.service_key else f"client {host}/{key}"
    command = CreateCampaign(name=data.name, ruleset=data.ruleset, options=data.options)
    terms = Terms(
        actor=Actor(role="gm"),
        idempotency_key=key,
        request_hash=request_fingerprint(await request.body()),
    )
    answer, token = await _writer(services).create(command, terms)
    body = answer
    if token is not None:
        services.verified_tokens.remember(token)
        created = msgspec.json.decode(answer)
        body = msgspec.json.encode({**created, "gm_token": token})
    campaign_id = msgspec.json.decode(answer)["campaign_id"]
    return json_bytes(body, status_code=201, headers={"Location": f"/campaigns/{campaign_id}"})


class CampaignWrites(CampaignRoutes):
    """The GM's writes to one campaign."""

    @post("/commands", operation_id="postCampaignCommand", status_code=200, summary="A GM command")
    async def post_command(
        self,
        campaign_id: FromPath[UUID],
        data: JSONBody[CampaignCommandBody],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
    ) -> Response[Any]:
        """Adds or removes a party member or a statblock, undoes or redoes a carry-over,
        closes an encounter without carrying it over, or adjusts a condition by ruling.
        422 with the rule's reason when refused (nothing is written), 409 when If-Match is
        stale. GM only."""
        require_gm(viewer, "change the campaign")
        terms = Terms(
            actor=write["actor"],
            expected_version=write.get("expected_version"),
            idempotency_key=write.get("idempotency_key"),
            request_hash=write.get("request_hash", ""),
        )
        try:
            answer = await _writer(services).handle(campaign_id, data.command, terms)
        except StreamNotFound:
            raise not_found(campaign_id) from None
        version = msgspec.json.decode(answer)["version"]
        return json_bytes(answer, headers={"ETag": etag(version)})

    @post(
        "/encounters",
        operation_id="startCampaignEncounter",
        status_code=201,
        summary="Start an encounter from the campaign",
    )
    async def start_encounter(
        self,
        request: Request[Any, Any, Any],
        campaign_id: FromPath[UUID],
        data: JSONBody[StartEncounterBody],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
    ) -> Response[Any]:
        """Creates the encounter (linked to the campaign, its dice committed), records it
        in the campaign and brings in the members who join, as the campaign holds them,
        and the monsters copied from the bestiary ("Goblin 1" ...), all in one
        transaction: a refusal (a member away or unfit, a sheet the ruleset refuses) is a
        422 with the rule's words and writes nothing. Returns the encounter and its GM
        token this once. GM only."""
        require_gm(viewer, "start an encounter of the campaign")
        _, campaign = await loaded(services, campaign_id)  # 404 before anything else
        campaign_terms = Terms(actor=write["actor"], expected_version=write.get("expected_version"))
        fill = filling(
            _writer(services),
            campaign_id,
            data.name,
            data.members,
            data.monsters,
            campaign_terms,
            tuple(data.ground),
        )
        opened = await services.pipeline.create_encounter(
            ruleset=campaign.ruleset,
            name=data.name,
            options=data.options,
            client_seed=data.client_seed,
            allow_player_dice=data.allow_player_dice,
            npc_health=data.npc_health,
            actor=write["actor"],
            idempotency_key=write.get("idempotency_key"),
            request_hash=write.get("request_hash", ""),
            campaign=campaign_id,
            also=fill,
        )
        return created_response(opened, services)

    @post(
        "/encounters/{encounter_id:uuid}/carry-over",
        operation_id="carryOverEncounter",
        status_code=200,
        summary="Carry an encounter over now",
    )
    async def carry_over(
        self,
        campaign_id: FromPath[UUID],
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> Response[Any]:
        """Carries the encounter over as it stands, without waiting for it to end: an
        Aeonis game has no end of its own, and a session stops where the table does.
        422 while the encounter hides a secret roll, or when it was carried at this
        version already. GM only."""
        require_gm(viewer, "carry an encounter over")
        writer = _writer(services)
        try:
            async with services.pool.acquire() as conn, conn.transaction():
                recorded = await carry_now(writer, conn, campaign_id, encounter_id)
        except StreamNotFound:
            raise not_found(campaign_id) from None
        version = recorded[-1].stream_version
        answer = CampaignWritten(campaign_id=campaign_id, version=version, events=recorded)
        return json_bytes(msgspec.json.encode(answer), headers={"ETag": etag(version)})
