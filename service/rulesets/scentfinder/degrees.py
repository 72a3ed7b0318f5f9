"""A pending test's degree: entered by the GM (``resolve``) or rolled under the house rule
(``roll_test``), then applied by the degree lines of its action's family (``outcome``).
"""

from __future__ import annotations

from msgspec.structs import replace

from service.dice.model import Dice, Modifier
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder import (
    outcomes_attacks,
    outcomes_movement,
    outcomes_spells,
    outcomes_support,
)
from service.rulesets.scentfinder.action_helpers import Resolution, no_pending
from service.rulesets.scentfinder.commands import Resolve, RollTest
from service.rulesets.scentfinder.fields import ACTIONS, DEGREE_WORD, Degree
from service.rulesets.scentfinder.in_force import in_force
from service.rulesets.scentfinder.rules import Builder
from service.rulesets.scentfinder.state import Pending, State

_APPLY = {
    action: family.apply
    for family in (outcomes_attacks, outcomes_movement, outcomes_spells, outcomes_support)
    for action in family.APPLIED
}
"""Each tested action's degree lines; any other action's are ``outcomes_support.apply``'s."""


def resolve(state: State, command: Resolve, dice: Dice) -> tuple[ev.Event, ...]:
    p = state.pending
    if p is None:
        raise RuleViolation("There is no test waiting for a degree")
    if p.kind == "hazard":
        no_pending(state)
    b = Builder(state)
    outcome(b, p, command, dice)
    return b.done()


def roll_test(state: State, command: RollTest, dice: Dice) -> tuple[ev.Event, ...]:
    """The optional house-rule resolver (off by default; not the text's, SCF-A1)."""
    options = state.options
    if options.degree_input != "house_dice":
        raise RuleViolation(
            "Tests are resolved by the degree the GM enters; the dice resolver is a house "
            "rule that is off in this encounter (degree_input, SCF-A1)"
        )
    p = state.pending
    if p is None:
        raise RuleViolation("There is no test waiting for a degree")
    if p.kind == "hazard":
        no_pending(state)
    modifiers = (Modifier(label=p.skill or "bonus", value=command.bonus),) if command.bonus else ()
    record = dice.roll(
        options.house_dice,
        purpose=f"{ACTIONS[p.action].title} test (house rule)",
        roller=p.actor,
        modifiers=modifiers,
        target=command.target,
    )
    margin = options.house_triumph_margin
    degree: Degree
    if record.total >= command.target + margin:
        degree = "triumph"
    elif record.total >= command.target:
        degree = "success"
    elif record.total <= command.target - margin:
        degree = "bungle"
    else:
        degree = "failure"
    record = replace(record, outcome=degree)
    b = Builder(state)
    resolve_with = Resolve(
        degree=degree,
        choice=command.choice,
        area=command.area,
        instances=command.instances,
        extra_action=command.extra_action,
        note=command.note,
    )
    outcome(b, p, resolve_with, dice)
    events = list(b.done())
    for i, event in enumerate(events):
        if isinstance(event, ev.ActionResolved):
            events[i] = replace(event, rolls=(record, *event.rolls))
            break
    return tuple(events)


def outcome(b: Builder, p: Pending, command: Resolve, dice: Dice) -> None:
    """Apply the degree line of the pending action (SCF-01)."""
    state = b.state
    degree = command.degree
    action = p.action
    spec = ACTIONS[action]
    actor = b.who(p.actor)
    target = b.state.combatants.get(p.target or "")
    index = ("triumph", "success", "failure", "bungle").index(degree)
    line = spec.lines[index]
    forced = (
        in_force(state, actor, action, target=target, weapon=p.weapon, area=p.area, skill=p.skill)
        if p.kind == "test"
        else ()
    )
    first = len(b.events)

    for c in actor.conditions:
        if c.expiry == "next_roll":
            b.emit(ev.ConditionRemoved(bearer=actor.id, condition=c.id, reason="the roll was made"))

    dice.no_roll(
        f"a test is resolved by the degree the GM enters, and the {DEGREE_WORD[degree]} line "
        f"of {spec.title} rolls no die ({'no effect' if line == '¤' else line})",
        rule="SCF-01",
    )
    resolution = Resolution(b, p, command, dice, state, actor, target, line)
    _APPLY.get(action, outcomes_support.apply)(resolution)
    if forced:
        # Not folded by evolve, so the event can be completed once the line is applied.
        for i in range(first, len(b.events)):
            event = b.events[i]
            if isinstance(event, ev.ActionResolved) and event.actor == actor.id:
                b.events[i] = replace(event, in_force=forced)
                break
