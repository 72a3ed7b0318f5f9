"""``decide``: dispatch each command to the module holding its rules."""

from __future__ import annotations

from typing import assert_never

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.tactics import combat, resolution, roster, rulings, turns
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.state import Ended, State


def decide(state: State, command: cmd.Command, dice: Dice) -> tuple[ev.Event, ...]:
    """The events ``command`` causes in ``state``, or a RuleViolation saying why not."""
    if isinstance(state.phase, Ended) and not isinstance(command, cmd.Adjudicate):
        raise RuleViolation("the encounter has ended; only GM rulings can change it now")
    match command:
        case cmd.AddCombatant():
            return roster.add_combatant(state, command)
        case cmd.RemoveCombatant():
            return roster.remove_combatant(state, command)
        case cmd.AddZone():
            return roster.add_zone(state, command)
        case cmd.PlaceCombatant():
            return roster.place(state, command)
        case cmd.SetHindered():
            return roster.set_hindered(state, command)
        case cmd.SetSight():
            return roster.set_sight(state, command)
        case cmd.AddFeature():
            return roster.add_feature(state, command)
        case cmd.MoveInFeature():
            return roster.feature_users(state, command)
        case cmd.RemoveFeature():
            return roster.remove_feature(state, command)
        case cmd.SetTurnOrder():
            return roster.set_turn_order(state, command)
        case cmd.StartCombat():
            return turns.start_combat(state)
        case cmd.EndTurn():
            return turns.end_turn(state, command)
        case cmd.CooldownCheck():
            return turns.cooldown_check(state, command, dice)
        case cmd.TakeManeuver():
            return combat.maneuver(state, command)
        case cmd.Press():
            return combat.press(state, command, dice)
        case cmd.React():
            return combat.react(state, command)
        case cmd.Resolve():
            return resolution.resolve(state, command, dice)
        case cmd.Check():
            return resolution.check(state, command, dice)
        case cmd.Adjudicate():
            return rulings.adjudicate(state, command)
        case cmd.EndEncounter():
            return (ev.EncounterEnded(),)
        case _:
            assert_never(command)
