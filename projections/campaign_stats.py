"""GET /campaigns/{id}/stats: the damage meter and the dice fairness of a campaign, its
encounters' figures added up.

Each encounter counts exactly as its own ``/stats`` counts it for the same reader
(projections/stats.py): what a player may not see there (a secret roll not yet revealed,
an NPC's health under ``descriptor`` or ``hidden``) is in no sum here either, so the
campaign's figures tell a player nothing an encounter's would not.  Turns, commands and
attackers do not run on from one encounter into the next; a combatant is its id, so a
party member is one line across every fight, and so is a statblock's copy ("goblin-1").
"""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

import msgspec

from events.db import Database
from projections.stats import tally_encounter
from service.combat_stats import CombatantStats, DiceStats, Tally


class EncounterCounted(msgspec.Struct, kw_only=True):
    encounter_id: UUID
    version: int
    """The encounter's version its figures are as of."""


class CampaignStats(msgspec.Struct, kw_only=True):
    version: int
    """The campaign's version: which encounters it had."""
    encounters: list[EncounterCounted]
    combatants: list[CombatantStats]
    unattributed_damage: int
    rolls: int
    dice: DiceStats


async def campaign_stats(
    db: Database, version: int, encounters: Iterable[UUID], *, gm: bool
) -> CampaignStats:
    """The figures of ``encounters`` added up, as the GM (``gm``) or a player reads them."""
    tally = Tally()
    counted = []
    for encounter_id in encounters:
        tally.next_stream()
        at = await tally_encounter(db, encounter_id, tally, at=None, gm=gm)
        counted.append(EncounterCounted(encounter_id=encounter_id, version=at))
    summed = tally.result(version)
    return CampaignStats(
        version=version,
        encounters=counted,
        combatants=summed.combatants,
        unattributed_damage=summed.unattributed_damage,
        rolls=summed.rolls,
        dice=summed.dice,
    )
