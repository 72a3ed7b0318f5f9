"""Which combatants a player must be bound to for each command.

A player speaks for their own combatants: their attacks, checks, initiative and the end
of their own turn.  Everything that changes the table itself (adding combatants, damage
and healing applied by hand, conditions, rulings, ending the fight) is the GM's.
"""

from __future__ import annotations

from service.rulesets.generic.commands import Attack, Check, Command, NextTurn, RollInitiative
from service.rulesets.generic.state import Fighting, State

PLAYER_COMMANDS = (Attack, Check, RollInitiative, NextTurn)
"""What a player may ever send: everything else speaks for the table."""


def off_sheet(state: State, command: Command) -> str | None:
    """Why a player may not issue ``command`` as it is: it brings numbers of its own
    (dice, damage, a target number, modifiers) where the sheet the GM set gives them."""
    match command:
        case Attack():
            attacker = state.combatants.get(command.attacker)
            listed = ", ".join(sorted(attacker.attacks)) if attacker else ""
            if command.using is None:
                return (
                    f"a player attacks with an attack of the sheet ({listed or 'none yet'}):"
                    " for anything else, send a request the GM can approve"
                )
            if command.damage or command.target_number is not None or command.modifiers:
                return "a player's attack takes its damage, target and modifiers from the sheet"
        case Check():
            if command.using is None:
                return (
                    "a player rolls the checks of the sheet: for anything else, send a"
                    " request the GM can approve"
                )
            if command.target_number is not None or command.opposed or command.modifiers:
                return (
                    "a player's check takes no target number, opposing roll or modifiers:"
                    " the GM calls for those"
                )
        case RollInitiative() if command.notation is not None:
            return "initiative is rolled with the encounter's dice, not a player's own"
    return None


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
