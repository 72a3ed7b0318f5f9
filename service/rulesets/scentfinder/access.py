"""Which characters a player must be bound to for each command.

Players declare actions for their own characters by sheet names (``act`` without a
degree or a choice), Delay and end their own turn.  Degrees, Saves, dice, initiative,
setting the table and rulings are the GM's: they carry free numbers or outcomes.
"""

from __future__ import annotations

from service.rulesets.scentfinder.commands import Act, Command, Delay, EndTurn
from service.rulesets.scentfinder.state import State

PLAYER_COMMANDS = (Act, Delay, EndTurn)
"""What a player may ever send: everything else speaks for the table."""


def acts_for(state: State, command: Command) -> frozenset[str] | None:
    match command:
        case Act() if command.degree is None and command.choice is None:
            return frozenset({command.actor})
        case Delay() | EndTurn():
            return frozenset({command.combatant})
        case _:
            return None
