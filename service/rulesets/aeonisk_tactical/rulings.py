"""GM adjudication: the table's word over the rules, always with a reason.

Rulings fill the text's gaps (CHECKLIST 1.0, AEK-A34): a Shock's size, Stun effects,
morale, 'an opponent's action' knocking someone Prone, the Void splash, a tie the
tie-breaks cannot split.  Each becomes its own event carrying the reason.
"""

from __future__ import annotations

from typing import assert_never

from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    ClearObscurement,
    ExtraDefenceToken,
    InflictShock,
    NullifyEnergy,
    OverrideOutcome,
    SetProne,
    SetValue,
    VoidSplash,
)
from service.rulesets.aeonisk_tactical.damage import shock
from service.rulesets.aeonisk_tactical.rules import character
from service.rulesets.aeonisk_tactical.state import State


def adjudicate(state: State, command: Adjudicate) -> tuple[ev.Event, ...]:
    reason = command.reason.strip()
    if not reason:
        raise RuleViolation("a ruling needs a reason")
    ruling = command.ruling
    match ruling:
        case SetValue():
            return (_set_value(state, ruling, reason),)
        case SetProne():
            who = character(state, ruling.character)
            if who.prone == ruling.prone:
                raise RuleViolation(f"{who.name} is {'already' if who.prone else 'not'} Prone")
            return (ev.ProneChanged(character=who.id, prone=ruling.prone, reason=reason),)
        case InflictShock():
            return (shock(state, character(state, ruling.character), reason),)
        case OverrideOutcome():
            recent = next((r for r in state.recent if r.roll_id == ruling.roll_id), None)
            if recent is None:
                raise RuleViolation(f"roll {ruling.roll_id} is not a recent decided roll")
            if recent.outcome == ruling.outcome:
                raise RuleViolation(f"{recent.description} is already '{recent.outcome}'")
            return (
                ev.OutcomeOverridden(
                    roll_id=recent.roll_id,
                    previous=recent.outcome,
                    outcome=ruling.outcome,
                    reason=reason,
                ),
            )
        case NullifyEnergy():
            who = character(state, ruling.character)
            if not who.energy_bonus:
                raise RuleViolation(f"{who.name} has no Energy Hub bonus banked")
            return (ev.EnergyNullified(character=who.id, reason=reason),)
        case VoidSplash():
            splashed = [character(state, c) for c in ruling.characters]
            return tuple(
                ev.VoidChanged(character=c.id, void=min(10, c.void + 1), reason=reason)
                for c in splashed
            )
        case ExtraDefenceToken():
            who = character(state, ruling.character)
            return (ev.ExtraTokenIgnored(character=who.id, reason=reason),)
        case ClearObscurement():
            if not state.obscured:
                raise RuleViolation("nothing is obscured")
            return (ev.ObscurementCleared(reason=reason),)
        case _:
            assert_never(ruling)


def _set_value(state: State, ruling: SetValue, reason: str) -> ev.ValueSet:
    who = character(state, ruling.character)
    field = ruling.field
    previous: int | None
    if field.startswith("attribute:"):
        previous = who.attributes.get(field.removeprefix("attribute:"))
    elif field.startswith("skill:"):
        previous = who.skills.get(field.removeprefix("skill:"))
    else:
        previous = getattr(who, field)
    if previous == ruling.value:
        raise RuleViolation(f"{who.name}'s {field} is already {ruling.value}")
    return ev.ValueSet(
        character=who.id, field=field, value=ruling.value, previous=previous, reason=reason
    )
