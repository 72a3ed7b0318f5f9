"""``decide``: check a command against the rules and return the events it causes.

Pure: the state, the command and the dice are all it sees.  Illegal commands raise
``RuleViolation`` before anything is returned, so a rejected command appends nothing.
Each command's rules live in the module named for them; this one only dispatches.
"""

from __future__ import annotations

from typing import assert_never

from service.dice.model import Dice
from service.rulesets.aeonis_combat import (
    aftermath,
    combat,
    declare,
    lords,
    reinforce,
    rounds,
    rulings,
    setup,
)
from service.rulesets.aeonis_combat.commands import (
    AddHexes,
    AddSide,
    AddUnits,
    Adjudicate,
    Attack,
    Cleanup,
    Command,
    Defend,
    EndAttack,
    Fight,
    LiftSiege,
    MoveUnits,
    Occupy,
    Press,
    Reinforce,
    Retreat,
    SetLordAbilities,
    SetTargets,
    Stand,
    StartRound,
    UseLordAbility,
)
from service.rulesets.aeonis_combat.events import Event
from service.rulesets.aeonis_combat.state import State


def decide(state: State, command: Command, dice: Dice) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``, or a RuleViolation saying why not."""
    if not isinstance(command, Fight):
        dice.no_roll(
            "dice are rolled only when a battle round is fought (fight), an Attack Die and a "
            "Defense Die for each strike (section 4)",
            rule="AEC-14",
        )
    match command:
        case AddHexes():
            return setup.add_hexes(state, command)
        case AddSide():
            return setup.add_side(state, command)
        case AddUnits():
            return setup.add_units(state, command)
        case MoveUnits():
            return setup.move_units(state, command)
        case StartRound():
            return rounds.start_round(state)
        case Cleanup():
            return rounds.cleanup(state)
        case Attack():
            return declare.attack(state, command)
        case Defend():
            return declare.defend(state, command)
        case SetTargets():
            return declare.set_targets(state, command)
        case Reinforce():
            return reinforce.choose(state, command)
        case Fight():
            return combat.fight(state, command, dice)
        case Retreat():
            return aftermath.retreat(state, command)
        case Stand():
            return aftermath.stand(state, command)
        case Press():
            return aftermath.press(state, command)
        case EndAttack():
            return aftermath.end_attack(state, command)
        case LiftSiege():
            return aftermath.lift_siege(state, command)
        case Occupy():
            return aftermath.occupy(state, command)
        case UseLordAbility():
            return lords.use(state, command)
        case SetLordAbilities():
            return lords.set_abilities(state, command)
        case Adjudicate():
            return rulings.adjudicate(state, command)
        case _:
            assert_never(command)
