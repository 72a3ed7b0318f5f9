"""Karma "reroll dice" (UAE-04, UAE-A6) on a roll with consequences.

A player's karma rerolls the character's last roll still open to a reroll: a called
check (``mind.reroll_check``), or one of the rolls of the last attack (the attacker's
roll, the defender's Dodge / Defend / Fight Back roll), sanity check, daily recovery or
check above a limit, with the checks that followed it (``state.OpenRolls``). Those rolls
stay open until anything else happens at the table: a reroll replaces consequences only
while nothing has been built on them. A character out of the fight (Severely Injured,
broken, even dead by the save) may still reroll the check that put them there. Rolls
made behind the screen (a hidden command) are not rerolled: a reroll would show them.

The reroll rolls the character's own dice of that roll again, once per character; the
difficulty dice and every other roll are kept. The same thing is then decided again from
the state before the roll (``combat.resolve``, ``sanity.sanity_check``,
``sanity.daily_recovery``, ``limits.wound_checks`` / ``stress_checks`` with
``rolls.Replay`` as the dice), so the hit, the damage, the stress and the checks that
follow come out of the same code as the first time. A check the new result asks for
again unchanged (same roller, purpose and dice) keeps its dice; a check it asks for
anew (other difficulty, or no check before) is rolled now. One ``RollRerolled`` event
carries the new rolls, what is decided now and every character's values after it
(correcting what the first result set).
"""

from __future__ import annotations

from functools import reduce

from service.dice.model import Dice, RollRecord
from service.ruleset import RuleViolation, rolls_of
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import mind, sanity
from service.rulesets.untold_aeons.combat import resolve
from service.rulesets.untold_aeons.commands import DailyRecovery, SanityCheck
from service.rulesets.untold_aeons.evolve import evolve
from service.rulesets.untold_aeons.limits import stress_checks, wound_checks
from service.rulesets.untold_aeons.rolls import Replay
from service.rulesets.untold_aeons.rules import able, character
from service.rulesets.untold_aeons.state import Character, OpenRolls, State


def reroll(state: State, spender: str, dice: Dice) -> ev.Event:
    """The reroll event for ``spender``'s last roll open to a reroll (UAE-A6)."""
    who = character(state, spender)
    batch = state.open_rolls
    own = [r for r in batch.records if r.roller == who.id] if batch is not None else []
    if batch is None or not own:
        return mind.reroll_check(state, able(state, spender), dice)
    if who.id in batch.rerolled_by:
        raise RuleViolation(
            f"{who.name}'s {own[-1].purpose} has been rerolled once: the new result stands",
            rule="UAE-A6",
        )
    if any(r.hidden for r in batch.records):
        raise RuleViolation(
            f"{who.name}'s {own[-1].purpose} was rolled behind the screen: the dice are the "
            "Narrator's secret (a reroll would reveal them); the Narrator can rule instead",
            rule="UAE-11",
        )
    return _reroll(state, batch, who, own[-1], dice)


def _reroll(
    state: State, batch: OpenRolls, who: Character, target: RollRecord, dice: Dice
) -> ev.RollRerolled:
    replay = Replay(dice, batch.records, target.roll_id)
    before = batch.before
    events = _decide_again(batch, replay)
    after = reduce(evolve, events, before)
    new = [r for e in events for r in rolls_of(e) if r.roll_id in replay.new]
    touched = {
        c
        for c, was in before.characters.items()
        if was != after.characters[c] or was != state.characters[c]
    }
    return ev.RollRerolled(
        character=who.id,
        label=target.purpose,
        replaced=target.roll_id,
        result=_result(events, after),
        sequence=tuple(replay.sequence),
        after=tuple(_values(after.characters[c]) for c in sorted(touched)),
        rolls=tuple(new),
    )


def _decide_again(batch: OpenRolls, dice: Replay) -> tuple[ev.Event, ...]:
    before = batch.before
    match batch.kind:
        case "attack":
            assert before.pending is not None
            return resolve(before, before.pending, batch.response, batch.back_weapon, dice)
        case "sanity":
            command = SanityCheck(
                character=batch.character,
                cause=batch.cause,
                difficulty=batch.difficulty,
                category=batch.category,
            )
            return sanity.sanity_check(before, command, dice)
        case "recovery":
            return sanity.daily_recovery(
                before, DailyRecovery(character=batch.character, track=batch.track), dice
            )
        case "limit":
            who = before.characters[batch.character]
            checks = wound_checks if batch.track == "wounds" else stress_checks
            return tuple(checks(before, who, dice))


def _values(c: Character) -> ev.CharacterAfter:
    return ev.CharacterAfter(
        character=c.id,
        damage=c.damage,
        stress=c.stress,
        shaken=c.shaken,
        status=c.status,
        conditions=c.conditions,
        hardened=dict(c.hardened),
    )


def _result(events: tuple[ev.Event, ...], after: State) -> str:
    """What the roll decides now, in words."""
    words: list[str] = []
    for e in events:
        name = after.characters
        match e:
            case ev.AttackResolved():
                taken = sum(h.taken for h in e.hits)
                struck = f": {name[e.struck].name} takes {taken}" if e.struck else ""
                words.append(f"{e.result.replace('_', ' ')}{struck}")
            case ev.SanityChecked():
                verdict = "success" if e.succeeded else "failure"
                words.append(f"{verdict}: {name[e.character].name} gains {e.gained} stress")
            case ev.Recovered():
                words.append(f"{name[e.character].name} recovers {e.amount}")
            case ev.LimitChecked():
                verdict = "passed" if e.passed else "failed"
                words.append(f"{name[e.character].name}'s {e.track} check {verdict}")
            case ev.NotchGained():
                words.append(f"{name[e.character].name} gains a hardened notch")
    return "; ".join(words) or "no change"
