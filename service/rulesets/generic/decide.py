"""``decide``: check a command against the rules and return the events it causes.

Pure: the state, the command and the dice are all it sees.  Illegal commands raise
``RuleViolation`` (bad notation raises ``DiceError``) before anything is returned, so a
rejected command appends nothing.  Each command's rules live in the module named for
them; this one only dispatches and holds the one rule every command shares: once the
encounter has ended, only GM rulings are accepted.
"""

from __future__ import annotations

from typing import assert_never

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.generic import actions, initiative, roster, rulings, turns
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    Adjudicate,
    Attack,
    Check,
    Command,
    Damage,
    EndEncounter,
    Heal,
    NextTurn,
    RemoveCombatant,
    RemoveCondition,
    RollInitiative,
)
from service.rulesets.generic.events import EncounterEnded, Event
from service.rulesets.generic.rules import combatant
from service.rulesets.generic.state import Ended, State


def decide(state: State, command: Command, dice: Dice) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``, or a RuleViolation saying why not."""
    if isinstance(state.phase, Ended) and not isinstance(command, Adjudicate):
        raise RuleViolation("the encounter has ended; only GM rulings can change it now")
    match command:
        case AddCombatant():
            return roster.add_combatant(state, command)
        case RemoveCombatant():
            return turns.removal(state, combatant(state, command.id).id)
        case RollInitiative():
            return initiative.roll_initiative(state, command, dice)
        case NextTurn():
            return turns.next_turn(state)
        case Attack():
            return actions.attack(state, command, dice)
        case Check():
            return actions.check(state, command, dice)
        case Damage():
            return actions.damage(state, command, dice)
        case Heal():
            return actions.heal(state, command, dice)
        case AddCondition():
            return roster.condition_added(
                state, command.target, command.condition, command.duration_rounds
            )
        case RemoveCondition():
            return roster.condition_removed(state, command.target, command.condition)
        case Adjudicate():
            return rulings.adjudicate(state, command)
        case EndEncounter():
            return (EncounterEnded(),)
        case _:
            assert_never(command)
