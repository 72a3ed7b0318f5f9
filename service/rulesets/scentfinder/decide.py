"""``decide``: check a command against the rules and return the events it causes.

Setting the table, initiative, turns and rulings live here; taking an action in
``actions``, the degree of a test in ``degrees``, Saves in ``saves``.
"""

from __future__ import annotations

from typing import assert_never

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import actions, degrees, saves
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import no_pending
from service.rulesets.scentfinder.commands import (
    Act,
    AddCombatant,
    Adjudicate,
    Begin,
    Command,
    DefineArea,
    Delay,
    EndCombat,
    EndTurn,
    GmRoll,
    Initiative,
    RemoveCombatant,
    ReorderPhase,
    Resolve,
    RollTest,
    Save,
)
from service.rulesets.scentfinder.events import Tick
from service.rulesets.scentfinder.fields import PHASE_OF, maximum_of
from service.rulesets.scentfinder.rules import Builder, adjacent, area_name, combatant, next_up
from service.rulesets.scentfinder.state import Condition, State


def decide(state: State, command: Command, dice: Dice) -> tuple[ev.Event, ...]:
    """The events ``command`` causes in ``state``, or a RuleViolation saying why not."""
    if state.stage == "ended" and not isinstance(command, Adjudicate | GmRoll):
        raise RuleViolation("The fight is over; only GM rulings can change it now")
    match command:
        case DefineArea():
            return _define_area(state, command)
        case AddCombatant():
            return _add_combatant(state, command)
        case RemoveCombatant():
            combatant(state, command.id)
            b = Builder(state)
            b.emit(ev.CombatantRemoved(combatant=command.id))
            if state.current == command.id:
                start_next_turn(b)
            return b.done()
        case Initiative():
            return _initiative(state, command)
        case Begin():
            return _begin(state)
        case ReorderPhase():
            return _reorder(state, command)
        case Delay():
            return _delay(state, command)
        case Act():
            return actions.act(state, command, dice)
        case Resolve():
            return degrees.resolve(state, command, dice)
        case RollTest():
            return degrees.roll_test(state, command, dice)
        case Save():
            return saves.save(state, command, dice)
        case EndTurn():
            return _end_turn(state, command)
        case Adjudicate():
            return _adjudicate(state, command)
        case GmRoll():
            record = dice.roll(command.notation, purpose=command.label)
            return (ev.GmRolled(label=command.label, rolls=(record,)),)
        case EndCombat():
            return (ev.CombatEnded(round=state.round),)
        case _:
            assert_never(command)


def _check_die(notation: str) -> None:
    try:
        maximum_of(notation)
    except ValueError:
        raise RuleViolation(f"'{notation}' is not a damage die like 1d6 or 2d4+1") from None


def _define_area(state: State, command: DefineArea) -> tuple[ev.Event, ...]:
    if command.id in state.areas:
        raise RuleViolation(f"Area '{command.id}' is already defined")
    for other in command.adjacent:
        if other not in state.areas:
            raise RuleViolation(f"Area '{other}' is not defined yet; define it first (SCF-04)")
    if command.hazard is not None:
        _check_die(command.hazard.die)
    return (
        ev.AreaDefined(
            area=command.id,
            name=command.name,
            adjacent=command.adjacent,
            difficult=command.difficult,
            hazard=command.hazard,
            obstacle=command.obstacle,
            uneven=command.uneven,
            cover=command.cover,
        ),
    )


