"""Which side a player must be bound to for each command.

A side's commands (attacking, defending, targets, Reinforce, retreat, pressing, occupying,
moving its units and using its Lord's abilities) act for that side.  Map setup, Lord
Sheets, Round Start, Cleanup & Checks and rulings speak for the table and are the GM's.
"""

from __future__ import annotations

from service.rulesets.aeonis_combat.commands import (
    Attack,
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
    SetTargets,
    Stand,
    UseLordAbility,
)
from service.rulesets.aeonis_combat.state import State

SIDE_COMMANDS = (
    MoveUnits,
    Attack,
    Defend,
    SetTargets,
    Reinforce,
    Fight,
    Retreat,
    Stand,
    Press,
    EndAttack,
    LiftSiege,
    Occupy,
    UseLordAbility,
)

PLAYER_COMMANDS = SIDE_COMMANDS
"""What a player may ever send: a side's own commands."""


def acts_for(state: State, command: Command) -> frozenset[str] | None:
    if isinstance(command, SIDE_COMMANDS):
        return frozenset({command.side})
    return None
