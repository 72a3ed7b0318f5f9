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

from events.campaign_access import copy_campaign_gm_tokens, copy_campaign_tokens
from events.db import Connection
from events.write import NewSeed
from service.campaigns import opening
from service.campaigns.commands import MonsterPick, StartEncounter
from service.campaigns.events import EncounterStarted
from service.campaigns.state import Campaign
from service.campaigns.stored import typed
from service.core_events import HitPointsRolled, RolledCopy
from service.dice import RollingDice, ServerFaces
from service.encounter import Encounter
from service.registry import codec_for
from service.ruleset import RuleViolation
from service.write.campaigns import CampaignWriter, no_dice
from service.write.opening import Also
from service.write.unit_of_work import Terms


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

    async def fill(
        conn: Connection, encounter_id: UUID, encounter: Encounter[Any], seed: NewSeed
    ) -> tuple[Any, ...]:
        command = StartEncounter(
            encounter=encounter_id, name=name, members=members, monsters=monsters
        )
        dice = hit_point_dice(encounter, seed)
        before, recorded = await writer.decided(conn, campaign_id, command, terms, dice)
        started = typed(recorded[0])
        assert isinstance(before, Campaign) and isinstance(started, EncounterStarted)
        if before.ruleset != encounter.ruleset:
            raise RuleViolation(f"the campaign plays {before.ruleset}, not {encounter.ruleset}")
        await copy_campaign_tokens(conn, campaign_id, encounter_id, started.members)
        await copy_campaign_gm_tokens(conn, campaign_id, encounter_id)
        codec = codec_for(before.ruleset)
        ruleset = codec.ruleset
        game, events = encounter.game, list(rolled(started))

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


def hit_point_dice(encounter: Encounter[Any], seed: NewSeed) -> RollingDice:
    """The encounter's own fair dice for the monsters' hit points, as its opening leaves
    them: public rolls from the public seed where the table's ``npc_health`` shows
    monsters' numbers, else secret rolls from the epoch's secret seed, so publishing the
    public seed at the end of the epoch tells nothing of them (docs/dice-and-fairness.md)."""
    dice = encounter.dice
    secret = encounter.npc_health != "exact"
    faces = (
        ServerFaces(seed.secret_seed, dice.client_seed, dice.epoch, dice.next_secret_index)
        if secret
        else ServerFaces(seed.seed, dice.client_seed, dice.epoch, dice.next_index)
    )
    return RollingDice(faces, next_roll_number=dice.rolls_made + 1, hidden=secret)


def rolled(started: EncounterStarted) -> tuple[HitPointsRolled, ...]:
    """The encounter's record of the hit points the campaign rolled on its dice: the same
    roll records, with each copy's hit points; nothing when none were rolled."""
    if not started.rolls:
        return ()
    copies = tuple(
        RolledCopy(id=m.id, name=m.name, hit_points=m.hit_points)
        for m in started.monsters
        if m.hit_points is not None
    )
    return (HitPointsRolled(copies=copies, rolls=started.rolls),)
