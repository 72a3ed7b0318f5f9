"""``evolve``: apply one event to the state.

Events are facts ``decide`` already checked, so nothing here validates or raises: every
number (hp after damage, the expiry round, the new initiative order) was worked out in
``decide`` and is copied as is.  Each case builds new values; nothing is mutated.

One function per event type, found by the event's type (events are final Structs): a
``match`` over fifteen class patterns cost more than most cases (every fold and rebuild
runs this once per event).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from service.rulesets.generic.events import (
    EVENT_TYPES,
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
    return _EVOLVERS[type(event)](state, event)


def _combatant_added(state: State, event: CombatantAdded) -> State:
    combatant = Combatant(
        id=event.combatant,
        name=event.name,
        hp=event.hp,
        max_hp=event.max_hp,
        stats=dict(event.stats),
        side=event.side,
        attacks=dict(event.attacks),
        checks=dict(event.checks),
    )
    return replace(state, combatants={**state.combatants, event.combatant: combatant})


def _combatant_removed(state: State, event: CombatantRemoved) -> State:
    combatants = {k: c for k, c in state.combatants.items() if k != event.combatant}
    order = tuple(e for e in state.order if e.combatant != event.combatant)
    return replace(state, combatants=combatants, order=order)


def _initiative_rolled(state: State, event: InitiativeRolled) -> State:
    return replace(state, order=event.order)


def _round_started(state: State, event: RoundStarted) -> State:
    return replace(state, phase=Fighting(round=event.round, turn=event.combatant))


def _turn_started(state: State, event: TurnStarted) -> State:
    assert isinstance(state.phase, Fighting), "decide starts turns only in combat"
    return replace(state, phase=replace(state.phase, turn=event.combatant))


def _condition_added(state: State, event: ConditionAdded) -> State:
    added = Condition(name=event.condition, expires_at_round=event.expires_at_round)
    return _update(state, event.combatant, lambda c: _with_condition(c, added))


def _condition_ended(state: State, event: ConditionRemoved | ConditionExpired) -> State:
    name = event.condition
    return _update(state, event.combatant, lambda c: _without_condition(c, name))


def _attack_rolled(state: State, event: AttackRolled) -> State:
    attacker, target = _name(state, event.attacker), _name(state, event.target)
    what = f"{attacker}'s attack on {target}"
    return _remember(state, event.rolls[0].roll_id, "attack", event.outcome, what)


def _check_rolled(state: State, event: CheckRolled) -> State:
    if event.outcome is None:
        return state
    what = f"{_name(state, event.combatant)}'s {event.label} check"
    return _remember(state, event.rolls[0].roll_id, "check", event.outcome, what)


def _hp_changed(state: State, event: Damaged | Healed) -> State:
    hp = event.hp_after
    return _update(state, event.target, lambda c: replace(c, hp=hp))


def _value_set(state: State, event: ValueSet) -> State:
    if event.field == "initiative":
        return replace(state, order=state.order_with(event.combatant, event.value))
    return _update(state, event.combatant, lambda c: _set_value(c, event))


def _outcome_overridden(state: State, event: OutcomeOverridden) -> State:
    outcomes = tuple(
        replace(o, outcome=event.outcome) if o.roll_id == event.roll_id else o
        for o in state.outcomes
    )
    return replace(state, outcomes=outcomes)


def _encounter_ended(state: State, event: EncounterEnded) -> State:
    return replace(state, phase=Ended(round=state.round()))


_EVOLVERS: dict[type[Any], Callable[[State, Any], State]] = {
    CombatantAdded: _combatant_added,
    CombatantRemoved: _combatant_removed,
    InitiativeRolled: _initiative_rolled,
    RoundStarted: _round_started,
    TurnStarted: _turn_started,
    ConditionAdded: _condition_added,
    ConditionRemoved: _condition_ended,
    ConditionExpired: _condition_ended,
    AttackRolled: _attack_rolled,
    CheckRolled: _check_rolled,
    Damaged: _hp_changed,
    Healed: _hp_changed,
    ValueSet: _value_set,
    OutcomeOverridden: _outcome_overridden,
    EncounterEnded: _encounter_ended,
}
assert set(_EVOLVERS) == set(EVENT_TYPES), "every generic event type needs its evolve"


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
