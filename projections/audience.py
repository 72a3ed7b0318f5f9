"""Who a player or spectator is to the health rule, read at the moment they read."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from events.access import health_audience
from events.db import Database
from service.registry import codec_for
from service.ruleset import Ruleset
from service.secrecy import Audience, NpcHealth

_SETTINGS: dict[str, NpcHealth] = {"exact": "exact", "descriptor": "descriptor", "hidden": "hidden"}


async def players_audience(
    db: Database, encounter_id: UUID, ruleset: Ruleset[Any, Any, Any, Any] | None = None
) -> Audience:
    """The audience every player and spectator is, read now: the table's ``npc_health``
    and the combatants bound to a live player token (docs/secrecy.md, "NPC health").  The
    state, the log, the events, the statistics, live messages and webhooks all ask this,
    so a combatant is a player character on every path or on none.

    With the ``ruleset`` of a table whose player characters are more than the bound ids
    (``Ruleset.player_characters``: an Aeonis side's units), those from the current state
    as well: what an event names (a unit) is then a player character's when its side is.
    """
    expand = ruleset.player_characters if ruleset is not None else None
    setting, players, state = await health_audience(db, encounter_id, with_state=bool(expand))
    if expand is not None and players and state is not None and ruleset is not None:
        players = expand(codec_for(ruleset.name).decode_state(state).game, players)
    return Audience(npc_health=_SETTINGS.get(setting, "descriptor"), player_combatants=players)
