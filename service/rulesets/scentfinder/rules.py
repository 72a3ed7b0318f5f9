"""Shared lookups: combatants, turn order, distances between areas, folding."""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.evolve import evolve
from service.rulesets.scentfinder.state import Combatant, Condition, State


def fold(state: State, events: Iterable[ev.Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def combatant(state: State, ident: str) -> Combatant:
    who = state.combatants.get(ident)
    if who is None or who.out:
        raise RuleViolation(f"There is no combatant '{ident}' in this fight")
    return who


def area_name(state: State, area: str | None) -> str:
    if area is None:
        return "nowhere"
    found = state.areas.get(area)
    return found.name if found else area


def adjacent(state: State, a: str, b: str) -> bool:
    return (min(a, b), max(a, b)) in state.links


def distance(state: State, a: str | None, b: str | None) -> int:
    """Steps between two areas over their links (a large number when not connected)."""
    if a is None or b is None:
        return 99
    seen = {a}
    frontier = [a]
    steps = 0
    while frontier:
        if b in frontier:
            return steps
        steps += 1
        nxt = []
        for x in frontier:
            for p, q in state.links:
                for y in (q,) if p == x else (p,) if q == x else ():
                    if y not in seen:
                        seen.add(y)
                        nxt.append(y)
        frontier = nxt
    return 99


def order_key(state: State, who: Combatant) -> tuple[int, int, int, int, int]:
    """SCF-06/07/08: phase, PCs before NPCs, agreed rank, then the lowest (or highest)
    initiative value, then the order they joined."""
    value = who.init_value or 0
    if state.options.within_phase_order == "highest_first":
        value = -value
    return (who.phase or 5, 0 if who.pc else 1, who.rank, value, who.index)


def turn_order(state: State) -> list[Combatant]:
    """Everyone who takes turns, in order; minions have no turn of their own (SCF-A22)."""
    people = [
        c
        for c in state.combatants.values()
        if not c.out and c.phase is not None and c.minion_of is None
    ]
    return sorted(people, key=lambda c: order_key(state, c))


def next_up(state: State) -> Combatant | None:
    for who in turn_order(state):
        if who.id not in state.done and who.id != state.current:
            return who
    return None


class Builder:
    """Events of one decision, folded as they are emitted so later rules see earlier
    events (condition ids, HP after a first hit)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, *events: ev.Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    def condition(self, bearer: str, condition: Condition) -> str:
        ident = f"c{self.state.next_condition}"
        self.emit(ev.ConditionAdded(bearer=bearer, condition=replace(condition, id=ident)))
        return ident

    def who(self, ident: str) -> Combatant:
        return self.state.combatants[ident]

    def done(self) -> tuple[ev.Event, ...]:
        return tuple(self.events)


def staggered_by_terrain(state: State, who: Combatant) -> bool:
    """SCF-19: standing in uneven terrain is being Staggered, for as long as one stands there."""
    area = state.areas.get(who.area or "")
    return bool(area and area.uneven)


def find_condition(who: Combatant, ident: str) -> Condition:
    for c in who.conditions:
        if c.id == ident:
            return c
    raise RuleViolation(f"{who.name} has no condition {ident}")
