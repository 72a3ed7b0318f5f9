"""The round (section 1): Declare -> Fast -> Slow -> Cleanup, moved on by the GM.

A new round refreshes Reactions and Defence Tokens (AEK-30, AEK-A4) and rolls
Initiative (every round, or once: AEK-A1).  Cleanup resolves what lingers: unused Cover
ends (AEK-A33), Charge and Hunker Down that reached their owner's next turn end, Vents
close when their time is up, and, with ``fatal_check_timing = cleanup``, the Health
checks are made; Stun effects and morale are YAGS-core matters for the GM (``check``
and rulings).
"""

from __future__ import annotations

from typing import Literal

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.breakaway import complete_move
from service.rulesets.aeonisk_tactical.commands import NextPhase, RollInitiative
from service.rulesets.aeonisk_tactical.damage import fatal_check
from service.rulesets.aeonisk_tactical.evolve import fold
from service.rulesets.aeonisk_tactical.fields import FATAL_WOUNDS
from service.rulesets.aeonisk_tactical.initiative import roll_initiative
from service.rulesets.aeonisk_tactical.rules import (
    living,
    next_pending,
    resolution_order,
    still_rolling,
)
from service.rulesets.aeonisk_tactical.state import (
    Cleanup,
    Declaring,
    Ended,
    Fast,
    Setup,
    Slow,
    State,
)


def next_phase(state: State, command: NextPhase, dice: Dice) -> tuple[ev.Event, ...]:
    phase = state.phase
    if command.close_declarations and not isinstance(phase, Declaring):
        raise RuleViolation("close_declarations ends a Declare Phase, and this is not one")
    match phase:
        case Setup() | Cleanup():
            number = 1 if isinstance(phase, Setup) else phase.round + 1
            return _new_round(state, dice, number, command.initiative)
        case Declaring(round=number):
            dice.no_roll(
                "closing the Declare Phase rolls nothing: the Fast Phase resolves Reactions, "
                "each rolled when it is taken (section 1)",
                rule="AEK-14",
            )
            return _close_declare(state, number, close=command.close_declarations)
        case Fast(round=number):
            dice.no_roll(
                "the Slow Phase begins, and its declared actions roll as each resolves (section 1)",
                rule="AEK-15",
            )
            done = complete_move(state, dice)
            return (*done, ev.PhaseStarted(phase="slow", round=number))
        case Slow(round=number):
            dice.no_roll(
                "Cleanup rolls only the Wound, Stun and morale checks a character owes, and "
                "nobody owes one now (section 1)",
                rule="AEK-16",
            )
            done = complete_move(state, dice)
            return (*done, *_cleanup(fold(state, done), dice, number))
        case Ended():
            raise RuleViolation("the encounter has ended")


def _new_round(
    state: State, dice: Dice, number: int, initiative: Literal["together", "one_at_a_time"]
) -> tuple[ev.Event, ...]:
    fighters = [c for c in state.characters.values() if c.alive]
    if number == 1 and len(fighters) < 2:
        raise RuleViolation("combat needs at least two living characters")
    if state.options.initiative_mode == "reroll_each_round":
        rollers = fighters
    else:
        rollers = [c for c in fighters if c.initiative is None]
    if initiative == "one_at_a_time":
        dice.no_roll(
            "Initiative is rolled one die at a time as each lands (roll_initiative), "
            "not when the round starts (section 1)",
            rule="AEK-06",
        )
        return (ev.RoundStarted(round=number, awaiting=tuple(c.id for c in rollers)),)
    dice.no_roll(
        'Initiative is rolled "once at start" (initiative_mode once_at_start) and every '
        "character has one (section 1)",
        rule="AEK-A1",
    )
    events: list[ev.Event] = [ev.RoundStarted(round=number)]
    if rollers:
        events.append(roll_initiative(state, dice, rollers))
    return tuple(events)


def roll_one(state: State, command: RollInitiative, dice: Dice) -> tuple[ev.Event, ...]:
    """One character's Initiative die as it lands (section 1, AEK-06)."""
    who = living(state, command.character)
    if not isinstance(state.phase, Declaring) or who.id not in state.initiative_due:
        if who.id in state.characters and isinstance(state.phase, Declaring):
            raise RuleViolation(f"{who.name} has no Initiative die to roll: it has been rolled")
        raise RuleViolation(
            "Initiative is rolled at the start of a round (section 1); one at a time when the "
            "GM starts it with next_phase initiative one_at_a_time"
        )
    return (roll_initiative(state, dice, [who], still_rolling=state.initiative_due),)


def _close_declare(state: State, number: int, *, close: bool) -> tuple[ev.Event, ...]:
    """Declare -> Fast.  The GM may close the phase before everyone has declared: those
    who have not lapse, with no Defence Token allocated (section 4: flanked by all)."""
    rolling = still_rolling(state)
    if rolling:
        names = ", ".join(c.name for c in rolling)
        raise RuleViolation(f"Initiative is still being rolled: {names} to roll (roll_initiative)")
    waiting = [c for c in reversed(resolution_order(state)) if c.id not in state.declarations]
    if waiting and not close:
        names = ", ".join(c.name for c in waiting)
        raise RuleViolation(
            f"the Declare Phase is not over: {names} still to declare (section 1); the GM may "
            "close it anyway (next_phase close_declarations), and they lapse"
        )
    lapsed = tuple(ev.DeclarationLapsed(character=c.id) for c in waiting)
    return (*lapsed, ev.PhaseStarted(phase="fast", round=number))


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
