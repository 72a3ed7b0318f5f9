"""Breakaway (section 3, AEK-28): leaving Engaged without Disengage lets "any foes you
were Engaged with" make "an immediate free strike".

The strike comes first: the move is held back (``BreakawayOpened.move``) while the
foes left behind, still Engaged with the mover, strike as their Reaction; the move
completes when the last of them has struck, or when the table moves on (the next
``resolve`` or ``next_phase``), the others letting the chance pass.  A mover killed by
a strike does not move.  The log reads in that order: the break, the strikes, the move.
"""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.charge import arrive
from service.rulesets.aeonisk_tactical.combat import Strike, strike
from service.rulesets.aeonisk_tactical.commands import FreeStrike
from service.rulesets.aeonisk_tactical.evolve import fold
from service.rulesets.aeonisk_tactical.plan import Charge
from service.rulesets.aeonisk_tactical.rules import living
from service.rulesets.aeonisk_tactical.state import State


def free_strike(state: State, command: FreeStrike, dice: Dice) -> tuple[ev.Event, ...]:
    """A foe left behind in Engaged strikes as a Reaction, before the move completes."""
    who = living(state, command.character)
    window = state.breakaway
    if window is None or who.id not in window.foes:
        raise RuleViolation(
            f"{who.name} has no Breakaway free strike: it follows a move out of Engaged with "
            f"{who.name} made without Disengage (section 3)"
        )
    if who.reaction_used:
        raise RuleViolation(f"{who.name} has already used their Reaction this round (section 2)")
    weapon = who.weapons.get(command.weapon)
    if weapon is None:
        raise RuleViolation(f"{who.name} has no weapon '{command.weapon}'")
    mover = state.characters[window.mover]
    s = Strike(who, mover, command.weapon, weapon, command.attribute, command.skill, "free_strike")
    events = strike(state, dice, s)
    after = fold(state, events)
    if window.move is None or (after.breakaway is not None and after.breakaway.foes):
        return events
    return (*events, *complete_move(after, dice))


def complete_move(state: State, dice: Dice) -> tuple[ev.Event, ...]:
    """Finish the held move of an open Breakaway and close it; nothing if none is open."""
    window = state.breakaway
    if window is None:
        return ()
    dice.no_roll(
        "the mover's held move completes once the Breakaway free strikes are taken or "
        "passed up; moving rolls nothing (section 3)",
        rule="AEK-28",
    )
    closed = ev.BreakawayClosed(mover=window.mover)
    held = window.move
    mover = state.characters.get(window.mover)
    if held is None or mover is None or not mover.alive:
        return (closed,)
    moved = ev.Moved(character=mover.id, changes=held.changes, zone=held.zone)
    events: list[ev.Event] = [moved, closed]
    declared = state.declared(mover.id, held.slot) if held.slot is not None else None
    if held.slot == "major" and isinstance(declared, Charge):
        after = fold(state, events)
        events.extend(
            arrive(
                after,
                dice,
                after.characters[mover.id],
                declared,
                held.attack_modifiers,
                held.defence_modifiers,
            )
        )
    return tuple(events)
