"""The commands that open an encounter started from the campaign, planned purely.

A new encounter is filled through its ruleset's own commands, so every number brought
in is decided, logged and audited like any other: the table prepared, each member added
from its sheet and brought to its condition (``CarryRules.seed``), each monster copied
from its statblock, the table settled.  Seeding reads the encounter as it stands after
the commands before, so the plan decides each command on a copy of the state as it goes;
the write path then decides the same commands, in the same order, for real.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.campaigns.events import EncounterStarted
from service.campaigns.state import Campaign
from service.campaigns.typed import condition_of, read, rules_of
from service.dice import ManualFaces, RollingDice
from service.registry import get_ruleset
from service.ruleset import RuleViolation


def opening(campaign: Campaign, started: EncounterStarted, state: Any) -> tuple[Any, ...]:
    """The ruleset commands that bring the party and the monsters of ``started`` into the
    encounter whose state is ``state`` (fresh, or with its ground laid: areas, zones)."""
    ruleset = get_ruleset(campaign.ruleset)
    rules = rules_of(campaign.ruleset)
    table = (
        rules.fresh_table
        if campaign.table is None
        else read(rules.table_type, campaign.table, "the table")
    )
    planned: list[Any] = []

    def plan(commands: Sequence[Any]) -> None:
        nonlocal state
        for command in commands:
            # Seeding and copying roll nothing: dice with no faces make a roll a refusal.
            dice = RollingDice(ManualFaces([]), next_roll_number=1)
            for event in ruleset.decide(state, command, dice):
                state = ruleset.evolve(state, event)
            planned.append(command)

    plan(rules.prepare_table(state, table))
    for member_id in started.members:
        member = campaign.members[member_id]
        sheet = read(rules.sheet_type, member.sheet, f"{member.name}'s sheet")
        condition = condition_of(rules, member.condition)
        plan((sheet,) if condition is None else rules.seed(state, sheet, condition))
    for monster in started.monsters:
        statblock = campaign.statblocks.get(monster.statblock)
        if statblock is None:
            raise RuleViolation(f"the statblock {monster.statblock} left the bestiary")
        sheet = rules.renamed(
            read(rules.sheet_type, statblock.sheet, statblock.name), monster.id, monster.name
        )
        if monster.hit_points is not None and rules.with_hit_points is not None:
            sheet = rules.with_hit_points(sheet, monster.hit_points)
        plan((sheet,))
    # Settled even for a fresh table: what seeding brought in may call for it (TACTICS
    # begins a new scene after carried wounds).
    plan(rules.settle_table(state, table))
    return tuple(planned)
