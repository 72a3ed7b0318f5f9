"""Starting an encounter from a campaign: one transaction for both streams.

The encounter's stream is opened by the write path as any other (its first event names
the campaign, its dice commitment is made), and in the same transaction the campaign
records ``campaign.encounter_started`` under its own lock and the encounter is filled
with the party and the monsters through its ruleset's own commands (the campaign's
``opening`` plan).  A refusal anywhere (a member away or unfit, a sheet the encounter's
options refuse) rolls both back: nothing is written.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from events.db import Connection
from service.campaign_store.tokens import open_to_campaign_gm, share_with_encounter
from service.campaigns import opening
from service.campaigns.commands import MonsterPick, StartEncounter
from service.campaigns.events import EncounterStarted
from service.campaigns.state import Campaign
from service.campaigns.stored import typed
from service.encounter import Encounter
from service.registry import codec_for
from service.ruleset import RuleViolation
from service.write.campaigns import CampaignWriter, no_dice
from service.write.unit_of_work import Also, Terms


def filling(
    writer: CampaignWriter,
    campaign_id: UUID,
    name: str,
    members: tuple[str, ...],
    monsters: tuple[MonsterPick, ...],
    terms: Terms,
    ground: tuple[Any, ...] = (),
) -> Also:
    """The hook the write path runs once the encounter's stream exists: the campaign's
    record of it, and the events that bring the party and the monsters in."""
    rolled = next((m for m in monsters if m.hit_points == "rolled"), None)
    if rolled is not None:
        raise RuleViolation(
            f"{rolled.statblock}: hit points rolled on the encounter's dice are not offered"
            " yet; pick fixed hit points (the statblock's sheet) or set them by ruling"
        )

    async def fill(
        conn: Connection, encounter_id: UUID, encounter: Encounter[Any]
    ) -> tuple[Any, ...]:
        command = StartEncounter(
            encounter=encounter_id, name=name, members=members, monsters=monsters
        )
        before, recorded = await writer.decided(conn, campaign_id, command, terms)
        started = typed(recorded[0])
        assert isinstance(before, Campaign) and isinstance(started, EncounterStarted)
        if before.ruleset != encounter.ruleset:
            raise RuleViolation(f"the campaign plays {before.ruleset}, not {encounter.ruleset}")
        await share_with_encounter(conn, campaign_id, encounter_id, started.members)
        await open_to_campaign_gm(conn, campaign_id, encounter_id)
        codec = codec_for(before.ruleset)
        ruleset = codec.ruleset
        game, events = encounter.game, []

        def apply(command: Any) -> None:
            nonlocal game
            for event in ruleset.decide(game, command, no_dice()):
                game = ruleset.evolve(game, event)
                events.append(event)

        for laid in ground:
            codec.ensure_owns(laid)
            apply(laid)
        for planned in opening(before, started, game):
            apply(planned)
        return tuple(events)

    return fill
