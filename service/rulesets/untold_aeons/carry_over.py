"""What an Untold Aeons investigator and table carry from one fight to the next
(``Ruleset.carry``).

The text's trackers are long-lived by design: damage heals only by the daily Toughness
check (Natural healing; UAE-25) and stress only by the daily Willpower check (Recovering
Stress; UAE-19), so both carry, with Shaken ("until stress is reduced below limit",
UAE-17) and the statuses a save gave (Severely Injured "until ... medical care", broken,
dead; UAE-18, UAE-22, UAE-23).  Hardened levels and notches are "the mental equivalent
of armor" earned over time (Becoming Hardened; UAE-20); xp and what it bought (Character
Creation & Improvement; UAE-13) are the character's.  The two karma pools are the
table's: "when a point is used it moves to the other pool ... will likely come back to
bite you at some point in the future" (Karma points; UAE-03), so they carry too.

Conditions (prone, moving, cover, unaware, medical care) are of the moment and end with
the fight.  The daily checks are commands of an encounter (``daily_recovery``): a
campaign never rolls them by itself.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.carry_over import CARRIED_REASON, CarryOver, CarryRules
from service.ruleset import RulesetOption
from service.rulesets.untold_aeons.commands import (
    AddCharacter,
    Command,
    Rule,
    SetStatus,
    SetValue,
)
from service.rulesets.untold_aeons.state import (
    CATEGORIES,
    CHARACTERISTICS,
    Category,
    Hardened,
    State,
    Status,
)

Count = Annotated[int, Meta(ge=0, le=1000)]


class UntoldCondition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An investigator's condition between fights."""

    damage: Count = 0
    stress: Count = 0
    shaken: bool = False
    status: Status = "active"
    xp: Count = 0
    hardened: dict[Category, Hardened] = {}
    """Categories with a level or notches, the others left out."""
    traits: dict[str, int] = {}
    """The characteristics and the skills on the sheet as xp left them (UAE-13)."""


class UntoldTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The karma pools (UAE-03); None before any encounter ended: the pools start as the
    text says, the Narrator's with 1 and the players' with 1 per player."""

    karma_players: Count | None = None
    karma_narrator: Count | None = None


class UntoldCarryOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    carry_karma: bool = True


OPTION_NOTES = (
    RulesetOption(
        "carry_karma",
        True,
        "Whether the karma pools carry into the next encounter. The text's pools move "
        "points back and forth 'at some point in the future', so by default they do. False: "
        "every encounter starts the pools afresh (Narrator 1, players 1 per player), for "
        "tables that read the pools as a per-session economy.",
    ),
)


def carry_over(
    state: State, options: UntoldCarryOptions
) -> CarryOver[UntoldCondition, UntoldTable]:
    characters = {
        c.id: UntoldCondition(
            damage=c.damage,
            stress=c.stress,
            shaken=c.shaken,
            status=c.status,
            xp=c.xp,
            hardened={
                k: c.hardened[k] for k in CATEGORIES if k in c.hardened and _earned(c.hardened[k])
            },
            traits={
                **{k: int(getattr(c, k)) for k in CHARACTERISTICS},
                **dict(sorted(c.skills.items())),
            },
        )
        for c in state.characters.values()
    }
    table = (
        UntoldTable(karma_players=state.karma_players, karma_narrator=state.karma_narrator)
        if options.carry_karma
        else UntoldTable()
    )
    return CarryOver(characters=characters, table=table)


def _earned(hardened: Hardened) -> bool:
    return bool(hardened.level or hardened.notches)


def sheet_of(state: State, character: str) -> AddCharacter:
    """The sheet: characteristics, skills and weapons; damage, stress and hardening are
    the condition's."""
    c = state.characters[character]
    return AddCharacter(
        id=c.id,
        name=c.name,
        side=c.side,
        pc=c.pc,
        dexterity=c.dexterity,
        toughness=c.toughness,
        willpower=c.willpower,
        intellect=c.intellect,
        skills=dict(c.skills),
        weapons=dict(c.weapons),
    )


def seed(state: State, sheet: AddCharacter, condition: UntoldCondition) -> tuple[Command, ...]:
    """The sheet with the traits, damage, stress and hardening carried; rulings for xp
    (when the encounter's starting xp differs), Shaken and a status other than active.
    A characteristic raised with xp makes an investigator's sheet add up to more than
    the creation points (UAE-01): such a campaign runs its encounters without that
    option, or the encounter refuses the sheet saying so."""
    traits = condition.traits
    characteristics = {k: traits.get(k, getattr(sheet, k)) for k in CHARACTERISTICS}
    skills = (
        {k: v for k, v in traits.items() if k not in CHARACTERISTICS}
        if traits
        else dict(sheet.skills)
    )
    commands: list[Command] = [
        msgspec.structs.replace(
            sheet,
            **characteristics,
            skills=skills,
            damage=condition.damage,
            stress=condition.stress,
            hardened=dict(condition.hardened),
        )
    ]
    rulings: list[SetValue | SetStatus] = []
    if condition.xp != state.options.starting_xp:
        rulings.append(SetValue(character=sheet.id, field="xp", value=condition.xp))
    if condition.shaken:
        rulings.append(SetStatus(character=sheet.id, status="shaken"))
    if condition.status != "active":
        rulings.append(SetStatus(character=sheet.id, status=condition.status))
    commands.extend(Rule(ruling=r, reason=CARRIED_REASON) for r in rulings)
    return tuple(commands)


def settle_table(state: State, table: UntoldTable) -> tuple[Command, ...]:
    """The pools as the last encounter left them, once everyone has arrived (each
    arriving investigator adds their point to the players' pool, UAE-03)."""
    rulings: list[SetValue] = []
    if table.karma_players is not None and table.karma_players != state.karma_players:
        rulings.append(SetValue(field="karma_players", value=table.karma_players))
    if table.karma_narrator is not None and table.karma_narrator != state.karma_narrator:
        rulings.append(SetValue(field="karma_narrator", value=table.karma_narrator))
    return tuple(Rule(ruling=r, reason=CARRIED_REASON) for r in rulings)


def unfit(condition: UntoldCondition) -> str | None:
    if condition.status == "dead":
        return "dead: a Toughness save at twice the wound limit failed (Combat; UAE-23)"
    return None


def ended(state: State) -> bool:
    """After ``untold-aeons.end_encounter``."""
    return state.phase == "ended"


CARRY: CarryRules[
    State, Command, AddCharacter, UntoldCondition, UntoldTable, UntoldCarryOptions
] = CarryRules(
    sheet_type=AddCharacter,
    condition_type=UntoldCondition,
    table_type=UntoldTable,
    options_type=UntoldCarryOptions,
    option_notes=OPTION_NOTES,
    carry_over=carry_over,
    sheet_of=sheet_of,
    seed=seed,
    settle_table=settle_table,
    ended=ended,
    fresh_table=UntoldTable(),
    unfit=unfit,
    no_hit_points=(
        "investigators have no hit points: damage adds up against the wound limit, "
        "10 + Toughness (Stats, Combat)"
    ),
)
