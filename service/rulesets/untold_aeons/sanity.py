"""Sanity checks (stress gained past hardened levels, the stress checks that follow,
notches toward hardening) and daily recovery of stress or wounds."""

from __future__ import annotations

import msgspec

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import rolls
from service.rulesets.untold_aeons.commands import DailyRecovery, SanityCheck
from service.rulesets.untold_aeons.limits import spent, stress_checks
from service.rulesets.untold_aeons.rules import character
from service.rulesets.untold_aeons.state import State


def sanity_check(state: State, command: SanityCheck, dice: Dice) -> tuple[ev.Event, ...]:
    who = character(state, command.character)
    if who.status == "dead":
        raise RuleViolation(f"{who.name} is dead")
    plan = rolls.plan(state, who, "willpower", difficulty=command.difficulty)
    record = rolls.roll(dice, who, plan, purpose="the sanity check")
    state = spent(state, who.id)
    s = rolls.summary_of(record)
    succeeded = bool(s.succeeded)
    computed = command.difficulty + (0 if succeeded else s.failures)
    hardened = who.hardened.get(command.category)
    level = hardened.level if hardened else 0
    gained = max(0, computed - level)
    stress = who.stress + gained
    after = msgspec.structs.replace(who, stress=stress)
    checks = stress_checks(state, after, dice) if gained else []
    shaken = checks[0].shaken_after if checks else who.shaken
    events: list[ev.Event] = [
        ev.SanityChecked(
            character=who.id,
            cause=command.cause,
            category=command.category,
            difficulty=command.difficulty,
            succeeded=succeeded,
            computed=computed,
            hardened=level,
            gained=gained,
            stress_after=stress,
            rolls=(record,),
            amplified=shaken,
        )
    ]
    events.extend(checks)
    if shaken and s.net_advantages >= 1:
        notches = (hardened.notches if hardened else 0) + 1
        new_level = level + notches // 3
        events.append(
            ev.NotchGained(
                character=who.id, category=command.category, notches=notches % 3, level=new_level
            )
        )
    return tuple(events)


def daily_recovery(state: State, command: DailyRecovery, dice: Dice) -> tuple[ev.Event, ...]:
    who = character(state, command.character)
    if who.status == "dead":
        raise RuleViolation(f"{who.name} is dead")
    trait = "willpower" if command.track == "stress" else "toughness"
    current = who.stress if command.track == "stress" else who.damage
    limit = who.stress_limit if command.track == "stress" else who.wound_limit
    if current == 0:
        what = "stress" if command.track == "stress" else "wounds"
        raise RuleViolation(f"{who.name} has no {what} to recover")
    plan = rolls.plan(state, who, trait)
    word = "stress recovery" if command.track == "stress" else "natural healing"
    record = rolls.roll(dice, who, plan, purpose=f"daily {word}")
    successes = rolls.summary_of(record).successes
    halved = current > limit or (current == limit and state.options.recovery_at_limit == "halved")
    amount = min(current, successes // 2 if halved else successes)
    after = current - amount
    shaken = who.shaken and not (command.track == "stress" and after < who.stress_limit)
    return (
        ev.Recovered(
            character=who.id,
            track=command.track,
            halved=halved,
            amount=amount,
            after=after,
            shaken_after=shaken,
            rolls=(record,),
        ),
    )
