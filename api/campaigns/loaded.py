"""A campaign loaded for a route: 404 in the service's words when there is none, and
folded as the reader may read it (projections/campaign_seen.py)."""

from __future__ import annotations

from uuid import UUID

from api.http.problems import problem
from api.state import Services
from events.errors import StreamNotFound
from projections.campaign_seen import seen_by_players
from service.campaign_store.stream import load
from service.campaigns.state import Campaign
from service.campaigns.stored import Folded
from service.tokens import Viewer


def not_found(campaign_id: UUID) -> Exception:
    return problem(404, "campaign-not-found", f"No campaign has id {campaign_id}.")


async def loaded(
    services: Services, campaign_id: UUID, viewer: Viewer | None = None, at: int | None = None
) -> tuple[Folded, Campaign]:
    """The campaign as ``viewer`` may read it (without one: all of it, for the GM's
    writes), as it stood right after version ``at`` when one is given (time travel, as an
    encounter's ``?at=N``: a version not reached yet is a 404 naming the latest)."""
    try:
        folded = await load(services.pool, campaign_id, up_to=at)
    except StreamNotFound:
        raise not_found(campaign_id) from None
    if at is not None and folded.version < at:
        raise problem(
            404,
            "version-not-found",
            f"campaign {campaign_id} has no version {at} yet: its latest is {folded.version}",
            current_version=folded.version,
        )
    if viewer is not None and not viewer.is_gm:
        folded = seen_by_players(folded)
    assert isinstance(folded.state, Campaign)  # its first event created it
    return folded, folded.state
