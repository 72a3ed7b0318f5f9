"""What a TACTICS creature carries from one fight to the next (``Ruleset.carry``).

Wounds are the text's only damage track and it has no healing (TAC-15, TAC-16; healing
is the GM's ``heal_wounds``), so they carry, each batch with its source: "if all the
wounds came from the same source ... you are dead" still counts them (TAC-A10).  Their
scene does not carry: a new encounter is a new scene, so the wounds brought in are of
earlier scenes.  Shields regenerate "1 point per turn as long as you are shielded"
(TAC-17, TAC-A2): between fights there are no turns, so by default they stay as the
fight left them (option).  Bonuses, Presses, actions and zones end with the fight.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.carry_over import CARRIED_REASON, CarryOver, CarryRules
from service.ruleset import RulesetOption
from service.rulesets.tactics.commands import (
    AddCombatant,
    Adjudicate,
    Command,
    InflictWounds,
    NewScene,
    SetValue,
)
from service.rulesets.tactics.state import Ended, State, Status

Count = Annotated[int, Meta(ge=0, le=1000)]


class CarriedWound(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A batch of wounds and where it came from (TAC-A10)."""

    amount: Annotated[int, Meta(ge=1, le=100)]
    source: str


class TacticsCondition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A creature's condition between fights."""

    wounds: tuple[CarriedWound, ...] = ()
    shields: Count = 0
    status: Status = "active"


class TacticsTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Nothing of the table outlives a fight: zones and their features are its ground."""


Shields = Literal["as_left", "full"]


class TacticsCarryOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    shields: Shields = "as_left"


OPTION_NOTES = (
    RulesetOption(
        "shields",
        "as_left",
        "Shields at the start of the next fight. The text regenerates them per turn while "
        "shielded and after a cool-down check when spent (TAC-17, TAC-A2), and has no time "
        "between fights: by default they stay as the fight left them, for the GM to "
        "restore by ruling. 'full': every fight starts at maximum shields.",
    ),
)


def carry_over(
    state: State, options: TacticsCarryOptions
) -> CarryOver[TacticsCondition, TacticsTable]:
    characters = {
        c.id: TacticsCondition(
            wounds=tuple(
                CarriedWound(amount=w.amount, source=w.source) for w in c.wounds if w.amount
            ),
            shields=c.max_shields if options.shields == "full" else c.shields,
            status=c.status,
        )
        for c in state.combatants.values()
    }
    return CarryOver(characters=characters, table=TacticsTable())


def sheet_of(state: State, combatant: str) -> AddCombatant:
    """The sheet with its maximum shields; the zone is the next fight's."""
    c = state.combatants[combatant]
    return AddCombatant(
        id=c.id,
        name=c.name,
        side=c.side,
        category=c.category,
        precision=c.precision,
        endurance=c.endurance,
        agility=c.agility,
        acumen=c.acumen,
        armour=c.armour,
        toughness=c.toughness,
        shields=c.max_shields,
        weapons=dict(c.weapons),
        maneuvers=dict(c.maneuvers),
    )


def seed(state: State, sheet: AddCombatant, condition: TacticsCondition) -> tuple[Command, ...]:
    """The sheet; its shields down while the carried wounds are inflicted (shields
    would negate them, TAC-17), then the carried shields."""
    rulings: list[SetValue | InflictWounds] = []
    shields = sheet.shields
    if condition.wounds and shields:
        rulings.append(SetValue(combatant=sheet.id, field="shields", value=0))
        shields = 0
    rulings.extend(
        InflictWounds(combatant=sheet.id, wounds=w.amount, source=w.source)
        for w in condition.wounds
    )
    if condition.shields != shields:
        rulings.append(SetValue(combatant=sheet.id, field="shields", value=condition.shields))
    return (sheet, *(Adjudicate(ruling=r, reason=CARRIED_REASON) for r in rulings))


def prepare_table(state: State, table: TacticsTable) -> tuple[Command, ...]:
    return ()


def settle_table(state: State, table: TacticsTable) -> tuple[Command, ...]:
    """A new scene once wounds were brought in, so that they count as taken in an
    earlier scene ("during the same scene you are dead instead", TAC-16, TAC-A10)."""
    brought = any(w.scene == state.scene for c in state.combatants.values() for w in c.wounds)
    if not brought:
        return ()
    return (Adjudicate(ruling=NewScene(), reason=CARRIED_REASON),)


def unfit(condition: TacticsCondition) -> str | None:
    if condition.status == "dead":
        return "dead: 20 wounds from one source or in one scene (TAC-16)"
    if condition.status == "incapacitated":
        return (
            "incapacitated at 20 wounds, and a wound more kills (TAC-16): the GM heals wounds "
            "by ruling before the creature fights again"
        )
    return None


def ended(state: State) -> bool:
    """After ``tactics.end_encounter``."""
    return isinstance(state.phase, Ended)


CARRY: CarryRules[
    State, Command, AddCombatant, TacticsCondition, TacticsTable, TacticsCarryOptions
] = CarryRules(
    sheet_type=AddCombatant,
    condition_type=TacticsCondition,
    table_type=TacticsTable,
    options_type=TacticsCarryOptions,
    option_notes=OPTION_NOTES,
    carry_over=carry_over,
    sheet_of=sheet_of,
    seed=seed,
    prepare_table=prepare_table,
    settle_table=settle_table,
    ended=ended,
    fresh_table=TacticsTable(),
    unfit=unfit,
    no_hit_points=(
        "TACTICS creatures have no hit points: 'everyone can suffer up to 20 wounds' "
        "(TAC-15), and toughness decides how many a hit gives"
    ),
)
