"""Called checks (in the open or with the difficulty behind the screen), sanity checks
and stress, daily recovery, karma and advancement."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from service.dice import pool
from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import rolls
from service.rulesets.untold_aeons.commands import (
    Advance,
    CallCheck,
    DailyRecovery,
    RollCheck,
    RollDifficulty,
    SanityCheck,
    SpendKarma,
)
from service.rulesets.untold_aeons.limits import spent, stress_checks
from service.rulesets.untold_aeons.rules import able, character
from service.rulesets.untold_aeons.state import CHARACTERISTICS, CalledCheck, Character, State


def call_check(state: State, command: CallCheck) -> tuple[ev.Event, ...]:
    who = able(state, command.character)
    if command.character in state.called:
        raise RuleViolation(f"{who.name} already has a check to roll")
    trait, knowledge_for = command.trait, None
    if command.use_knowledge:
        if command.trait in who.skills:
            raise RuleViolation(
                f"{who.name} has {rolls.title(command.trait)}: roll it instead", rule="UAE-12"
            )
        trait, knowledge_for = "knowledge", command.trait
    if command.behind_screen and command.difficulty == 0:
        raise RuleViolation(
            "a difficulty-0 check has no difficulty dice to roll behind the screen",
            rule="UAE-11",
        )
    return (
        ev.CheckCalled(
            character=who.id,
            label=command.label,
            trait=trait,
            knowledge_for=knowledge_for,
            difficulty=command.difficulty,
            behind_screen=command.behind_screen,
        ),
    )


def _plan(state: State, who: Character, called: CalledCheck) -> rolls.PoolPlan:
    penalties: tuple[tuple[str, int], ...] = ()
    if called.knowledge_for:
        penalties = ((f"for {rolls.title(called.knowledge_for)}", 2),)
    return rolls.plan(state, who, called.trait, difficulty=called.difficulty, penalties=penalties)


def roll_check(state: State, command: RollCheck, dice: Dice) -> tuple[ev.Event, ...]:
    who = able(state, command.character)
    called = state.called.get(who.id)
    if called is None:
        raise RuleViolation(f"the Narrator has not called for a check from {who.name}")
    if called.skill_roll is not None:
        raise RuleViolation(
            f"{who.name} has rolled; the Narrator rolls the difficulty dice behind the screen",
            rule="UAE-11",
        )
    plan = _plan(state, who, called)
    if called.behind_screen:
        record = rolls.roll(dice, who, plan, purpose=called.label, skill_only=True)
        return (
            ev.SkillDiceRolled(
                character=who.id, label=called.label, difficulty=plan.difficulty, rolls=(record,)
            ),
        )
    record = rolls.roll(dice, who, plan, purpose=called.label)
    return (
        ev.CheckRolled(
            character=who.id,
            label=called.label,
            succeeded=bool(rolls.summary_of(record).succeeded),
            rolls=(record,),
        ),
    )


def roll_difficulty(state: State, command: RollDifficulty, dice: Dice) -> tuple[ev.Event, ...]:
    who = character(state, command.character)
    called = state.called.get(who.id)
    if called is None or not called.behind_screen:
        raise RuleViolation(
            f"{who.name} has no check with its difficulty behind the screen", rule="UAE-11"
        )
    if called.skill_roll is None:
        raise RuleViolation(f"{who.name} has not rolled the skill dice yet", rule="UAE-11")
    record = dice.roll(pool.notation(0, called.difficulty), purpose=called.label, roller=None)
    record = pool.mark(
        record,
        skill_dice=0,
        skill=called.spoken,
        untrained=called.untrained,
        other_skill=called.skill_faces,
        skill_roll=called.skill_roll,
    )
    return (ev.DifficultyRolled(character=who.id, label=called.label, rolls=(record,)),)


def reroll_check(state: State, who: Character, dice: Dice) -> ev.CheckRerolled:
    """UAE-A6 on a called check: the character's own dice again, the difficulty kept."""
    last = state.last_check.get(who.id)
    if last is None:
        raise RuleViolation(
            f"{who.name} has no roll of their own to reroll: karma rerolls the dice of a "
            "roll just made, before anything else happens",
            rule="UAE-A6",
        )
    if last.rerolled:
        raise RuleViolation(
            f"{who.name}'s {last.label} has been rerolled once: the new result stands",
            rule="UAE-A6",
        )
    record = dice.roll(pool.notation(last.skill_dice, 0), purpose=last.label, roller=who.id)
    record = pool.mark(
        record,
        skill_dice=last.skill_dice,
        skill=last.spoken,
        untrained=last.untrained,
        other_difficulty=last.difficulty_faces,
    )
    return ev.CheckRerolled(
        character=who.id,
        label=last.label,
        succeeded=bool(rolls.summary_of(record).succeeded),
        rolls=(record,),
    )


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
        )
    ]
    after = msgspec.structs.replace(who, stress=stress)
    checks = stress_checks(state, after, dice) if gained else []
    events.extend(checks)
    shaken = checks[0].shaken_after if checks else who.shaken
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


