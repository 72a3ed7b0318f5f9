"""Rounds and turns: who acts next, when rounds begin and when conditions run out.

Turns follow the initiative order.  ``next_turn`` passes to the next combatant able to
act (with ``skip_down_turns``, anyone above 0 hp); past the end of the order a new round
begins with the first such combatant.  When nobody in the order can act, the turn goes
to the next combatant anyway: the ruleset never leaves a table stuck.

Conditions expire as a round begins: a condition with ``expires_at_round = n`` gets a
``generic.condition_expired`` event right after ``generic.round_started`` for round n.
"""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from service.ruleset import RuleViolation
from service.rulesets.generic.events import (
    CombatantRemoved,
    ConditionExpired,
    Event,
    RoundStarted,
    TurnStarted,
)
from service.rulesets.generic.state import Fighting, InitiativeEntry, State, is_down


def next_turn(state: State) -> tuple[Event, ...]:
    """``generic.next_turn``: the events that pass the turn on."""
    if not isinstance(state.phase, Fighting):
        raise RuleViolation("combat has not started: roll initiative first")
    position = _position(state.order, state.phase.turn)
    return advance(state, state.order, position, state.phase.round)


def start_round(state: State, order: tuple[InitiativeEntry, ...], number: int) -> tuple[Event, ...]:
    """Round ``number`` begins with the first combatant able to act; conditions expire."""
    first, _ = _pick(state, order, -1)
    return (RoundStarted(round=number, combatant=first), *_expiries(state, number))


def advance(
    state: State, order: tuple[InitiativeEntry, ...], position: int, current_round: int
) -> tuple[Event, ...]:
    """Pass the turn on from ``order[position]``, starting a new round past the end."""
    combatant, wrapped = _pick(state, order, position)
    if wrapped:
        return start_round(state, order, current_round + 1)
    return (TurnStarted(combatant=combatant),)


def removal(state: State, combatant_id: str) -> tuple[Event, ...]:
    """Remove a combatant; if it was their turn the turn passes on as with next_turn.

    The turn passes *before* the removal event, so no state between the two has a turn
    holder outside the order (a snapshot may be taken between any two events).
    """
    removed = CombatantRemoved(combatant=combatant_id)
    phase = state.phase
    if not isinstance(phase, Fighting) or phase.turn != combatant_id:
        return (removed,)
    remaining = tuple(e for e in state.order if e.combatant != combatant_id)
    if not remaining:
        name = state.combatants[combatant_id].name
        raise RuleViolation(
            f"{name} is the only combatant in the initiative order; end the encounter instead"
        )
    without = {k: c for k, c in state.combatants.items() if k != combatant_id}
    position = _position(state.order, combatant_id) - 1
    passed = advance(replace(state, combatants=without), remaining, position, phase.round)
    return (*passed, removed)


def _position(order: tuple[InitiativeEntry, ...], combatant_id: str) -> int:
    return next(i for i, entry in enumerate(order) if entry.combatant == combatant_id)


def _candidates(order: tuple[InitiativeEntry, ...], position: int) -> Iterator[tuple[str, bool]]:
    """Everyone after ``position`` once around the order, with whether we passed its end."""
    size = len(order)
    for index in range(position + 1, position + 1 + size):
        yield order[index % size].combatant, index >= size


def _pick(state: State, order: tuple[InitiativeEntry, ...], position: int) -> tuple[str, bool]:
    """The next combatant to act after ``position`` and whether a new round begins."""
    candidates = list(_candidates(order, position))
    if state.options.skip_down_turns:
        for combatant, wrapped in candidates:
            if not is_down(state.combatants[combatant]):
                return combatant, wrapped
    return candidates[0]


def _expiries(state: State, number: int) -> tuple[Event, ...]:
    """Every condition, in or out of the order, whose duration ends as round ``number``
    begins."""
    return tuple(
        ConditionExpired(combatant=c.id, condition=condition.name, round=number)
        for c in state.combatants.values()
        for condition in c.conditions
        if condition.expires_at_round is not None and condition.expires_at_round <= number
    )
