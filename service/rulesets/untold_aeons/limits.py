"""The checks above a limit, and a karma boost used by a roll.

The checks (UAE-16, UAE-18, UAE-21, UAE-23, UAE-A14) follow every damage and every
stress gain: above the limit, then the save above twice the limit.
"""

from __future__ import annotations

import msgspec

from service.dice.model import Dice, RollRecord
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import rolls
from service.rulesets.untold_aeons.state import Character, State, Status


def spent(state: State, ident: str) -> State:
    """The state once ``ident``'s karma boost is used by a roll (evolve does the same
    for every pool roll of an event)."""
    if ident not in state.boosts:
        return state
    return msgspec.structs.replace(
        state, boosts={k: v for k, v in state.boosts.items() if k != ident}
    )


def wound_checks(state: State, who: Character, dice: Dice) -> list[ev.LimitChecked]:
    """After damage (``who.damage`` is the total after it), UAE-A14 order: the Severely
    Injured check above the limit unless already Severely Injured, then the death save
    above twice the limit (again on every further damage)."""
    out: list[ev.LimitChecked] = []
    limit = who.wound_limit
    status: Status = who.status
    if status in ("active", "broken") and rolls.over(state, who.damage, limit):
        record, passed = _limit_roll(
            state,
            who,
            "toughness",
            who.damage - limit,
            dice,
            f"{who.name}'s wound check above the limit",
        )
        state = spent(state, who.id)
        status = status if passed else "severely_injured"
        out.append(
            _checked(who, "wounds", "limit", who.damage, limit, record, passed, status, who.shaken)
        )
    if status != "dead" and rolls.over(state, who.damage, 2 * limit):
        record, passed = _limit_roll(
            state, who, "toughness", who.damage - 2 * limit, dice, f"{who.name}'s save or die"
        )
        status = status if passed else "dead"
        out.append(
            _checked(
                who, "wounds", "twice", who.damage, 2 * limit, record, passed, status, who.shaken
            )
        )
    if not out:
        dice.no_roll(_no_wound_check(state, who), rule="UAE-21, UAE-A14")
    return out


def _no_wound_check(state: State, who: Character) -> str:
    """Why damage of ``who`` (the total after it) calls for no wound check."""
    if not rolls.over(state, who.damage, who.wound_limit):
        return (
            f"{who.name}'s damage ({who.damage}) is not above the wound limit "
            f"({who.wound_limit}), so no Toughness roll is made"
        )
    return (
        f"{who.name} is already Severely Injured and the damage ({who.damage}) is not above "
        f"twice the wound limit ({2 * who.wound_limit}), so no Toughness roll is made"
    )


def stress_checks(state: State, who: Character, dice: Dice) -> list[ev.LimitChecked]:
    """After stress gain (``who.stress`` is the total after it): the Intellect roll above
    the limit unless already Shaken, then the save at twice the limit."""
    out: list[ev.LimitChecked] = []
    limit = who.stress_limit
    shaken = who.shaken
    status: Status = who.status
    if not shaken and rolls.over(state, who.stress, limit):
        record, passed = _limit_roll(
            state,
            who,
            "intellect",
            who.stress - limit,
            dice,
            f"{who.name}'s Intellect roll above the stress limit",
        )
        state = spent(state, who.id)
        shaken = not passed
        who = msgspec.structs.replace(who, shaken=shaken)
        out.append(
            _checked(who, "stress", "limit", who.stress, limit, record, passed, status, shaken)
        )
    if status not in ("broken", "dead") and rolls.over(state, who.stress, 2 * limit):
        record, passed = _limit_roll(
            state,
            who,
            "intellect",
            who.stress - 2 * limit,
            dice,
            f"{who.name}'s Intellect save at twice the stress limit",
        )
        status = status if passed else "broken"
        out.append(
            _checked(who, "stress", "twice", who.stress, 2 * limit, record, passed, status, shaken)
        )
    return out


def _limit_roll(
    state: State, who: Character, trait: str, difficulty: int, dice: Dice, purpose: str
) -> tuple[RollRecord, bool]:
    plan = rolls.plan(state, who, trait, difficulty=difficulty)
    record = rolls.roll(dice, who, plan, purpose=purpose)
    return record, bool(rolls.summary_of(record).succeeded)


def _checked(
    who: Character,
    track: str,
    level: str,
    value: int,
    threshold: int,
    record: RollRecord,
    passed: bool,
    status: Status,
    shaken: bool,
) -> ev.LimitChecked:
    return ev.LimitChecked(
        character=who.id,
        track=track,  # type: ignore[arg-type]
        level=level,  # type: ignore[arg-type]
        value=value,
        threshold=threshold,
        difficulty=value - threshold,
        passed=passed,
        status_after=status,
        shaken_after=shaken,
        rolls=(record,),
    )
