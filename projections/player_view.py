"""The encounter as a player or spectator sees it: the public fold, through the ruleset's
player view (service/secrecy.py).

The stored state row is the GM's truth.  Players get the fold without the commands whose
secret rolls are still hidden (service.loading.load_public), and of that only what the
ruleset's ``player_state`` shows: health per the table's ``npc_health`` setting, nothing
the state remembers of rolls.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from events.access import player_combatants
from events.db import Database
from projections.audience import players_audience
from projections.log_queries import is_sealed_roll, read_marks
from projections.queries import current_state
from service.codec import EventCodec
from service.encounter import Encounter
from service.loading import load_at, load_public
from service.registry import codec_for
from service.secrecy import Audience

__all__ = [
    "audience_of",
    "encounter_as_seen",
    "game_as_seen",
    "player_combatants",
    "players_audience",
    "public_encounter",
]

NO_PLAYER_VIEW = {"hidden": "this ruleset has no player view of its state"}
"""Shown in place of ``game`` for a ruleset without ``player_state``: nothing, rather
than the GM's state."""


def game_as_seen(codec: EventCodec, encounter: Encounter[Any], audience: Audience) -> Any:
    view = codec.ruleset.player_state
    return NO_PLAYER_VIEW if view is None else view(encounter.game, audience)


SECRET_DICE = ("next_secret_index", "secret_server_rolls", "ended_secrets")
"""Dice counters that count secret dice: how many a secret command drew is an outcome
(a hit draws its damage die, a miss does not), so players never see them."""


def encounter_as_seen(codec: EventCodec, encounter: Encounter[Any], audience: Audience) -> bytes:
    """The state JSON a player reads: the wrapper (name, version, the public dice
    counters, the ids of secret commands and their seals without their rolls), the game
    through the ruleset's player view."""
    wrapper = msgspec.to_builtins(
        msgspec.structs.replace(encounter, game=game_as_seen(codec, encounter, audience))
    )
    wrapper["dice"] = {k: v for k, v in wrapper["dice"].items() if k not in SECRET_DICE}
    wrapper["secret_rolls"] = [r for r in wrapper["secret_rolls"] if not is_sealed_roll(r)]
    # An envelope's rolls are the GM's until it opens; what it waits for is public.
    wrapper["sealed"] = {
        seal_id: {k: v for k, v in seal.items() if k != "rolls"}
        for seal_id, seal in wrapper["sealed"].items()
    }
    return msgspec.json.encode(wrapper)


async def public_encounter(
    db: Database, encounter_id: UUID, version: int, *, at: int | None
) -> Encounter[Any]:
    """The encounter at ``version`` as players know it: the public fold while secret
    rolls shaped it; else the stored state row when it is at that version (no fold at
    all, the common case), or the fold up to ``at``."""
    secret = (await read_marks(db, encounter_id, up_to_version=at, secrets=True)).secret_versions()
    if secret:
        return await load_public(db, encounter_id, version, secret)
    if at is None and (row := await current_state(db, encounter_id)) is not None:
        stored = codec_for(row.ruleset).decode_state(row.state)
        if stored.version == version:
            return stored
    return await load_at(db, encounter_id, version)


def audience_of(encounter: Encounter[Any], players: frozenset[str]) -> Audience:
    return Audience(npc_health=encounter.npc_health, player_combatants=players)
