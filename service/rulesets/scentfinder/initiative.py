"""Initiative and the order of phases: setting initiative, beginning combat, reordering
a phase's players and Delaying to a later phase (SCF-05..09, SCF-A11, SCF-A12)."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Delay, Initiative, ReorderPhase
from service.rulesets.scentfinder.fields import PHASE_OF
from service.rulesets.scentfinder.rules import Builder, adjacent, area_name, combatant
from service.rulesets.scentfinder.state import State
from service.rulesets.scentfinder.turns import start_next_turn


def initiative(state: State, command: Initiative) -> tuple[ev.Event, ...]:
    out: list[ev.Event] = []
    for entry in command.entries:
        who = combatant(state, entry.combatant)
        if who.minion_of is not None:
            raise RuleViolation(f"{who.name} is a minion and does not act on its own (SCF-26)")
        if not who.pc:
            if entry.phase is None or entry.degree is not None:
                raise RuleViolation(
                    f"NPCs act at fixed initiative phases: give {who.name} a phase, not a "
                    "degree (SCF-07)"
                )
            out.append(ev.InitiativeSet(combatant=who.id, phase=entry.phase))
            continue
        if state.stage != "setup" and who.had_turn:
            raise RuleViolation(
                f"{who.name} already rolled initiative; it is rolled once (SCF-A12)"
            )
        if entry.degree is None or entry.phase is not None:
            raise RuleViolation(
                f"{who.name}'s initiative is a test: the GM enters its degree (and value), "
                "which gives the phase (SCF-06)"
            )
        if entry.start_area is not None:
            if entry.degree != "triumph":
                raise RuleViolation(
                    f"Only a Triumph on initiative lets {who.name} start combat one area away "
                    "(SCF-06)"
                )
            if who.area is None or not adjacent(state, who.area, entry.start_area):
                raise RuleViolation(
                    f"{area_name(state, entry.start_area)} is not one area away from "
                    f"{who.name}'s starting position ({area_name(state, who.area)})"
                )
        out.append(
            ev.InitiativeSet(
                combatant=who.id,
                phase=PHASE_OF[entry.degree],
                degree=entry.degree,
                value=entry.value,
                skill=entry.skill,
                start_area=entry.start_area,
            )
        )
    return tuple(out)


def begin(state: State) -> tuple[ev.Event, ...]:
    if state.stage != "setup":
        raise RuleViolation("Combat has already begun")
    people = [c for c in state.combatants.values() if not c.out and c.minion_of is None]
    if not people:
        raise RuleViolation("Nobody is in the fight yet")
    for who in people:
        if who.phase is None:
            raise RuleViolation(f"{who.name} has no initiative phase yet (SCF-05)")
    b = Builder(state)
    from service.rulesets.scentfinder.rules import turn_order

    b.emit(ev.CombatBegan(order=tuple(c.id for c in turn_order(state))))
    b.emit(ev.RoundStarted(round=1))
    start_next_turn(b)
    return b.done()


def reorder(state: State, command: ReorderPhase) -> tuple[ev.Event, ...]:
    for ident in command.order:
        npc = state.combatants.get(ident)
        if npc is not None and not npc.pc:
            raise RuleViolation(
                f"{npc.name} is an NPC: NPCs act at fixed initiative phases, after PCs in the "
                "same phase have acted, so only players are ordered among themselves",
                rule="SCF-07",
            )
    players = sorted(
        c.id for c in state.combatants.values() if c.pc and not c.out and c.phase == command.phase
    )
    if sorted(command.order) != players or len(set(command.order)) != len(command.order):
        names = ", ".join(state.combatants[p].name for p in players) or "nobody"
        raise RuleViolation(
            f"The order must list exactly the players of phase {command.phase}: {names} (SCF-08)"
        )
    return (ev.PhaseReordered(phase=command.phase, order=command.order),)


def delay(state: State, command: Delay) -> tuple[ev.Event, ...]:
    who = combatant(state, command.combatant)
    if state.current != who.id:
        raise RuleViolation(f"{who.name} can only Delay at the start of their own turn (SCF-09)")
    if who.acted:
        raise RuleViolation(
            f"Delay's trigger is the start of the turn: {who.name} has already acted (SCF-09)"
        )
    phase = who.phase or 4
    if command.phase > 4:
        raise RuleViolation(
            f"There are four initiative phases each round: phase {command.phase} is beyond the "
            "last, so Delay can only be to a later phase up to the fourth",
            rule="SCF-06",
        )
    if phase >= 4:
        raise RuleViolation("There is no later initiative phase than the fourth (SCF-A11)")
    if command.phase <= phase:
        raise RuleViolation(
            f"Delay is to a later initiative phase: {who.name} acts in phase {phase}, so "
            f"{command.phase} is not later (SCF-09)"
        )
    first_turn = not who.turn_before
    ranks = [
        c.rank
        for c in state.combatants.values()
        if c.phase == command.phase and c.pc == who.pc and c.id != who.id
    ]
    b = Builder(state)
    b.emit(
        ev.Delayed(
            combatant=who.id,
            from_phase=phase,
            to_phase=command.phase,
            rank=max(ranks, default=0) + 1,
            actions=0,
            reaction=0 if first_turn else who.reaction_before,
            first_turn=first_turn,
        )
    )
    start_next_turn(b)
    return b.done()
