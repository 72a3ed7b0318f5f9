"""Which creatures a player must hold for each command.

Players act from their sheet: Maneuvers, Presses, Reacts, their own defence rolls
(resolve) and ending their turn name sheet entries, never numbers.  Everything else
(the table, the map, the order, cool-down checks, GM checks, rulings) is the GM's.
"""

from __future__ import annotations

from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics.state import State

PLAYER_COMMANDS = (cmd.TakeManeuver, cmd.Press, cmd.React, cmd.Resolve, cmd.EndTurn)
"""What a player may ever send: everything else speaks for the table."""


def acts_for(state: State, command: cmd.Command) -> frozenset[str] | None:
    match command:
        case cmd.TakeManeuver() | cmd.Press() | cmd.React() | cmd.Resolve() | cmd.EndTurn():
            return frozenset({command.combatant})
        case _:
            return None