PLAYER_USES = ("reroll", "bonus", "difficulty", "deus_ex_machina")
NARRATOR_USES = ("trigger", "bonus", "difficulty")


Reroller = Callable[[State, str, Dice], ev.Event]
"""``reroll.reroll``: the reroll event for a spender's last roll open to a reroll."""


def spend_karma(
    state: State, command: SpendKarma, dice: Dice, reroller: Reroller
) -> tuple[ev.Event, ...]:
    if command.by is not None:
        spender = character(state, command.by)
        if not spender.pc:
            raise RuleViolation(
                f"{spender.name} is not an investigator: NPCs' karma is the Narrator's pool "
                "(by: null)",
                rule="UAE-03",
            )
        if command.use not in PLAYER_USES:
            raise RuleViolation(
                "triggering a hallucination, phobia or mania is the Narrator's use of karma",
                rule="UAE-05",
            )
        if state.karma_players == 0:
            raise RuleViolation("the players' karma pool is empty", rule="UAE-A7")
    else:
        if command.use not in NARRATOR_USES:
            raise RuleViolation(
                "rerolls and deus ex machina are the players' uses of karma", rule="UAE-04"
            )
        if state.karma_narrator == 0:
            raise RuleViolation("the Narrator's karma pool is empty", rule="UAE-A7")
    target = (
        character(state, command.target or command.by or "")
        if (command.target or command.by)
        else None
    )
    if command.use in ("bonus", "difficulty", "trigger") and target is None:
        raise RuleViolation("name the character whose roll this is for (target)")
    if target is not None and target.status == "dead" and command.use != "reroll":
        raise RuleViolation(f"{target.name} is dead")
    if command.use == "difficulty" and target is not None:
        if command.by is not None and target.pc:
            raise RuleViolation(
                "a player's karma adds +2 difficulty to an NPC's roll, not an investigator's",
                rule="UAE-04",
            )
        if command.by is None and not target.pc:
            raise RuleViolation(
                "the Narrator's karma adds +2 difficulty to a player's roll, not an NPC's",
                rule="UAE-05",
            )
    if command.use == "bonus" and command.by is None and target is not None and target.pc:
        raise RuleViolation(
            "the Narrator's karma gives +2 to an NPC's roll, not an investigator's",
            rule="UAE-05",
        )
    if command.use in ("deus_ex_machina", "trigger") and not command.note.strip():
        raise RuleViolation("say what it is (note): the Narrator rules on it", rule="UAE-04")
    rerolled = None
    if command.use == "reroll":
        assert command.by is not None
        rerolled = reroller(state, command.by, dice)
    players = state.karma_players + (-1 if command.by is not None else 1)
    narrator = state.karma_narrator + (1 if command.by is not None else -1)
    spentevent = ev.KarmaSpent(
        by=command.by,
        pool="players" if command.by is not None else "narrator",
        use=command.use,
        target=target.id if target is not None else None,
        note=command.note.strip(),
        karma_players=players,
        karma_narrator=narrator,
    )
    return (spentevent, rerolled) if rerolled is not None else (spentevent,)


def advance(state: State, command: Advance) -> tuple[ev.Event, ...]:
    who = character(state, command.character)
    trait = command.trait
    rating = who.rating(trait)
    source = command.source.strip()
    if trait in CHARACTERISTICS:
        assert rating is not None
        cost = state.options.characteristic_xp_factor * rating
    elif rating is None:
        if not source:
            raise RuleViolation(
                f"learning {rolls.title(trait)} needs a source (a teacher, books ...)",
                rule="UAE-13",
            )
        rating, cost = 0, 20
    else:
        cost = 10 * rating
    if rating >= 5:
        raise RuleViolation(f"{who.name}'s {rolls.title(trait)} is already 5", rule="UAE-13")
    if who.xp < cost:
        raise RuleViolation(
            f"{who.name} has {who.xp} xp; raising {rolls.title(trait)} from {rating} costs {cost}",
            rule="UAE-13",
        )
    return (
        ev.Advanced(
            character=who.id,
            trait=trait,
            previous=rating,
            value=rating + 1,
            cost=cost,
            xp_after=who.xp - cost,
            source=source,
        ),
    )