def _add_combatant(state: State, command: AddCombatant) -> tuple[ev.Event, ...]:
    if command.id in state.combatants:
        raise RuleViolation(f"There is already a combatant '{command.id}'")
    if command.area not in state.areas:
        raise RuleViolation(f"Area '{command.area}' is not defined")
    if command.minion_of is not None:
        combatant(state, command.minion_of)
        if command.phase is not None:
            raise RuleViolation("A minion does not act on its own: it has no phase (SCF-26)")
    if command.pc and command.phase is not None:
        raise RuleViolation("A player character's phase comes from initiative, not the sheet")
    for weapon in command.weapons.values():
        _check_die(weapon.damage)
    for spell in command.spells.values():
        if spell.damage is not None:
            _check_die(spell.damage)
    for held in command.held:
        if held not in command.weapons:
            raise RuleViolation(f"{command.name} holds '{held}', which is not on the sheet")
    return (
        ev.CombatantAdded(
            combatant=command.id,
            name=command.name,
            pc=command.pc,
            side=command.side,
            sentient=command.sentient,
            minion_of=command.minion_of,
            hp=command.hp,
            max_hp=command.max_hp or max(command.hp, 1),
            fp=command.fp,
            max_fp=command.max_fp if command.max_fp is not None else command.fp,
            saves={str(k): v for k, v in command.saves.items()},
            skills=command.skills,
            weapons=dict(command.weapons),
            held=command.held,
            hands=command.hands,
            spells=dict(command.spells),
            magic_skill=command.magic_skill,
            refocus_skill=command.refocus_skill,
            healing_tools=command.healing_tools,
            shield=command.shield,
            area=command.area,
            phase=command.phase,
        ),
    )


def _initiative(state: State, command: Initiative) -> tuple[ev.Event, ...]:
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


def _begin(state: State) -> tuple[ev.Event, ...]:
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


def start_next_turn(b: Builder) -> None:
    """The next combatant's turn starts, opening a new round when everyone has acted."""
    who = next_up(b.state)
    if who is None:
        b.emit(ev.RoundStarted(round=b.state.round + 1))
        who = next_up(b.state)
        if who is None:
            return
    expiring = ["start_of_turn", "attack_or_start_of_turn"]
    expired = tuple(c.id for c in who.conditions if c.expiry in expiring)
    b.emit(
        ev.TurnStarted(
            combatant=who.id,
            round=b.state.round,
            phase=who.phase or 4,
            actions=max(0, 3 - (who.dd_action_loss if who.deaths_door else 0))
            + (who.actions if b.state.options.carry_over else 0),
            reaction=1 + (who.reaction if b.state.options.carry_over else 0),
            expired=expired,
        )
    )


def _reorder(state: State, command: ReorderPhase) -> tuple[ev.Event, ...]:
    players = sorted(
        c.id for c in state.combatants.values() if c.pc and not c.out and c.phase == command.phase
    )
    if sorted(command.order) != players or len(set(command.order)) != len(command.order):
        names = ", ".join(state.combatants[p].name for p in players) or "nobody"
        raise RuleViolation(
            f"The order must list exactly the players of phase {command.phase}: {names} (SCF-08)"
        )
    return (ev.PhaseReordered(phase=command.phase, order=command.order),)


def _delay(state: State, command: Delay) -> tuple[ev.Event, ...]:
    who = combatant(state, command.combatant)
    if state.current != who.id:
        raise RuleViolation(f"{who.name} can only Delay at the start of their own turn (SCF-09)")
    if who.acted:
        raise RuleViolation(
            f"Delay's trigger is the start of the turn: {who.name} has already acted (SCF-09)"
        )
    phase = who.phase or 4
    if phase >= 4:
        raise RuleViolation("There is no later initiative phase than the fourth (SCF-A11)")
    if command.phase <= phase:
        raise RuleViolation(
            f"Delay is to a later initiative phase: {who.name} acts in phase {phase}, so "
            f"{command.phase} is not later (SCF-09)"
        )
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
            reaction=who.reaction,
        )
    )
    start_next_turn(b)
    return b.done()


