"""Which combatants a player must be bound to for each command (issue 6's access rule).

A player speaks for their own combatants: their attacks, checks, initiative and the end
of their own turn.  Everything that changes the table itself (adding combatants, damage
and healing applied by hand, conditions, rulings, ending the fight) is the GM's.
"""

from __future__ import annotations

from service.rulesets.generic.commands import Attack, Check, Command, NextTurn, RollInitiative
from service.rulesets.generic.state import Fighting, State


def acts_for(state: State, command: Command) -> frozenset[str] | None:
    match command:
        case Attack():
            return frozenset({command.attacker})
        case Check():
            return frozenset({command.combatant})
        case RollInitiative() if command.combatants:
            return frozenset(command.combatants)
        case NextTurn() if isinstance(state.phase, Fighting):
            return frozenset({state.phase.turn})
        case _:
            return None
