"""What an Aeonisk character carries from one fight to the next (``Ruleset.carry``).

Section 9 adds "no new persistent resource pools beyond core YAGS (Wounds, Soak, Void,
etc.)" (AEK-70): Wounds and Void are the pools that persist, so they carry, and a
character who failed the Health check (cheat-sheet, Damage & Wound Tracking; AEK-68)
stays dead.  Stun is YAGS core (CHECKLIST 1.0): the tactical text gives it no recovery,
so it carries unless the table recovers it as its YAGS core does (option).  Everything
else is of one fight: Initiative and Shock (section 1), the Defence Token and its Heroic
Burn "once per combat" (section 4), Tactical Tokens and the bonuses they bank (section
5), Prone (5b), stances and Cover_Mod (section 9).  The text defines no rest between
fights: recovery is a GM ruling.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.carry_over import CARRIED_REASON, CarryOver, CarryRules
from service.ruleset import RulesetOption
from service.rulesets.aeonisk_tactical.commands import AddCharacter, Adjudicate, Command, SetValue
from service.rulesets.aeonisk_tactical.state import Ended, State

Count = Annotated[int, Meta(ge=0, le=1000)]


class AeoniskCondition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character's condition between fights."""

    wounds: Count = 0
    stun: Count = 0
    void: Annotated[int, Meta(ge=0, le=10)] = 0
    dead: bool = False


class AeoniskTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Nothing of the table outlives a fight: tokens and bands belong to its ground."""


class AeoniskCarryOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    carry_stun: bool = True


OPTION_NOTES = (
    RulesetOption(
        "carry_stun",
        True,
        "Whether Stun stays into the next fight. The tactical text names Stun (Bond Rally, "
        "Void Surge) but leaves its recovery to YAGS core, which it does not contain: by "
        "default Stun stays until the GM rules it recovered. False: every fight starts "
        "without Stun, for tables that recover it between scenes.",
    ),
)


def carry_over(
    state: State, options: AeoniskCarryOptions
) -> CarryOver[AeoniskCondition, AeoniskTable]:
    """Wounds, Void, death, and Stun unless the option clears it (section 9)."""
    characters = {
        c.id: AeoniskCondition(
            wounds=c.wounds,
            stun=c.stun if options.carry_stun else 0,
            void=c.void,
            dead=not c.alive,
        )
        for c in state.characters.values()
    }
    return CarryOver(characters=characters, table=AeoniskTable())


def sheet_of(state: State, character: str) -> AddCharacter:
    """The YAGS sheet: attributes, skills, Soak, Bonds, weapons, defences; Void is the
    condition's, and the zone is the next fight's."""
    c = state.characters[character]
    return AddCharacter(
        id=c.id,
        name=c.name,
        side=c.side,
        pc=c.pc,
        attributes=dict(c.attributes),
        skills=dict(c.skills),
        soak=c.soak,
        void=0,
        bonds=c.bonds,
        weapons=dict(c.weapons),
        defence=c.defence,
        static_defence=c.static_defence,
        parry=c.parry,
    )


def seed(state: State, sheet: AddCharacter, condition: AeoniskCondition) -> tuple[Command, ...]:
    """The sheet with the carried Void; Wounds and Stun set by ruling."""
    commands: list[Command] = [msgspec.structs.replace(sheet, void=condition.void)]
    for field, value in (("wounds", condition.wounds), ("stun", condition.stun)):
        if value:
            ruling = SetValue(character=sheet.id, field=field, value=value)
            commands.append(Adjudicate(ruling=ruling, reason=CARRIED_REASON))
    return tuple(commands)


def unfit(condition: AeoniskCondition) -> str | None:
    if condition.dead:
        return (
            "dead: the Health check at 5 Wounds failed (Damage & Wound Tracking); only a GM "
            "ruling brings a character back"
        )
    return None


def ended(state: State) -> bool:
    """After ``aeonisk.end_encounter``."""
    return isinstance(state.phase, Ended)


CARRY: CarryRules[
    State, Command, AddCharacter, AeoniskCondition, AeoniskTable, AeoniskCarryOptions
] = CarryRules(
    sheet_type=AddCharacter,
    condition_type=AeoniskCondition,
    table_type=AeoniskTable,
    options_type=AeoniskCarryOptions,
    option_notes=OPTION_NOTES,
    carry_over=carry_over,
    sheet_of=sheet_of,
    seed=seed,
    ended=ended,
    fresh_table=AeoniskTable(),
    unfit=unfit,
    no_hit_points=(
        "YAGS characters have no hit points: damage against Soak becomes Wounds, and 5 "
        "Wounds call for the Health check (Damage & Wound Tracking)"
    ),
)
