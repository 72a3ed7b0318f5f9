"""Dispatch of campaign commands to the rule modules; every refusal says why."""

from __future__ import annotations

from typing import assert_never

from service.campaigns import events as ev
from service.campaigns.carrying import adjust, carry_over, redo, undo
from service.campaigns.commands import (
    AddMember,
    AddStatblock,
    Adjust,
    CarryOver,
    CloseEncounter,
    Command,
    CreateCampaign,
    RedoCarryOver,
    RemoveMember,
    RemoveStatblock,
    StartEncounter,
    UndoCarryOver,
)
from service.campaigns.encounters import close, start
from service.campaigns.roster import (
    add_member,
    add_statblock,
    create,
    remove_member,
    remove_statblock,
)
from service.campaigns.state import Campaign, NoCampaign, State
from service.dice.model import Dice
from service.ruleset import RuleViolation


def decide(state: State, command: Command, dice: Dice) -> tuple[ev.Event, ...]:
    """The events of ``command``; ``dice`` roll only the hit points of monsters."""
    if isinstance(command, CreateCampaign):
        if isinstance(state, Campaign):
            raise RuleViolation(f"the campaign {state.name} already exists")
        return create(command)
    if isinstance(state, NoCampaign):
        raise RuleViolation("create the campaign first")
    match command:
        case AddMember():
            return add_member(state, command)
        case RemoveMember():
            return remove_member(state, command)
        case AddStatblock():
            return add_statblock(state, command)
        case RemoveStatblock():
            return remove_statblock(state, command)
        case StartEncounter():
            return start(state, command, dice)
        case CarryOver():
            return carry_over(state, command)
        case UndoCarryOver():
            return undo(state, command)
        case RedoCarryOver():
            return redo(state, command)
        case CloseEncounter():
            return close(state, command)
        case Adjust():
            return adjust(state, command)
        case _:
            assert_never(command)
