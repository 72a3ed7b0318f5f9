"""Which characters a player must be bound to for each command.

Players speak for their own investigators: choosing Fast or Slow, moving, attacking with
a weapon on the sheet, answering an attack, getting up, ending the turn, rolling a check
the Narrator called, spending the players' karma. Everything with a number the rules do
not derive (difficulty, distance, shot modifiers) and every ruling is the Narrator's.
"""

from __future__ import annotations

from service.rulesets.untold_aeons.commands import (
    Attack,
    ChooseTurn,
    Command,
    EndTurn,
    Move,
    Respond,
    RollCheck,
    SpendKarma,
    StandUp,
)
from service.rulesets.untold_aeons.state import State

PLAYER_COMMANDS = (ChooseTurn, Move, Respond, StandUp, EndTurn, RollCheck, Attack, SpendKarma)
"""What a player may ever send: everything else speaks for the table."""


def acts_for(state: State, command: Command) -> frozenset[str] | None:
    match command:
        case ChooseTurn() | Move() | Respond() | StandUp() | EndTurn() | RollCheck():
            return frozenset({command.character})
        case Attack() if not command.modifiers:
            return frozenset({command.attacker})
        case SpendKarma() if command.by is not None:
            return frozenset({command.by})
        case _:
            return None
