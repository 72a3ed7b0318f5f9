"""Setting the table: defining areas and adding combatants (their damage dice checked)."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import AddCombatant, DefineArea
from service.rulesets.scentfinder.rules import combatant
from service.rulesets.scentfinder.sheet import check_die
from service.rulesets.scentfinder.state import State


def define_area(state: State, command: DefineArea) -> tuple[ev.Event, ...]:
    if command.id in state.areas:
        raise RuleViolation(f"Area '{command.id}' is already defined")
    for other in command.adjacent:
        if other not in state.areas:
            raise RuleViolation(f"Area '{other}' is not defined yet; define it first (SCF-04)")
    if command.hazard is not None:
        check_die(command.hazard.die)
    return (
        ev.AreaDefined(
            area=command.id,
            name=command.name,
            adjacent=command.adjacent,
            difficult=command.difficult,
            hazard=command.hazard,
            obstacle=command.obstacle,
            uneven=command.uneven,
            cover=command.cover,
        ),
    )


def add_combatant(state: State, command: AddCombatant) -> tuple[ev.Event, ...]:
    if command.id in state.combatants:
        raise RuleViolation(f"There is already a combatant '{command.id}'")
    if command.area not in state.areas:
        raise RuleViolation(f"Area '{command.area}' is not defined")
    if command.minion_of is not None:
        combatant(state, command.minion_of)
        if command.phase is not None:
            raise RuleViolation("A minion does not act on its own: it has no phase (SCF-26)")
    if command.pc and command.phase is not None:
        raise RuleViolation("A player character's phase comes from initiative, not the sheet")
    for weapon in command.weapons.values():
        check_die(weapon.damage)
    for spell in command.spells.values():
        if spell.damage is not None:
            check_die(spell.damage)
    for held in command.held:
        if held not in command.weapons:
            raise RuleViolation(f"{command.name} holds '{held}', which is not on the sheet")
    return (
        ev.CombatantAdded(
            combatant=command.id,
            name=command.name,
            pc=command.pc,
            side=command.side,
            sentient=command.sentient,
            minion_of=command.minion_of,
            hp=command.hp,
            max_hp=command.max_hp or max(command.hp, 1),
            fp=command.fp,
            max_fp=_max_fp(state, command),
            saves={str(k): v for k, v in command.saves.items()},
            skills=command.skills,
            weapons=dict(command.weapons),
            held=command.held,
            hands=command.hands,
            spells=dict(command.spells),
            magic_skill=command.magic_skill,
            refocus_skill=command.refocus_skill,
            healing_tools=command.healing_tools,
            shield=command.shield,
            area=command.area,
            phase=command.phase,
        ),
    )


def _max_fp(state: State, command: AddCombatant) -> int:
    """SCF-A20: the sheet's maximum, else none (0) unless focus_maximum caps at the start."""
    if command.max_fp is not None:
        return command.max_fp
    return command.fp if state.options.focus_maximum == "starting_fp" else 0
