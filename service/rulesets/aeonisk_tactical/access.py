"""Which characters a player must be bound to for each command.

Players speak for their own characters: their Initiative die (one at a time),
declarations, a Void Surge added before the attack roll, Reactions, Breakaway free
strikes, the Dive-or-Hunker choice, and resolving their own next declared action (or
completing their own move held back by a Breakaway).
Setting the table, moving the round from phase to phase, checks the GM calls for,
rulings, and any resolution with GM-entered modifiers are the GM's.
"""

from __future__ import annotations

from service.rulesets.aeonisk_tactical.commands import (
    ChooseSuppression,
    Command,
    Declare,
    FreeStrike,
    React,
    Resolve,
    RollInitiative,
    VoidSurge,
)
from service.rulesets.aeonisk_tactical.rules import next_pending
from service.rulesets.aeonisk_tactical.state import Slow, State

PLAYER_COMMANDS = (
    Declare,
    React,
    FreeStrike,
    ChooseSuppression,
    RollInitiative,
    VoidSurge,
    Resolve,
)
"""What a player may ever send: everything else speaks for the table."""


def acts_for(state: State, command: Command) -> frozenset[str] | None:
    match command:
        case (
            Declare()
            | React()
            | FreeStrike()
            | ChooseSuppression()
            | RollInitiative()
            | VoidSurge()
        ):
            return frozenset({command.character})
        case Resolve() if not (command.attack_modifiers or command.defence_modifiers):
            held = state.breakaway
            if held is not None and held.move is not None:
                return frozenset({held.mover})
            pending = next_pending(state) if isinstance(state.phase, Slow) else None
            return frozenset({pending[0].id}) if pending else None
        case _:
            return None
