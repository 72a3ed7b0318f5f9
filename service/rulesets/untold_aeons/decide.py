"""``decide``: dispatch a command to the module holding its rules. Once the encounter
has ended only Narrator rulings are accepted."""

from __future__ import annotations

from typing import assert_never

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import combat, karma, mind, reroll, rulings, sanity, table
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.commands import (
    AddCharacter,
    Advance,
    Attack,
    BeginRound,
    Bleed,
    CallCheck,
    ChooseTurn,
    Command,
    DailyRecovery,
    EndEncounter,
    EndTurn,
    Move,
    Respond,
    RollCheck,
    RollDifficulty,
    Rule,
    SanityCheck,
    SetDistance,
    SpendKarma,
    StandUp,
)
from service.rulesets.untold_aeons.state import State


def decide(state: State, command: Command, dice: Dice) -> tuple[ev.Event, ...]:
    if state.phase == "ended" and not isinstance(command, Rule):
        raise RuleViolation("the encounter has ended; only the Narrator's rulings change it now")
    match command:
        case AddCharacter():
            return table.add_character(state, command)
        case SetDistance():
            return table.set_distance(state, command)
        case BeginRound():
            return table.begin_round(state, command, dice)
        case ChooseTurn():
            return table.choose_turn(state, command)
        case Move():
            return table.move(state, command)
        case StandUp():
            return table.stand_up(state, command)
        case EndTurn():
            return table.end_turn(state, command)
        case Bleed():
            return table.bleed(state, command, dice)
        case Attack():
            return combat.attack(state, command, dice)
        case Respond():
            return combat.respond(state, command, dice)
        case CallCheck():
            return mind.call_check(state, command)
        case RollCheck():
            return mind.roll_check(state, command, dice)
        case RollDifficulty():
            return mind.roll_difficulty(state, command, dice)
        case SanityCheck():
            return sanity.sanity_check(state, command, dice)
        case SpendKarma():
            return karma.spend_karma(state, command, dice, reroll.reroll)
        case DailyRecovery():
            return sanity.daily_recovery(state, command, dice)
        case Advance():
            return karma.advance(state, command)
        case Rule():
            return rulings.rule(state, command)
        case EndEncounter():
            return (ev.EncounterEnded(round=state.round),)
        case _:
            assert_never(command)
