"""``evolve``: apply one event to the state.

Events are facts ``decide`` already checked, so nothing here validates or raises: every
number (hp after damage, the expiry round, the new initiative order) was worked out in
``decide`` and is copied as is.  Each case builds new values; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from msgspec.structs import replace

from service.rulesets.generic.events import (
    AttackRolled,
    CheckRolled,
    CombatantAdded,
    CombatantRemoved,
    ConditionAdded,
    ConditionExpired,
    ConditionRemoved,
    Damaged,
    EncounterEnded,
    Event,
    Healed,
    InitiativeRolled,
    OutcomeOverridden,
    RoundStarted,
    TurnStarted,
    ValueSet,
)
from service.rulesets.generic.state import (
    RECENT_OUTCOMES,
    Combatant,
    Condition,
    Ended,
    Fighting,
    OutcomeKind,
    RecentOutcome,
    State,
)


def evolve(state: State, event: Event) -> State:
    """The state after ``event``."""
    match event:
        case CombatantAdded():
            combatant = Combatant(
                id=event.combatant,
                name=event.name,
                hp=event.hp,
                max_hp=event.max_hp,
                stats=dict(event.stats),
                side=event.side,
            )
            return replace(state, combatants={**state.combatants, event.combatant: combatant})
        case CombatantRemoved():
            combatants = {k: c for k, c in state.combatants.items() if k != event.combatant}
            order = tuple(e for e in state.order if e.combatant != event.combatant)
            return replace(state, combatants=combatants, order=order)
        case InitiativeRolled():
            return replace(state, order=event.order)
        case RoundStarted():
            return replace(state, phase=Fighting(round=event.round, turn=event.combatant))
        case TurnStarted():
            assert isinstance(state.phase, Fighting), "decide starts turns only in combat"
            return replace(state, phase=replace(state.phase, turn=event.combatant))
        case ConditionAdded():
            added = Condition(name=event.condition, expires_at_round=event.expires_at_round)
            return _update(state, event.combatant, lambda c: _with_condition(c, added))
        case ConditionRemoved() | ConditionExpired():
            name = event.condition
            return _update(state, event.combatant, lambda c: _without_condition(c, name))
        case AttackRolled():
            attacker, target = _name(state, event.attacker), _name(state, event.target)
            what = f"{attacker}'s attack on {target}"
            return _remember(state, event.rolls[0].roll_id, "attack", event.outcome, what)
        case CheckRolled():
            if event.outcome is None:
                return state
            what = f"{_name(state, event.combatant)}'s {event.label} check"
            return _remember(state, event.rolls[0].roll_id, "check", event.outcome, what)
        case Damaged(target=target, hp_after=hp) | Healed(target=target, hp_after=hp):
            return _update(state, target, lambda c: replace(c, hp=hp))
        case ValueSet():
            return _update(state, event.combatant, lambda c: _set_value(c, event))
        case OutcomeOverridden():
            outcomes = tuple(
                replace(o, outcome=event.outcome) if o.roll_id == event.roll_id else o
                for o in state.outcomes
            )
            return replace(state, outcomes=outcomes)
        case EncounterEnded():
            return replace(state, phase=Ended(round=state.round()))
        case _:
            assert_never(event)


def _update(state: State, combatant_id: str, change: Callable[[Combatant], Combatant]) -> State:
    combatants = dict(state.combatants)
    combatants[combatant_id] = change(combatants[combatant_id])
    return replace(state, combatants=combatants)


def _with_condition(combatant: Combatant, added: Condition) -> Combatant:
    """Add ``added``, replacing a condition of the same name (a restarted duration)."""
    kept = tuple(c for c in combatant.conditions if c.name != added.name)
    return replace(combatant, conditions=(*kept, added))


def _without_condition(combatant: Combatant, name: str) -> Combatant:
    return replace(combatant, conditions=tuple(c for c in combatant.conditions if c.name != name))


def _set_value(combatant: Combatant, event: ValueSet) -> Combatant:
    if event.field == "hp":
        return replace(combatant, hp=event.value)
    if event.field == "max_hp":
        return replace(combatant, max_hp=event.value)
    stat = event.field.removeprefix("stat:")
    return replace(combatant, stats={**combatant.stats, stat: event.value})


def _name(state: State, combatant_id: str) -> str:
    """Display name; the id if the combatant is gone (events are never refused)."""
    combatant = state.combatants.get(combatant_id)
    return combatant.name if combatant else combatant_id


def _remember(state: State, roll_id: str, kind: OutcomeKind, outcome: str, what: str) -> State:
    """Keep the outcome for ``override_outcome``, forgetting the oldest beyond the limit."""
    recent = RecentOutcome(roll_id=roll_id, kind=kind, outcome=outcome, description=what)
    return replace(state, outcomes=(*state.outcomes, recent)[-RECENT_OUTCOMES:])
