"""A campaign moved whole: its export (the campaign's stream and every encounter started
from it, one archive), its import as a new campaign, and the verification of its chain
(docs/exports.md, "A whole campaign"; docs/campaigns.md, "Export and import").  Thin:
the format is events/campaign_archive.py, the import api/campaigns/archive_import.py."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO, Annotated, Any, Literal
from uuid import UUID

from litestar import Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter
from litestar.response import Stream

from api.campaigns.archive_import import ImportedCampaign, import_campaign
from api.campaigns.loaded import not_found
from api.campaigns.schemas import CampaignVerifyReport
from api.http.auth import service_key_checked
from api.http.problems import problem
from api.openapi.operations import SERVICE_KEY
from api.routes.base import CampaignRoutes
from api.routes.exports import ARCHIVE_MEDIA_TYPE, may_export
from api.state import Services
from events.archive import BrokenArchive
from events.archive_reading import StreamExists
from events.campaign_archive import CampaignArchiveHeader, ExportedStream, campaign_archive_lines
from events.errors import StreamNotFound
from events.heads import signed_head
from events.kinds import CAMPAIGN
from events.provenance import ChainKeys, provenance_report, read_provenance, vouches_for
from events.verify import verify_chain, verify_head, verify_pin
from service.campaign_store.stream import load
from service.campaigns.state import Campaign
from service.tokens import Viewer

_SPOOL_IN_MEMORY = 1024 * 1024
"""Bytes of an uploaded archive held in memory before it spills to a temporary file."""

Seeds = Annotated[
    Literal["revealed", "all"],
    QueryParameter(
        description="`revealed` (the default): the seeds the events have published. `all`"
        " (service key only): every stored seed of every encounter as well."
    ),
]
PinVersion = Annotated[int | None, QueryParameter(ge=0, description="A head you saw.")]
PinHash = Annotated[str | None, QueryParameter(pattern="^[0-9a-f]{64}$", description="Its hash.")]


def _keys(services: Services) -> ChainKeys:
    settings = services.settings
    return ChainKeys(
        own=settings.chain_key_bytes,
        trusted=tuple(k.encode() for k in settings.trusted_chain_keys),
    )


@post(
    "/campaigns/import",
    operation_id="importCampaign",
    status_code=201,
    summary="Import a campaign archive as a new campaign",
    security=[{SERVICE_KEY: []}, {}],
    guards=[service_key_checked],
    tags=("campaigns",),
    request_max_body_size=None,
)
async def import_campaign_archive(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> Response[ImportedCampaign]:
    """Takes the body of `GET /campaigns/{id}/export` (JSON Lines) and stores it as a NEW
    campaign with new encounters, every link between them rewritten, each stream's
    provenance recording its original id and head and who attested them. Answers with the
    new campaign's GM token and each encounter's, this once. A changed, forged, cut-off or
    too large archive is refused with a problem naming what is wrong, and nothing is
    written."""
    limit = services.settings.max_import_bytes
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL_IN_MEMORY) as spool:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise problem(
                    413, "archive-too-large", f"The archive is larger than {limit} bytes."
                )
            spool.write(chunk)
        spool.seek(0)
        try:
            imported = await import_campaign(services.pool, _lines(spool), _keys(services))
        except BrokenArchive as exc:
            raise problem(422, "broken-archive", f"The archive was refused: {exc}") from None
        except StreamExists as exc:  # a new id colliding: only a forged import could
            raise problem(409, "stream-exists", str(exc)) from None
    services.verified_tokens.remember(imported.campaign.gm_token)
    for encounter in imported.encounters:
        services.verified_tokens.remember(encounter.gm_token)
    location = f"/campaigns/{imported.campaign.id}"
    return Response(imported, status_code=201, headers={"Location": location})


def _lines(spool: IO[bytes]) -> Iterator[bytes]:
    yield from spool


class CampaignArchive(CampaignRoutes):
    """The export and the verification of one campaign."""

    @get(
        "/export",
        operation_id="exportCampaign",
        summary="The campaign and its encounters as one JSON Lines archive",
        media_type=ARCHIVE_MEDIA_TYPE,
    )
    async def export(
        self,
        campaign_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        seeds: Seeds = "revealed",
    ) -> Stream:
        """A `campaign` header listing the encounters started from the campaign, then the
        campaign's own stream and each encounter's, each exactly as
        `GET /encounters/{id}/export` writes it (signed when the service vouches for it),
        then a `campaign_end` line whose signature binds the set. GM or service key: the
        events are unredacted, and campaign tokens are not exported."""
        may_export(viewer, seeds, "the campaign")
        pool, key = services.pool, services.settings.chain_key_bytes
        try:
            head = await signed_head(pool, campaign_id, CAMPAIGN)
        except StreamNotFound:
            raise not_found(campaign_id) from None
        campaign = (await load(pool, campaign_id, up_to=head.version)).state
        assert isinstance(campaign, Campaign)  # its first event created it
        heads = [(campaign_id, head)]
        heads += [(eid, await signed_head(pool, eid)) for eid in campaign.encounters]
        streams = [
            ExportedStream(
                stream_id=sid,
                head=h,
                signer=key if await vouches_for(pool, sid, h, key) else None,
            )
            for sid, h in heads
        ]
        header = CampaignArchiveHeader(
            campaign_id=campaign_id,
            ruleset=campaign.ruleset,
            exported_at=datetime.now(UTC),
            seeds=seeds,
            encounters=tuple(campaign.encounters),
        )
        vouched = all(s.signer is not None for s in streams)
        lines = campaign_archive_lines(pool, header, streams, key if vouched else None)
        disposition = f'attachment; filename="campaign-{campaign_id}.jsonl"'
        return Stream(
            lines, media_type=ARCHIVE_MEDIA_TYPE, headers={"Content-Disposition": disposition}
        )

    @get("/verify", operation_id="verifyCampaign", summary="Verify the campaign's chain")
    async def verify(
        self,
        campaign_id: FromPath[UUID],
        services: NamedDependency[Services],
        version: PinVersion = None,
        hash: PinHash = None,
    ) -> CampaignVerifyReport:
        """Recomputes the campaign's hash chain (naming the first broken link), checks its
        head's signature under the service's key, with `version` and `hash` that the chain
        still extends that pinned head, and for an imported campaign says what this
        service did not witness (`provenance`: "imported, attested up to version N" or
        "imported, unattested", with the id and head it had in the archive). GM or
        player."""
        if (version is None) != (hash is None):
            raise problem(400, "bad-pin", "A pinned head needs both version and hash.")
        key = services.settings.chain_key_bytes
        async with (
            services.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            try:
                signed = await signed_head(conn, campaign_id, CAMPAIGN)
            except StreamNotFound:
                raise not_found(campaign_id) from None
            head = verify_head(campaign_id, signed, key)
            chain = await verify_chain(conn, campaign_id)
            record = await read_provenance(conn, campaign_id)
            provenance = None if record is None else provenance_report(campaign_id, record, key)
            pin = None
            if version is not None and hash is not None:
                pin = await verify_pin(conn, campaign_id, chain, version, hash)
        checks = [chain.ok, head.ok] + [r.ok for r in (pin, provenance) if r is not None]
        return CampaignVerifyReport(
            ok=all(checks), chain=chain, head=head, pin=pin, provenance=provenance
        )
