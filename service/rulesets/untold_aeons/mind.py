"""Called checks: the Narrator calls one (in the open or with the difficulty behind the
screen), the player rolls it, the difficulty is rolled, a karma reroll of the check."""

from __future__ import annotations

from service.dice import pool
from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import rolls
from service.rulesets.untold_aeons.commands import (
    CallCheck,
    RollCheck,
    RollDifficulty,
)
from service.rulesets.untold_aeons.rules import able, character
from service.rulesets.untold_aeons.state import CalledCheck, Character, State


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
                character=who.id,
                label=called.label,
                difficulty=plan.difficulty,
                difficulty_label=plan.difficulty_label,
                rolls=(record,),
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
        difficulty_label=called.difficulty_label,
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
        difficulty_label=last.difficulty_label,
    )
    return ev.CheckRerolled(
        character=who.id,
        label=last.label,
        succeeded=bool(rolls.summary_of(record).succeeded),
        rolls=(record,),
    )
