"""Narrator rulings: the table's word where the text is silent or leaves it to the
Narrator (effects of Advantages and Drawbacks, phobias and manias, prone, cover, a
value set by hand), each an event with its reason."""

from __future__ import annotations

from typing import cast

from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.commands import Effect, Rule, SetCondition, SetStatus, SetValue
from service.rulesets.untold_aeons.rules import character
from service.rulesets.untold_aeons.state import State, Status


def rule(state: State, command: Rule) -> tuple[ev.Event, ...]:
    reason = command.reason.strip()
    if not reason:
        raise RuleViolation("a ruling needs a reason")
    ruling = command.ruling
    if isinstance(ruling, SetValue):
        return (_set_value(state, ruling, reason),)
    if isinstance(ruling, SetCondition):
        who = character(state, ruling.character)
        if who.has(ruling.condition) == ruling.on:
            state_word = "already" if ruling.on else "not"
            raise RuleViolation(f"{who.name} is {state_word} {ruling.condition.replace('_', ' ')}")
        return (
            ev.ConditionSet(
                character=who.id, condition=ruling.condition, on=ruling.on, reason=reason
            ),
        )
    if isinstance(ruling, SetStatus):
        who = character(state, ruling.character)
        if ruling.status in ("shaken", "not_shaken"):
            shaken = ruling.status == "shaken"
            if who.shaken == shaken:
                raise RuleViolation(f"{who.name} is {'already' if shaken else 'not'} Shaken")
            return (
                ev.StatusSet(character=who.id, status=who.status, shaken=shaken, reason=reason),
            )
        status = cast(Status, ruling.status)
        if who.status == status:
            raise RuleViolation(f"{who.name} is already {status.replace('_', ' ')}")
        return (ev.StatusSet(character=who.id, status=status, shaken=who.shaken, reason=reason),)
    assert isinstance(ruling, Effect)
    who = character(state, ruling.character)
    return (ev.EffectRuled(character=who.id, effect=ruling.effect.strip(), reason=reason),)


def _set_value(state: State, ruling: SetValue, reason: str) -> ev.ValueSet:
    if ruling.field in ("karma_players", "karma_narrator"):
        previous = getattr(state, ruling.field)
        if previous == ruling.value:
            raise RuleViolation(f"{ruling.field.replace('_', ' ')} is already {ruling.value}")
        return ev.ValueSet(
            character=None,
            field=ruling.field,
            value=ruling.value,
            previous=previous,
            reason=reason,
        )
    if ruling.character is None:
        raise RuleViolation(f"setting {ruling.field} needs a character")
    who = character(state, ruling.character)
    previous = int(getattr(who, ruling.field))
    if previous == ruling.value:
        raise RuleViolation(f"{who.name}'s {ruling.field} is already {ruling.value}")
    shaken = None
    if ruling.field == "stress" and who.shaken and ruling.value < who.stress_limit:
        shaken = False  # UAE-17: Shaken lasts until stress is below the limit
    return ev.ValueSet(
        character=who.id,
        field=ruling.field,
        value=ruling.value,
        previous=previous,
        shaken_after=shaken,
        reason=reason,
    )
