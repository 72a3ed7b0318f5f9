"""``decide``: check a command against the rules and return the events it causes.

Only the dispatch lives here: setting the table in ``setup``, initiative and phases in
``initiative``, turns in ``turns``, rulings in ``rulings``; taking an action in
``actions``, the degree of a test in ``degrees``, Saves in ``saves``.
"""

from __future__ import annotations

from typing import assert_never

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import actions, degrees, initiative, rulings, saves, setup, turns
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import (
    Act,
    AddCombatant,
    Adjudicate,
    Begin,
    Command,
    DefineArea,
    Delay,
    EndCombat,
    EndTurn,
    GmRoll,
    Initiative,
    RemoveCombatant,
    ReorderPhase,
    Resolve,
    RollTest,
    Save,
)
from service.rulesets.scentfinder.rules import Builder, combatant
from service.rulesets.scentfinder.state import State
from service.rulesets.scentfinder.turns import start_next_turn


def decide(state: State, command: Command, dice: Dice) -> tuple[ev.Event, ...]:
    """The events ``command`` causes in ``state``, or a RuleViolation saying why not."""
    if state.stage == "ended" and not isinstance(command, Adjudicate | GmRoll):
        raise RuleViolation("The fight is over; only GM rulings can change it now")
    match command:
        case DefineArea():
            return setup.define_area(state, command)
        case AddCombatant():
            return setup.add_combatant(state, command)
        case RemoveCombatant():
            combatant(state, command.id)
            b = Builder(state)
            b.emit(ev.CombatantRemoved(combatant=command.id))
            if state.current == command.id:
                start_next_turn(b)
            return b.done()
        case Initiative():
            return initiative.initiative(state, command)
        case Begin():
            return initiative.begin(state)
        case ReorderPhase():
            return initiative.reorder(state, command)
        case Delay():
            return initiative.delay(state, command)
        case Act():
            return actions.act(state, command, dice)
        case Resolve():
            return degrees.resolve(state, command, dice)
        case RollTest():
            return degrees.roll_test(state, command, dice)
        case Save():
            return saves.save(state, command, dice)
        case EndTurn():
            return turns.end_turn(state, command)
        case Adjudicate():
            return rulings.adjudicate(state, command)
        case GmRoll():
            record = dice.roll(command.notation, purpose=command.label)
            return (ev.GmRolled(label=command.label, rolls=(record,)),)
        case EndCombat():
            return (ev.CombatEnded(round=state.round),)
        case _:
            assert_never(command)
