"""Which side a player must be bound to for each command.

A side's commands (attacking, defending, targets, retreat, pressing, occupying and moving
its units) act for that side.  Map setup, Round Start, Cleanup & Checks and rulings speak
for the table and are the GM's.
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
    Retreat,
    SetTargets,
    Stand,
)
from service.rulesets.aeonis_combat.state import State

SIDE_COMMANDS = (
    MoveUnits,
    Attack,
    Defend,
    SetTargets,
    Fight,
    Retreat,
    Stand,
    Press,
    EndAttack,
    LiftSiege,
    Occupy,
)


def acts_for(state: State, command: Command) -> frozenset[str] | None:
    if isinstance(command, SIDE_COMMANDS):
        return frozenset({command.side})
    return None
