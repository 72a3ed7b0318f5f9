"""The HTTP routes, one module per concern of the API.  The app registers what
``route_handlers`` lists and nothing else imports a route: what two routes share lives in
api/http/, projections/ or service/, never in a controller."""

from __future__ import annotations

from litestar.types import ControllerRouterHandler

from api.routes import (
    campaign_archive,
    campaign_reads,
    campaign_tokens,
    campaigns,
    commands,
    console,
    encounter_state,
    encounters,
    exports,
    health,
    history,
    live,
    reads,
    requests,
    rulesets,
    stats,
    tokens,
    verify,
    webhooks,
)


def route_handlers() -> list[ControllerRouterHandler]:
    """Every route of the API, in the order the OpenAPI document lists them."""
    return [
        encounters.create_encounter,
        encounters.get_encounters,
        encounter_state.EncounterState,
        commands.EncounterWrites,
        requests.EncounterRequests,
        tokens.EncounterTokens,
        history.EncounterHistory,
        reads.EncounterReads,
        exports.EncounterExport,
        stats.EncounterStatistics,
        verify.EncounterVerify,
        live.EncounterLive,
        webhooks.EncounterWebhooks,
        webhooks.ServiceWebhooks,
        campaigns.create_campaign,
        campaigns.CampaignWrites,
        campaign_tokens.CampaignTokenRoutes,
        campaign_reads.CampaignReads,
        campaign_archive.import_campaign_archive,
        campaign_archive.CampaignArchive,
        rulesets.list_rulesets,
        rulesets.get_ruleset_info,
        health.live,
        health.ready,
        console.console_router(),
        console.qr_code,
    ]
