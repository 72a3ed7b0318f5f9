"""What a Scentfinder character carries from one fight to the next (``Ruleset.carry``).

The text heals only in the fight: Administer First Help treats persistent damage and
Death's Door (SCF-20), Refocus regains FP (the Refocus action).  It has no rest, so what
a fight leaves stays: hit points and FP, each instance of persistent damage (it only
ticks down "at the end of one's turn", SCF-A9, and between fights nobody has turns),
Death's Door and the regained actions it costs (SCF-20, SCF-A20).  Conditions count
turns ("(1 turn)", "(2 turns)") or last while something holds them (a grapple, cover):
they end with the fight, as do actions, reactions, Delay and areas.
"""

from __future__ import annotations

from typing import Annotated, Literal, cast

import msgspec
from msgspec import Meta

from service.carry_over import CARRIED_REASON, CarryOver, CarryRules
from service.ruleset import RulesetOption
from service.rulesets.scentfinder.commands import AddCombatant, Adjudicate, Command
from service.rulesets.scentfinder.fields import SaveName
from service.rulesets.scentfinder.state import State


class ScentfinderCondition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character's condition between fights."""

    hp: Annotated[int, Meta(ge=-100_000, le=100_000)]
    fp: Annotated[int, Meta(ge=0, le=1000)] = 0
    persistent: tuple[int, ...] = ()
    deaths_door: bool = False
    dd_action_loss: Annotated[int, Meta(ge=0, le=3)] = 0


class ScentfinderTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Nothing of the table outlives a fight: areas are drawn for each battle (SCF-04)."""


class ScentfinderCarryOptions(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True
):
    focus: Literal["as_left", "full"] = "as_left"


OPTION_NOTES = (
    RulesetOption(
        "focus",
        "as_left",
        "FP at the start of the next fight. The text regains FP only by Refocus, an action "
        "in a fight, and has no rest: by default FP stays as the fight left it. 'full': "
        "every fight starts at the maximum FP, where the sheet or the encounter option "
        "focus_maximum gives one (SCF-A20), for tables that rest in between.",
    ),
)


def carry_over(
    state: State, options: ScentfinderCarryOptions
) -> CarryOver[ScentfinderCondition, ScentfinderTable]:
    characters = {
        c.id: ScentfinderCondition(
            hp=c.hp,
            fp=max(c.fp, c.max_fp) if options.focus == "full" else c.fp,
            persistent=c.persistent,
            deaths_door=c.deaths_door,
            dd_action_loss=c.dd_action_loss,
        )
        for c in state.combatants.values()
    }
    return CarryOver(characters=characters, table=ScentfinderTable())


def sheet_of(state: State, combatant: str) -> AddCombatant:
    """The sheet at full HP and FP, in the area it started in; an NPC keeps its fixed
    phase (SCF-07)."""
    c = state.combatants[combatant]
    return AddCombatant(
        id=c.id,
        name=c.name,
        pc=c.pc,
        side=c.side,
        sentient=c.sentient,
        minion_of=c.minion_of,
        hp=c.max_hp,
        max_hp=c.max_hp,
        fp=c.max_fp,
        max_fp=c.max_fp,
        saves={cast(SaveName, k): v for k, v in c.saves.items()},  # the sheet's, as added
        skills=c.skills,
        weapons=dict(c.weapons),
        held=c.held,
        hands=c.hands,
        spells=dict(c.spells),
        magic_skill=c.magic_skill,
        refocus_skill=c.refocus_skill,
        healing_tools=c.healing_tools,
        shield=c.shield,
        area=c.start_area or c.area or "",
        phase=None if c.pc else c.phase,
    )


def seed(state: State, sheet: AddCombatant, condition: ScentfinderCondition) -> tuple[Command, ...]:
    """The sheet with the carried HP and FP (its maxima kept as the sheet had them); a
    ruling for HP below 0, persistent damage and Death's Door."""
    max_hp = sheet.max_hp if sheet.max_hp is not None else max(sheet.hp, 1)
    max_fp = sheet.max_fp
    if max_fp is None:
        max_fp = sheet.fp if state.options.focus_maximum == "starting_fp" else 0
    start = max(condition.hp, 0)
    added = msgspec.structs.replace(sheet, hp=start, max_hp=max_hp, fp=condition.fp, max_fp=max_fp)
    ruling = Adjudicate(
        reason=CARRIED_REASON,
        combatant=sheet.id,
        hp=condition.hp if condition.hp != start else None,
        persistent=condition.persistent or None,
        deaths_door=condition.deaths_door or None,
        dd_action_loss=condition.dd_action_loss or None,
    )
    changes = (ruling.hp, ruling.persistent, ruling.deaths_door, ruling.dd_action_loss)
    if all(change is None for change in changes):
        return (added,)
    return (added, ruling)


def with_hit_points(sheet: AddCombatant, hp: int) -> AddCombatant:
    return msgspec.structs.replace(sheet, hp=hp, max_hp=hp)


def ended(state: State) -> bool:
    """After ``scentfinder.end_combat``."""
    return state.stage == "ended"


CARRY: CarryRules[
    State,
    Command,
    AddCombatant,
    ScentfinderCondition,
    ScentfinderTable,
    ScentfinderCarryOptions,
] = CarryRules(
    sheet_type=AddCombatant,
    condition_type=ScentfinderCondition,
    table_type=ScentfinderTable,
    options_type=ScentfinderCarryOptions,
    option_notes=OPTION_NOTES,
    carry_over=carry_over,
    sheet_of=sheet_of,
    seed=seed,
    ended=ended,
    fresh_table=ScentfinderTable(),
    with_hit_points=with_hit_points,
)
