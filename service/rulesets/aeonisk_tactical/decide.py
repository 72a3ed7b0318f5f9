"""``decide``: check a command against the rules and return the events it causes.

Pure: the state, the command and the dice are all it sees.  Each command's rules live in
the module named for them; this one dispatches and holds the one rule every command
shares: once the encounter has ended, only GM rulings are accepted.
"""

from __future__ import annotations

from typing import assert_never

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import (
    breakaway,
    reactions,
    resolve,
    roster,
    rounds,
    rulings,
)
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.commands import (
    AddCharacter,
    Adjudicate,
    Check,
    ChooseSuppression,
    Command,
    Declare,
    EndEncounter,
    FreeStrike,
    NextPhase,
    PlaceInZone,
    PlaceToken,
    React,
    RemoveCharacter,
    Resolve,
    RollInitiative,
    SetBand,
    VoidSurge,
)
from service.rulesets.aeonisk_tactical.declare import declare, void_surge
from service.rulesets.aeonisk_tactical.rolls import check
from service.rulesets.aeonisk_tactical.rules import living
from service.rulesets.aeonisk_tactical.state import Ended, State


def decide(state: State, command: Command, dice: Dice) -> tuple[ev.Event, ...]:
    """The events ``command`` causes in ``state``, or a RuleViolation saying why not."""
    if isinstance(state.phase, Ended) and not isinstance(command, Adjudicate):
        raise RuleViolation("the encounter has ended; only GM rulings can change it now")
    match command:
        case AddCharacter():
            return roster.add_character(state, command)
        case RemoveCharacter():
            return roster.remove_character(state, command)
        case SetBand():
            return roster.set_band(state, command)
        case PlaceInZone():
            return roster.place_in_zone(state, command)
        case PlaceToken():
            return roster.place_token(state, command)
        case NextPhase():
            return rounds.next_phase(state, command, dice)
        case RollInitiative():
            return rounds.roll_one(state, command, dice)
        case Declare():
            return declare(state, command, dice)
        case VoidSurge():
            return void_surge(state, command)
        case React():
            return reactions.react(state, command, dice)
        case FreeStrike():
            return breakaway.free_strike(state, command, dice)
        case Resolve():
            return resolve.resolve(state, command, dice)
        case ChooseSuppression():
            return reactions.choose_suppression(state, command)
        case Check():
            return _check(state, command, dice)
        case Adjudicate():
            return rulings.adjudicate(state, command)
        case EndEncounter():
            return (ev.EncounterEnded(),)
        case _:
            assert_never(command)


def _check(state: State, command: Check, dice: Dice) -> tuple[ev.Event, ...]:
    who = living(state, command.character)
    for trait, known in ((command.attribute, who.attributes), (command.skill, who.skills)):
        if trait not in known:
            raise RuleViolation(f"{who.name} has no '{trait}' on the sheet")
    outcome, tiers, record = check(
        state,
        dice,
        who,
        label=command.label.strip(),
        attribute=command.attribute,
        skill=command.skill,
        dc=command.dc,
        situational=command.modifiers,
    )
    return (
        ev.CheckRolled(
            character=who.id,
            label=command.label.strip(),
            outcome=outcome,
            tiers=tiers,
            rolls=(record,),
        ),
    )
