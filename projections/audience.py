"""Who a player or spectator is to the health rule, read at the moment they read."""

from __future__ import annotations

from uuid import UUID

from events.access import health_audience
from events.db import Database
from service.secrecy import Audience, NpcHealth

_SETTINGS: dict[str, NpcHealth] = {"exact": "exact", "descriptor": "descriptor", "hidden": "hidden"}


async def players_audience(db: Database, encounter_id: UUID) -> Audience:
    """The audience every player and spectator is, read now: the table's ``npc_health``
    and the combatants bound to a live player token (docs/secrecy.md, "NPC health").  The
    state, the log, the events, the statistics, live messages and webhooks all ask this,
    so a combatant is a player character on every path or on none."""
    setting, players = await health_audience(db, encounter_id)
    return Audience(npc_health=_SETTINGS.get(setting, "descriptor"), player_combatants=players)
