"""GM rulings: ``Adjudicate`` sets values, moves a combatant, adds or removes a condition."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder import sheet
from service.rulesets.scentfinder.commands import Adjudicate
from service.rulesets.scentfinder.rules import combatant
from service.rulesets.scentfinder.state import Condition, State


def adjudicate(state: State, command: Adjudicate) -> tuple[ev.Event, ...]:
    changes = (
        command.hp,
        command.fp,
        command.deaths_door,
        command.dd_action_loss,
        command.persistent,
        command.area,
        command.add_condition,
        command.remove_condition,
        command.sheet,
    )
    if command.combatant is None:
        if any(x is not None for x in changes):
            raise RuleViolation("A ruling that changes a value names the combatant it changes")
        return (ev.Ruling(reason=command.reason),)
    who = combatant(state, command.combatant)
    if command.area is not None and command.area not in state.areas:
        raise RuleViolation(f"Area '{command.area}' is not defined")
    if command.remove_condition is not None:
        from service.rulesets.scentfinder.rules import find_condition

        find_condition(who, command.remove_condition)
    if command.sheet is not None:
        sheet.check(who, command.sheet)
    added = None
    if command.add_condition is not None:
        spec = command.add_condition
        if spec.against is not None:
            combatant(state, spec.against)
        added = Condition(
            id=f"c{state.next_condition}",
            kind=spec.kind,
            expiry=spec.expiry or ("turns" if spec.turns else "until_removed"),
            remaining=spec.turns,
            source=None,
            against=spec.against,
            scope=spec.scope,
            circumstance=spec.circumstance,
            save=spec.save,
            intense=spec.intense,
            note=spec.note,
        )
    return (
        ev.Ruling(
            reason=command.reason,
            combatant=who.id,
            hp=command.hp,
            fp=command.fp,
            deaths_door=command.deaths_door,
            dd_action_loss=command.dd_action_loss,
            persistent=command.persistent,
            area=command.area,
            condition_added=added,
            condition_removed=command.remove_condition,
            sheet=command.sheet,
        ),
    )
