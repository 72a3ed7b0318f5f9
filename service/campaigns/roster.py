"""Creating a campaign, and its party and bestiary: the sheets the GM prepares once."""

from __future__ import annotations

from service.campaigns import events as ev
from service.campaigns.commands import (
    AddMember,
    AddStatblock,
    CreateCampaign,
    RemoveMember,
    RemoveStatblock,
)
from service.campaigns.state import Campaign
from service.campaigns.typed import plain, read, rules_of
from service.dice.notation import parse
from service.registry import UnknownRuleset
from service.ruleset import RuleViolation


def create(command: CreateCampaign) -> tuple[ev.Event, ...]:
    try:
        rules = rules_of(command.ruleset)
    except UnknownRuleset as unknown:
        raise RuleViolation(str(unknown)) from None
    options = read(rules.options_type, command.options, f"the {command.ruleset} carry-over options")
    name = command.name.strip()
    if not name:
        raise RuleViolation("a campaign needs a name")
    return (ev.CampaignCreated(name=name, ruleset=command.ruleset, options=plain(options)),)


def add_member(campaign: Campaign, command: AddMember) -> tuple[ev.Event, ...]:
    sheet = read(rules_of(campaign.ruleset).sheet_type, command.sheet, "the sheet")
    member: str = sheet.id
    _unused_id(campaign, member)
    return (ev.MemberAdded(member=member, name=sheet.name, sheet=plain(sheet)),)


def remove_member(campaign: Campaign, command: RemoveMember) -> tuple[ev.Event, ...]:
    member = campaign.members.get(command.member)
    if member is None:
        raise RuleViolation(f"{command.member} is not a member of the party")
    if member.away is not None:
        raise RuleViolation(
            f"{member.name} fights in encounter {member.away}: carry it over or close it first"
        )
    return (ev.MemberRemoved(member=command.member, reason=command.reason.strip()),)


def add_statblock(campaign: Campaign, command: AddStatblock) -> tuple[ev.Event, ...]:
    rules = rules_of(campaign.ruleset)
    sheet = read(rules.sheet_type, command.sheet, "the statblock's sheet")
    statblock: str = sheet.id
    _unused_id(campaign, statblock)
    if command.hit_points is not None:
        if rules.with_hit_points is None:
            raise RuleViolation(f"no hit points to roll: {rules.no_hit_points}")
        parse(command.hit_points)
    return (
        ev.StatblockAdded(
            statblock=statblock,
            name=sheet.name,
            sheet=plain(sheet),
            hit_points=command.hit_points,
        ),
    )


def remove_statblock(campaign: Campaign, command: RemoveStatblock) -> tuple[ev.Event, ...]:
    if command.statblock not in campaign.statblocks:
        raise RuleViolation(f"there is no statblock {command.statblock} in the bestiary")
    return (ev.StatblockRemoved(statblock=command.statblock),)


def _unused_id(campaign: Campaign, id: str) -> None:
    """Members and statblocks share one space of ids: a monster's copies are named from
    its statblock's id, and must never be taken for a member."""
    if id in campaign.members:
        raise RuleViolation(f"{campaign.members[id].name} of the party already has the id {id}")
    if id in campaign.statblocks:
        raise RuleViolation(f"the statblock {campaign.statblocks[id].name} already has the id {id}")
