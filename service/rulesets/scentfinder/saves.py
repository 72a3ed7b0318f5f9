"""Saves (SCF-45): against a danger the GM names, and against hazardous terrain with the
terrain's table (SCF-A8)."""

from __future__ import annotations

from msgspec.structs import replace

from service.dice.model import Dice, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import no_pending
from service.rulesets.scentfinder.commands import Save
from service.rulesets.scentfinder.fields import DEGREE_WORD, maximum_of
from service.rulesets.scentfinder.in_force import in_force_on_save
from service.rulesets.scentfinder.rules import area_name, combatant
from service.rulesets.scentfinder.state import State


def save(state: State, command: Save, dice: Dice) -> tuple[ev.Event, ...]:
    """[0] Save (SCF-45); against hazardous terrain the terrain's table (SCF-A8)."""
    who = combatant(state, command.combatant)
    p = state.pending
    degree = command.degree
    rolls: tuple[RollRecord, ...] = ()
    if p is not None and p.kind == "hazard" and p.actor == who.id:
        assert p.save is not None and p.die is not None
        if command.save is not None and command.save != p.save:
            raise RuleViolation(
                f"The hazard of {area_name(state, p.area)} calls for a {p.save} Save"
            )
        purpose = f"hazard in {area_name(state, p.area)} ({p.save} Save)"
        if degree == "triumph":
            dmg = 0
            dice.no_roll(
                f"a Triumph on the Save ignores the hazard's damage die ({p.die})", rule="SCF-17"
            )
        elif degree == "bungle":
            dmg = maximum_of(p.die)
            dice.no_roll(
                f"a Bungle on the Save takes the hazard's damage maximised ({dmg}), so its die "
                f"({p.die}) is not rolled",
                rule="SCF-17",
            )
        else:
            record = dice.roll(p.die, purpose=purpose, roller=who.id)
            dmg = record.total // 2 if degree == "success" else record.total
            rolls = (replace(record, outcome="halved" if degree == "success" else "rolled"),)
        return (
            ev.SaveMade(
                combatant=who.id,
                save=p.save,
                degree=degree,
                label="hazardous terrain",
                hazard_area=p.area,
                damage=dmg,
                hp_after=who.hp - dmg,
                rolls=rolls,
                in_force=in_force_on_save(state, who, p.save),
            ),
        )
    no_pending(state)
    if command.save is None:
        raise RuleViolation("Name the Save the danger calls for: VIG, REF or WIL (SCF-45)")
    dmg = 0
    if command.damage is None:
        dice.no_roll("the danger names no damage die, so the Save rolls none", rule="SCF-45")
    elif degree != "failure":
        dice.no_roll(
            f"only a Failure on a Save rolls the damage die ({command.damage}): a "
            f"{DEGREE_WORD[degree]} avoids it, takes 1 damage or takes it maximised",
            rule="SCF-45",
        )
    if command.damage is not None:
        if degree == "success":
            dmg = 1
        elif degree == "failure":
            record = dice.roll(
                command.damage, purpose=f"{command.label} ({command.save} Save)", roller=who.id
            )
            dmg = record.total
            rolls = (replace(record, outcome="rolled"),)
        elif degree == "bungle":
            dmg = maximum_of(command.damage)
    return (
        ev.SaveMade(
            combatant=who.id,
            save=command.save,
            degree=degree,
            label=command.label,
            damage=dmg,
            hp_after=who.hp - dmg,
            rolls=rolls,
            in_force=in_force_on_save(state, who, command.save),
        ),
    )
