"""Starting an encounter from the campaign, and closing one without carrying it over.

Monsters are copies of bestiary statblocks named "Goblin 1" ... "Goblin 4" (a single
copy keeps the statblock's name), with the sheet's hit points or hit points rolled on
the ``Dice`` handed in, so the decision stays pure and the rolls are recorded.
"""

from __future__ import annotations

from uuid import UUID

from service.campaigns import events as ev
from service.campaigns.commands import CloseEncounter, MonsterPick, StartEncounter
from service.campaigns.state import Campaign, Encounter
from service.campaigns.typed import condition_of, rules_of
from service.dice.model import Dice, RollRecord
from service.ruleset import RuleViolation


def start(campaign: Campaign, command: StartEncounter, dice: Dice) -> tuple[ev.Event, ...]:
    if command.encounter in campaign.encounters:
        raise RuleViolation(f"encounter {command.encounter} is already one of this campaign's")
    if len(set(command.members)) != len(command.members):
        raise RuleViolation("a member joins an encounter once")
    for member_id in command.members:
        _ready(campaign, member_id)
    if not command.members and not command.monsters:
        raise RuleViolation("an encounter needs someone in it: members, monsters or both")
    monsters: list[ev.Monster] = []
    rolls: list[RollRecord] = []
    for pick in command.monsters:
        monsters.extend(_copies(campaign, pick, dice, rolls))
    taken = set(command.members) | set(campaign.members)
    clash = next((m for m in monsters if m.id in taken), None)
    if clash is not None:
        raise RuleViolation(f"the monster {clash.name} would take the id {clash.id} of a member")
    ids = [m.id for m in monsters]
    if len(set(ids)) != len(ids):
        raise RuleViolation("pick each statblock once, with the number of copies wanted")
    return (
        ev.EncounterStarted(
            encounter=command.encounter,
            name=command.name.strip(),
            members=command.members,
            monsters=tuple(monsters),
            rolls=tuple(rolls),
        ),
    )


def _ready(campaign: Campaign, member_id: str) -> None:
    """A member joins only from the party, back from any other fight, and fit."""
    member = campaign.members.get(member_id)
    if member is None:
        raise RuleViolation(f"{member_id} is not a member of the party")
    if member.away is not None:
        raise RuleViolation(
            f"{member.name} fights in encounter {member.away} until it is carried over or closed"
        )
    rules = rules_of(campaign.ruleset)
    condition = condition_of(rules, member.condition)
    why = None if condition is None else rules.unfit(condition)
    if why is not None:
        raise RuleViolation(f"{member.name} cannot join a fight: {why}")


def _copies(
    campaign: Campaign, pick: MonsterPick, dice: Dice, rolls: list[RollRecord]
) -> list[ev.Monster]:
    statblock = campaign.statblocks.get(pick.statblock)
    if statblock is None:
        raise RuleViolation(f"there is no statblock {pick.statblock} in the bestiary")
    rules = rules_of(campaign.ruleset)
    if pick.hit_points == "rolled" and rules.with_hit_points is None:
        raise RuleViolation(
            f"{statblock.name}'s hit points cannot be rolled: {rules.no_hit_points}"
        )
    if pick.hit_points == "rolled" and statblock.hit_points is None:
        raise RuleViolation(
            f"{statblock.name} has no hit point notation to roll: its sheet's hit points are fixed"
        )
    copies = []
    for number in range(1, pick.count + 1):
        name = statblock.name if pick.count == 1 else f"{statblock.name} {number}"
        copy_id = pick.statblock if pick.count == 1 else f"{pick.statblock}-{number}"
        hit_points = None
        if pick.hit_points == "rolled" and statblock.hit_points is not None:
            record = dice.roll(statblock.hit_points, purpose=f"hit points of {name}")
            rolls.append(record)
            hit_points = max(1, record.total)
        copies.append(
            ev.Monster(statblock=pick.statblock, id=copy_id, name=name, hit_points=hit_points)
        )
    return copies


def close(campaign: Campaign, command: CloseEncounter) -> tuple[ev.Event, ...]:
    encounter = known(campaign, command.encounter)
    if encounter.closed:
        raise RuleViolation(f"{encounter.name} is already closed")
    if encounter.carried:
        raise RuleViolation(f"{encounter.name} was carried over: undo the carry-over instead")
    return (ev.EncounterClosed(encounter=command.encounter, reason=command.reason.strip()),)


def known(campaign: Campaign, encounter_id: UUID) -> Encounter:
    encounter = campaign.encounters.get(encounter_id)
    if encounter is None:
        raise RuleViolation(f"encounter {encounter_id} was not started from {campaign.name}")
    return encounter