def _end_turn(state: State, command: EndTurn) -> tuple[ev.Event, ...]:
    who = combatant(state, command.combatant)
    if state.current != who.id:
        raise RuleViolation(f"It is not {who.name}'s turn")
    no_pending(state)
    decrement = state.options.persistent_decrement
    damage = sum(who.persistent)
    after = tuple(v - decrement for v in who.persistent if v - decrement > 0)
    ticked: list[Tick] = []
    skipped: list[str] = []
    dissipated: list[str] = []
    by_source = state.options.duration_tick == "source"
    others: list[ev.Event] = []
    for c in who.conditions:
        if c.expiry == "end_of_turn":
            dissipated.append(c.id)
        elif c.expiry == "turns" and c.remaining is not None:
            if by_source and c.source not in (None, who.id):
                continue  # counted down at the end of its source's turn (SCF-A4)
            if c.skips > 0:
                skipped.append(c.id)
            elif c.remaining - 1 <= 0:
                dissipated.append(c.id)
            else:
                ticked.append(Tick(condition=c.id, remaining=c.remaining - 1))
    if by_source:
        others = list(_tick_sourced(state, who.id))
    minions = tuple(
        m.id for m in state.combatants.values() if m.minion_of == who.id and m.granted > 0
    )
    b = Builder(state)
    b.emit(
        ev.TurnEnded(
            combatant=who.id,
            persistent_damage=damage,
            hp_after=who.hp - damage,
            persistent_after=after,
            ticked=tuple(ticked),
            skipped=tuple(skipped),
            dissipated=tuple(dissipated),
            minions_lost=minions,
        )
    )
    b.emit(*others)
    start_next_turn(b)
    return b.done()


def _tick_sourced(state: State, source: str) -> list[ev.Event]:
    """SCF-A4 with ``duration_tick = source``: effects a creature caused on others count
    down at the end of the source's turn."""
    out: list[ev.Event] = []
    for bearer in state.combatants.values():
        if bearer.id == source:
            continue
        for c in bearer.conditions:
            if c.expiry != "turns" or c.remaining is None or c.source != source:
                continue
            if c.skips > 0:
                out.append(
                    ev.ConditionChanged(
                        bearer=bearer.id,
                        condition=c.id,
                        remaining=c.remaining,
                        skips=c.skips - 1,
                        intense=c.intense,
                        reason="sustained, no count-down",
                    )
                )
            elif c.remaining - 1 <= 0:
                out.append(
                    ev.ConditionRemoved(bearer=bearer.id, condition=c.id, reason="dissipates")
                )
            else:
                out.append(
                    ev.ConditionChanged(
                        bearer=bearer.id,
                        condition=c.id,
                        remaining=c.remaining - 1,
                        skips=c.skips,
                        intense=c.intense,
                        reason="counts down",
                    )
                )
    return out


def _adjudicate(state: State, command: Adjudicate) -> tuple[ev.Event, ...]:
    changes = (
        command.hp,
        command.fp,
        command.deaths_door,
        command.dd_action_loss,
        command.persistent,
        command.area,
        command.add_condition,
        command.remove_condition,
    )
    if command.combatant is None:
        if any(x is not None for x in changes):
            raise RuleViolation("A ruling that changes a value names the combatant it changes")
        return (ev.Ruling(reason=command.reason),)
    who = combatant(state, command.combatant)
    if command.area is not None and command.area not in state.areas:
        raise RuleViolation(f"Area '{command.area}' is not defined")
    if command.remove_condition is not None:
        from service.rulesets.scentfinder.rules import find_condition

        find_condition(who, command.remove_condition)
    added = None
    if command.add_condition is not None:
        spec = command.add_condition
        if spec.against is not None:
            combatant(state, spec.against)
        added = Condition(
            id=f"c{state.next_condition}",
            kind=spec.kind,
            expiry=spec.expiry or ("turns" if spec.turns else "until_removed"),
            remaining=spec.turns,
            source=None,
            against=spec.against,
            scope=spec.scope,
            circumstance=spec.circumstance,
            save=spec.save,
            intense=spec.intense,
            note=spec.note,
        )
    return (
        ev.Ruling(
            reason=command.reason,
            combatant=who.id,
            hp=command.hp,
            fp=command.fp,
            deaths_door=command.deaths_door,
            dd_action_loss=command.dd_action_loss,
            persistent=command.persistent,
            area=command.area,
            condition_added=added,
            condition_removed=command.remove_condition,
        ),
    )
