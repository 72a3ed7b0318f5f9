"""The encounter as a player or spectator sees it: the public fold, through the ruleset's
player view (service/secrecy.py).

The stored state row is the GM's truth.  Players get the fold without the commands whose
secret rolls are still hidden (service.loading.load_public), and of that only what the
ruleset's ``player_state`` shows: health per the table's ``npc_health`` setting, nothing
the state remembers of rolls.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.access import player_combatants
from service.codec import EventCodec
from service.encounter import Encounter
from service.secrecy import Audience

__all__ = ["audience_of", "encounter_as_seen", "game_as_seen", "player_combatants"]

NO_PLAYER_VIEW = {"hidden": "this ruleset has no player view of its state"}
"""Shown in place of ``game`` for a ruleset without ``player_state``: nothing, rather
than the GM's state."""


def game_as_seen(codec: EventCodec, encounter: Encounter[Any], audience: Audience) -> Any:
    view = codec.ruleset.player_state
    return NO_PLAYER_VIEW if view is None else view(encounter.game, audience)


def encounter_as_seen(codec: EventCodec, encounter: Encounter[Any], audience: Audience) -> bytes:
    """The state JSON a player reads: the wrapper as is (name, version, dice counters,
    the ids of secret rolls), the game through the ruleset's player view."""
    wrapper = msgspec.structs.replace(encounter, game=game_as_seen(codec, encounter, audience))
    return msgspec.json.encode(wrapper)


def audience_of(encounter: Encounter[Any], players: frozenset[str]) -> Audience:
    return Audience(npc_health=encounter.npc_health, player_combatants=players)
