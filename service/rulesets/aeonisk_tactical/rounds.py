"""The round (section 1): Declare -> Fast -> Slow -> Cleanup, moved on by the GM.

A new round refreshes Reactions and Defence Tokens (AEK-30, AEK-A4) and rolls
Initiative (every round, or once: AEK-A1).  Cleanup resolves what lingers: unused Cover
ends (AEK-A33), Charge and Hunker Down that reached their owner's next turn end, Vents
close when their time is up, and, with ``fatal_check_timing = cleanup``, the Health
checks are made; Stun effects and morale are YAGS-core matters for the GM (``check``
and rulings).
"""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.damage import fatal_check
from service.rulesets.aeonisk_tactical.fields import FATAL_WOUNDS
from service.rulesets.aeonisk_tactical.initiative import roll_initiative
from service.rulesets.aeonisk_tactical.rules import next_pending, resolution_order
from service.rulesets.aeonisk_tactical.state import (
    Cleanup,
    Declaring,
    Ended,
    Fast,
    Setup,
    Slow,
    State,
)


def next_phase(state: State, dice: Dice) -> tuple[ev.Event, ...]:
    phase = state.phase
    match phase:
        case Setup() | Cleanup():
            return _new_round(state, dice, 1 if isinstance(phase, Setup) else phase.round + 1)
        case Declaring(round=number):
            waiting = _undeclared(state)
            if waiting:
                names = ", ".join(waiting)
                raise RuleViolation(
                    f"the Declare Phase is not over: {names} still to declare (section 1)"
                )
            return (ev.PhaseStarted(phase="fast", round=number),)
        case Fast(round=number):
            return (ev.PhaseStarted(phase="slow", round=number),)
        case Slow(round=number):
            return _cleanup(state, dice, number)
        case Ended():
            raise RuleViolation("the encounter has ended")


def _new_round(state: State, dice: Dice, number: int) -> tuple[ev.Event, ...]:
    fighters = [c for c in state.characters.values() if c.alive]
    if number == 1 and len(fighters) < 2:
        raise RuleViolation("combat needs at least two living characters")
    if state.options.initiative_mode == "reroll_each_round":
        rollers = fighters
    else:
        rollers = [c for c in fighters if c.initiative is None]
    events: list[ev.Event] = [ev.RoundStarted(round=number)]
    if rollers:
        events.append(roll_initiative(state, dice, rollers))
    return tuple(events)


def _undeclared(state: State) -> list[str]:
    return [c.name for c in reversed(resolution_order(state)) if c.id not in state.declarations]


def _cleanup(state: State, dice: Dice, number: int) -> tuple[ev.Event, ...]:
    if state.suppressed is not None:
        who = state.characters[state.suppressed.target].name
        raise RuleViolation(f"{who} must first choose Dive or Hunker Down")
    left = next_pending(state)
    if left is not None:
        c, slot, _ = left
        raise RuleViolation(
            f"the Slow Phase is not over: {c.name}'s {slot.title()} action is still to "
            "resolve (resolve)"
        )
    events: list[ev.Event] = []
    if state.breakaway is not None:
        events.append(ev.BreakawayClosed(mover=state.breakaway.mover))
    events.append(ev.PhaseStarted(phase="cleanup", round=number))
    for c in state.characters.values():
        ended: list[str] = []
        if c.cover_mod:
            ended.append("cover")
        if c.hunkered_round is not None and c.hunkered_round < number:
            ended.append("hunker_down")
        if c.charged_round is not None and c.charged_round < number:
            ended.append("charge")
        if c.charge_foe is not None:
            ended.append("charge_bonus")
        if ended:
            events.append(ev.EffectsEnded(character=c.id, effects=tuple(ended)))
    if state.obscured and all(o.until_round <= number for o in state.obscured):
        events.append(ev.ObscurementCleared())
    if state.options.fatal_check_timing == "cleanup":
        for c in state.characters.values():
            if c.alive and c.wounds >= FATAL_WOUNDS:
                events.append(fatal_check(state, dice, c, c.wounds))
    return tuple(events)
