"""GM adjudication: the table's word over the rules, always with a reason.

Rulings are allowed in every phase, also after the encounter ended, because rules texts
have gaps and mistakes are found late.  Each ruling becomes its own event carrying the
reason, so the log reads "GM ruling: ..., because ...".  A ruling changes exactly what
it names; the one consequence kept is the down condition at 0 hp, so state never
contradicts itself (a GM can remove that condition with a second ruling).
"""

from __future__ import annotations

from typing import assert_never

from service.ruleset import RuleViolation
from service.rulesets.generic.commands import (
    AddConditionRuling,
    Adjudicate,
    OverrideOutcome,
    RemoveConditionRuling,
    SetValue,
)
from service.rulesets.generic.events import Event, OutcomeOverridden, ValueSet
from service.rulesets.generic.roster import check_stat_name, condition_added, condition_removed
from service.rulesets.generic.rules import combatant, hp_consequences, text
from service.rulesets.generic.state import OUTCOMES, RECENT_OUTCOMES, State


def adjudicate(state: State, command: Adjudicate) -> tuple[Event, ...]:
    """``generic.adjudicate``."""
    reason = text(command.reason, "the reason for a ruling")
    ruling = command.ruling
    match ruling:
        case SetValue():
            return _set_value(state, ruling, reason)
        case AddConditionRuling():
            return condition_added(
                state, ruling.target, ruling.condition, ruling.duration_rounds, reason
            )
        case RemoveConditionRuling():
            return condition_removed(state, ruling.target, ruling.condition, reason)
        case OverrideOutcome():
            return (_override(state, ruling, reason),)
        case _:
            assert_never(ruling)


def _set_value(state: State, ruling: SetValue, reason: str) -> tuple[Event, ...]:
    target = combatant(state, ruling.combatant)
    field, value = ruling.field, ruling.value
    previous: int | None
    if field == "hp":
        previous = target.hp
        if value < 0 and not state.options.allow_negative_hp:
            raise RuleViolation(f"hit points cannot go below 0 in this encounter, not {value}")
    elif field == "max_hp":
        previous = target.max_hp
        if value < 1:
            raise RuleViolation(f"maximum hit points must be at least 1, not {value}")
    elif field == "initiative":
        entry = next((e for e in state.order if e.combatant == target.id), None)
        previous = None if entry is None else entry.total
    elif field.startswith("stat:"):
        stat = field.removeprefix("stat:")
        check_stat_name(stat)
        previous = target.stats.get(stat)
    else:
        raise RuleViolation(f"'{field}' cannot be set: use hp, max_hp, initiative or stat:<name>")
    if previous == value:
        raise RuleViolation(f"{target.name}'s {field} is already {value}")
    changed = ValueSet(
        combatant=target.id, field=field, value=value, previous=previous, reason=reason
    )
    if field != "hp":
        return (changed,)
    return (changed, *hp_consequences(state, target, value))


def _override(state: State, ruling: OverrideOutcome, reason: str) -> OutcomeOverridden:
    recent = next((o for o in state.outcomes if o.roll_id == ruling.roll_id), None)
    if recent is None:
        raise RuleViolation(
            f"roll {ruling.roll_id} is not one of the last {RECENT_OUTCOMES} attack or check "
            "rolls, so its outcome cannot be overruled"
        )
    allowed = OUTCOMES[recent.kind]
    if ruling.outcome not in allowed:
        raise RuleViolation(
            f"the outcome of {recent.description} is {' or '.join(allowed)}, not '{ruling.outcome}'"
        )
    if ruling.outcome == recent.outcome:
        raise RuleViolation(f"{recent.description} is already a {recent.outcome}")
    return OutcomeOverridden(
        roll_id=recent.roll_id,
        kind=recent.kind,
        previous=recent.outcome,
        outcome=ruling.outcome,
        reason=reason,
    )
