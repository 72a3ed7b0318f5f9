"""A campaign's reads: its state, log, events and statistics, for its GM and, without
what only the GM may know, for its players (docs/campaigns.md, "What players read").
Thin: the redaction is projections/campaign_seen.py, the figures
projections/campaign_stats.py."""

from __future__ import annotations

from uuid import UUID

from litestar import Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath

from api.campaigns.loaded import loaded
from api.campaigns.schemas import (
    CampaignEvents,
    CampaignLog,
    CampaignLogLine,
    CampaignView,
    campaign_view,
)
from api.http.headers import etag
from api.routes.base import CampaignRoutes
from api.routes.reads import At
from api.schemas import event_out
from api.state import Services
from projections.campaign_stats import CampaignStats, campaign_stats
from service.campaigns.stored import log_lines
from service.tokens import Viewer


class CampaignReads(CampaignRoutes):
    """Every read of one campaign: a token of it (GM or player) or the service key."""

    @get("/", operation_id="getCampaign", summary="The campaign's party, bestiary and encounters")
    async def get_campaign(
        self,
        campaign_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        at: At = None,
    ) -> Response[CampaignView]:
        """The party with each member's current condition, the bestiary, the table and
        the encounters started from the campaign with what each carried over. A player
        reads the bestiary and the monsters by name only (docs/campaigns.md). With `at`,
        the campaign as it stood right after that version."""
        folded, state = await loaded(services, campaign_id, viewer, at)
        view = campaign_view(campaign_id, folded.version, state)
        return Response(view, headers={"ETag": etag(folded.version)})

    @get("/log", operation_id="getCampaignLog", summary="The campaign's log")
    async def get_log(
        self,
        campaign_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        at: At = None,
    ) -> CampaignLog:
        """One line per event: members and statblocks, encounters started, what each
        carried over field by field, undos, redos and rulings. A player's log tells no
        statblock's or monster's numbers. With `at`, up to that version."""
        folded, _ = await loaded(services, campaign_id, viewer, at)
        lines = log_lines(folded.events)
        return CampaignLog(entries=[CampaignLogLine(version=v, text=t) for v, t in lines])

    @get("/events", operation_id="getCampaignEvents", summary="The campaign's events")
    async def get_events(
        self,
        campaign_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        at: At = None,
    ) -> CampaignEvents:
        """Every event of the campaign's stream with its hash links: as stored for the GM;
        for a player without the bestiary's numbers (committed in the chain, so every
        link still matches; an event written before commitments no longer does). With
        `at`, up to that version."""
        folded, _ = await loaded(services, campaign_id, viewer, at)
        return CampaignEvents(events=[event_out(e) for e in folded.events])

    @get("/stats", operation_id="getCampaignStats", summary="The campaign's statistics")
    async def get_stats(
        self,
        campaign_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        at: At = None,
    ) -> CampaignStats:
        """The damage meter and the dice fairness of every encounter started from the
        campaign, added up: each encounter counted as its own `/stats` counts it for the
        same reader (players see nothing of a secret roll before its reveal, nor an NPC's
        health the table hides); `encounters` lists each with the version counted. With
        `at`, the encounters the campaign had started by that version, each counted as it
        stands now: the campaign keeps no copy of a fight's figures, only the encounters
        do."""
        folded, state = await loaded(services, campaign_id, viewer, at)
        # No ETag: the figures move with the encounters, not only with the campaign.
        return await campaign_stats(
            services.pool, folded.version, state.encounters, gm=viewer.is_gm
        )
