"""What a generic combatant carries from one fight to the next (``Ruleset.carry``).

The generic ruleset has no rules text of its own: it is the common ground of d20-style
tables, where hit points stay lost until healed and a condition "until removed" lasts
until someone removes it.  So a combatant carries its current hit points and its
conditions without a duration; a condition with a duration in rounds ends with the fight
whose rounds it counts.  Nothing recovers between fights: resting is the GM's ruling.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.carry_over import CARRIED_REASON, CarryOver, CarryRules
from service.ruleset import RulesetOption
from service.rulesets.generic.commands import (
    AddCombatant,
    AddConditionRuling,
    Adjudicate,
    Command,
    SetValue,
)
from service.rulesets.generic.state import Combatant, Ended, State


class GenericCondition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A combatant's condition between fights."""

    hp: Annotated[int, Meta(ge=-1_000_000, le=1_000_000)]
    conditions: tuple[str, ...] = ()
    """Conditions without a duration, by name, sorted."""


class GenericTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Nothing of a generic table outlives a fight."""


class GenericCarryOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    carry_conditions: bool = True


OPTION_NOTES = (
    RulesetOption(
        "carry_conditions",
        True,
        "Whether conditions without a duration (added 'until removed') stay on a combatant "
        "into the next fight. Default true: nothing removed them. False: every fight starts "
        "without conditions, as tables that clear them at the end of a scene do.",
    ),
)


def carry_over(
    state: State, options: GenericCarryOptions
) -> CarryOver[GenericCondition, GenericTable]:
    """Current hit points, and the conditions that last until removed; the down
    condition is the encounter's reading of 0 hp, given again when the hit points are."""
    down = state.options.down_condition

    def lasting(c: Combatant) -> tuple[str, ...]:
        if not options.carry_conditions:
            return ()
        names = (k.name for k in c.conditions if k.expires_at_round is None and k.name != down)
        return tuple(sorted(names))

    characters = {
        c.id: GenericCondition(hp=c.hp, conditions=lasting(c)) for c in state.combatants.values()
    }
    return CarryOver(characters=characters, table=GenericTable())


def sheet_of(state: State, combatant: str) -> AddCombatant:
    """The sheet at full hit points."""
    c = state.combatants[combatant]
    return AddCombatant(
        id=c.id,
        name=c.name,
        hp=c.max_hp,
        max_hp=c.max_hp,
        stats=dict(c.stats),
        side=c.side,
        attacks=dict(c.attacks),
        checks=dict(c.checks),
    )


def seed(state: State, sheet: AddCombatant, condition: GenericCondition) -> tuple[Command, ...]:
    """The sheet with the carried hit points; a ruling for hit points a sheet cannot
    start with (above the maximum, or below 0 where the table allows it); each carried
    condition, without a duration."""
    most = sheet.hp if sheet.max_hp is None else sheet.max_hp
    start = min(max(condition.hp, 0), most)
    commands: list[Command] = [msgspec.structs.replace(sheet, hp=start, max_hp=most)]
    if start != condition.hp:
        ruling = SetValue(combatant=sheet.id, field="hp", value=condition.hp)
        commands.append(Adjudicate(ruling=ruling, reason=CARRIED_REASON))
    commands.extend(
        Adjudicate(
            ruling=AddConditionRuling(target=sheet.id, condition=name), reason=CARRIED_REASON
        )
        for name in condition.conditions
    )
    return tuple(commands)


def with_hit_points(sheet: AddCombatant, hp: int) -> AddCombatant:
    return msgspec.structs.replace(sheet, hp=hp, max_hp=hp)


def ended(state: State) -> bool:
    """After ``generic.end_encounter``."""
    return isinstance(state.phase, Ended)


CARRY: CarryRules[
    State, Command, AddCombatant, GenericCondition, GenericTable, GenericCarryOptions
] = CarryRules(
    sheet_type=AddCombatant,
    condition_type=GenericCondition,
    table_type=GenericTable,
    options_type=GenericCarryOptions,
    option_notes=OPTION_NOTES,
    carry_over=carry_over,
    sheet_of=sheet_of,
    seed=seed,
    ended=ended,
    fresh_table=GenericTable(),
    with_hit_points=with_hit_points,
)
