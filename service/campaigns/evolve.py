"""State + event -> state: no rules, the events are trusted."""

from __future__ import annotations

from typing import assert_never
from uuid import UUID

from msgspec.structs import replace

from service.campaigns import events as ev
from service.campaigns.state import Campaign, Carried, Encounter, Member, Statblock, State


def evolve(state: State, event: ev.Event) -> State:
    if isinstance(event, ev.CampaignCreated):
        return Campaign(name=event.name, ruleset=event.ruleset, options=event.options)
    assert isinstance(state, Campaign), f"{event} before campaign.created"
    return _evolve(state, event)


def _evolve(campaign: Campaign, event: ev.Event) -> Campaign:
    match event:
        case ev.CampaignCreated():
            return campaign
        case ev.MemberAdded():
            member = Member(name=event.name, sheet=event.sheet)
            return replace(campaign, members={**campaign.members, event.member: member})
        case ev.MemberRemoved():
            members = {k: m for k, m in campaign.members.items() if k != event.member}
            return replace(campaign, members=members)
        case ev.StatblockAdded():
            block = Statblock(name=event.name, sheet=event.sheet, hit_points=event.hit_points)
            return replace(campaign, statblocks={**campaign.statblocks, event.statblock: block})
        case ev.StatblockRemoved():
            blocks = {k: b for k, b in campaign.statblocks.items() if k != event.statblock}
            return replace(campaign, statblocks=blocks)
        case ev.EncounterStarted():
            encounter = Encounter(name=event.name, members=event.members, monsters=event.monsters)
            away = _away(campaign, event.members, event.encounter)
            encounters = {**campaign.encounters, event.encounter: encounter}
            return replace(campaign, members=away, encounters=encounters)
        case ev.CarriedOver():
            record = Carried(
                version=event.version,
                conditions=event.conditions,
                previous=event.previous,
                table=event.table,
                previous_table=event.previous_table,
            )
            encounter = campaign.encounters[event.encounter]
            back = _away(campaign, encounter.members, None)
            carried = replace(encounter, carried=(*encounter.carried, record))
            return _applied(replace(campaign, members=back), event.encounter, carried, record, True)
        case ev.CarryOverUndone() | ev.CarryOverRedone():
            encounter = campaign.encounters[event.encounter]
            undone = isinstance(event, ev.CarryOverUndone)
            records = tuple(
                replace(c, undone=undone) if c.version == event.version else c
                for c in encounter.carried
            )
            record = next(c for c in encounter.carried if c.version == event.version)
            changed = replace(encounter, carried=records)
            return _applied(campaign, event.encounter, changed, record, not undone)
        case ev.EncounterClosed():
            encounter = replace(campaign.encounters[event.encounter], closed=True)
            back = _away(campaign, encounter.members, None)
            encounters = {**campaign.encounters, event.encounter: encounter}
            return replace(campaign, members=back, encounters=encounters)
        case ev.Adjusted():
            if event.member is None:
                return replace(campaign, table=event.condition)
            member = replace(campaign.members[event.member], condition=event.condition)
            return replace(campaign, members={**campaign.members, event.member: member})
        case _:
            assert_never(event)


def _away(
    campaign: Campaign, members: tuple[str, ...], encounter: UUID | None
) -> dict[str, Member]:
    return {
        k: replace(m, away=encounter) if k in members else m for k, m in campaign.members.items()
    }


def _applied(
    campaign: Campaign, encounter_id: UUID, encounter: Encounter, record: Carried, forward: bool
) -> Campaign:
    """The campaign with ``record`` applied (``forward``) or taken back."""
    conditions = record.conditions if forward else record.previous
    members = {
        k: replace(m, condition=conditions[k]) if k in conditions else m
        for k, m in campaign.members.items()
    }
    table = record.table if forward else record.previous_table
    encounters = {**campaign.encounters, encounter_id: encounter}
    return replace(campaign, members=members, table=table, encounters=encounters)
