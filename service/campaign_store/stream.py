"""Reading a campaign's stream back from the store and folding it
(service/campaigns/stored.py)."""

from __future__ import annotations

from uuid import UUID

from events.db import Database
from events.errors import StreamNotFound
from events.kinds import CAMPAIGN_FIRST
from events.reading import read_stream
from service.campaigns.stored import Folded, fold


async def load(db: Database, campaign_id: UUID, up_to: int | None = None) -> Folded:
    """The campaign ``campaign_id`` (at version ``up_to``, default its latest);
    StreamNotFound when no campaign has that id (an encounter's id included)."""
    events = await read_stream(db, campaign_id, up_to_version=up_to)
    if not events or events[0].type != CAMPAIGN_FIRST:
        raise StreamNotFound(campaign_id)
    return Folded(fold(events), events[-1].stream_version, tuple(events))
