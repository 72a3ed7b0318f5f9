"""Pool rolls of Untold Aeons: which dice a character rolls and how they are counted.

The pool is the rating on the sheet (a characteristic, a skill, a standard skill at 1)
plus or minus labelled dice: -1 while Shaken (UAE-17, UAE-A17), +2 or +2 difficulty
bought with karma (UAE-A5), Knowledge's 2 penalty dice (UAE-12), Rapid Fire's penalty
die (UAE-34). At 0 or below it is the untrained single die (UAE-10, UAE-A8). Counting
is ``service.dice.pool``.
"""

from __future__ import annotations

import msgspec

from service.dice import pool
from service.dice.model import Dice, Modifier, PoolSummary, RollRecord
from service.rulesets.untold_aeons.state import Character, State


def title(trait: str) -> str:
    return trait.replace("_", " ").title()


class PoolPlan(msgspec.Struct, frozen=True, kw_only=True):
    """The dice of one roll before it is rolled."""

    skill_dice: int
    untrained: bool
    difficulty: int
    spoken: str
    difficulty_label: str | None = None
    """The difficulty's parts as spoken, when one is named (range, a dive, karma)."""
    karma_successes: int = 0
    karma_failures: int = 0


def plan(
    state: State,
    who: Character,
    trait: str,
    *,
    difficulty: int = 0,
    difficulty_parts: tuple[tuple[str, int], ...] = (),
    penalties: tuple[tuple[str, int], ...] = (),
    label: str | None = None,
) -> PoolPlan:
    """The pool ``who`` rolls for ``trait`` against ``difficulty`` dice, with every
    modifier labelled in the spoken skill ("Firearms 3 -1 Shaken +2 karma") and, as the
    skill side's, the difficulty's named parts (``difficulty_parts``, what ``difficulty``
    is made of: "2 range (10 yards) +2 dive for cover +2 karma")."""
    named = list(difficulty_parts) or ([("", difficulty)] if difficulty else [])
    rating = who.rating(trait) or 0
    parts = [f"{label or title(trait)} {rating}"]
    dice = rating
    for name, value in penalties:
        dice -= value
        parts.append(f"-{value} {name}")
    if who.shaken:
        dice -= 1
        parts.append("-1 Shaken")
    boost = state.boosts.get(who.id)
    karma_successes = karma_failures = 0
    if boost is not None:
        if state.options.karma_bonus_unit == "dice":
            if boost.skill:
                dice += boost.skill
                parts.append(f"+{boost.skill} karma")
            difficulty += boost.difficulty
            if boost.difficulty:
                named.append(("karma", boost.difficulty))
        else:
            karma_successes, karma_failures = boost.skill, boost.difficulty
            if boost.skill:
                parts.append(f"+{boost.skill} karma successes")
            if boost.difficulty:
                named.append(("karma failures", boost.difficulty))
    untrained = dice <= 0
    return PoolPlan(
        skill_dice=1 if untrained else dice,
        untrained=untrained,
        difficulty=max(0, difficulty),
        spoken=" ".join(parts),
        difficulty_label=spoken_parts(named),
        karma_successes=karma_successes,
        karma_failures=karma_failures,
    )


def spoken_parts(parts: list[tuple[str, int]]) -> str | None:
    """ "2 range (10 yards, weapon range 20) +1 moving target +2 karma"; None when no
    part is named (a bare difficulty says all there is in its number)."""
    if not any(label for label, _ in parts):
        return None
    words = [f"{value:+d} {label}".rstrip() for label, value in parts]
    words[0] = words[0].removeprefix("+")
    return " ".join(words)


def roll(
    dice: Dice,
    who: Character,
    p: PoolPlan,
    *,
    purpose: str,
    opposed: bool = False,
    skill_only: bool = False,
) -> RollRecord:
    """Roll the plan: skill dice then difficulty dice in one record (or only the skill
    dice, for a behind-the-screen check)."""
    if isinstance(dice, Replay):
        return dice.pool_roll(who, p, purpose=purpose, opposed=opposed)
    return _fresh(dice, who, p, purpose=purpose, opposed=opposed, skill_only=skill_only)


def _fresh(
    dice: Dice, who: Character, p: PoolPlan, *, purpose: str, opposed: bool, skill_only: bool
) -> RollRecord:
    difficulty = 0 if skill_only else p.difficulty
    record = dice.roll(pool.notation(p.skill_dice, difficulty), purpose=purpose, roller=who.id)
    record = pool.mark(
        record,
        skill_dice=p.skill_dice,
        skill=p.spoken,
        untrained=p.untrained,
        opposed=opposed or skill_only,
        difficulty_label=None if skill_only else p.difficulty_label,
    )
    return with_karma_counts(record, p)


def with_karma_counts(record: RollRecord, p: PoolPlan) -> RollRecord:
    """karma_bonus_unit = successes: +2 successes (or failures) on the count."""
    summary = record.pool
    if summary is None or not (p.karma_successes or p.karma_failures):
        return record
    successes = summary.successes + p.karma_successes
    failures = summary.failures + p.karma_failures
    summary = msgspec.structs.replace(
        summary,
        successes=successes,
        failures=failures,
        net_successes=max(0, successes - failures),
        net_failures=max(0, failures - successes),
        succeeded=None if summary.succeeded is None else successes > failures,
    )
    return msgspec.structs.replace(
        record,
        pool=summary,
        successes=successes,
        total=successes - failures,
        outcome=None if summary.succeeded is None else pool.result_words(summary),
    )


def score(summary: PoolSummary) -> int:
    """An opposed side's successes, less failures of its own difficulty dice (UAE-A4)."""
    return max(0, summary.successes - summary.failures)


def summary_of(record: RollRecord) -> PoolSummary:
    assert record.pool is not None
    return record.pool


def over(state: State, value: int, threshold: int) -> bool:
    """Above a limit, by threshold_compare (UAE-A3)."""
    if state.options.threshold_compare == "ge":
        return value >= threshold
    return value > threshold


class Replay:
    """Dice for deciding a roll again after a karma reroll (UAE-A6).

    Each pool roll asked for is matched with the first unused roll of ``records`` by the
    same roller, for the same purpose, with the same dice. The rerolled one
    (``rerolled``) rolls its skill dice again from ``dice`` and keeps its difficulty
    dice; any other match is kept as it was; a roll with no match (a check the new result
    asks for) is rolled from ``dice``. ``new`` collects the rolls made now.
    """

    def __init__(self, dice: Dice, records: tuple[RollRecord, ...], rerolled: str) -> None:
        self.dice = dice
        self.left = list(records)
        self.rerolled = rerolled
        self.new: list[str] = []
        self.sequence: list[str] = []

    def roll(
        self,
        notation: str,
        *,
        purpose: str,
        roller: str | None = None,
        modifiers: tuple[Modifier, ...] = (),
        target: int | None = None,
    ) -> RollRecord:
        record = self.dice.roll(
            notation, purpose=purpose, roller=roller, modifiers=modifiers, target=target
        )
        self.new.append(record.roll_id)
        self.sequence.append(record.roll_id)
        return record

    def no_roll(self, why: str, *, rule: str) -> None:
        self.dice.no_roll(why, rule=rule)

    def pool_roll(self, who: Character, p: PoolPlan, *, purpose: str, opposed: bool) -> RollRecord:
        notation = pool.notation(p.skill_dice, p.difficulty)
        match = next(
            (
                r
                for r in self.left
                if r.roller == who.id and r.purpose == purpose and r.notation == notation
            ),
            None,
        )
        if match is None:
            return _fresh(self, who, p, purpose=purpose, opposed=opposed, skill_only=False)
        self.left.remove(match)
        if match.roll_id != self.rerolled:
            self.sequence.append(match.roll_id)
            return match
        record = self.roll(pool.notation(p.skill_dice, 0), purpose=purpose, roller=who.id)
        record = pool.mark(
            record,
            skill_dice=p.skill_dice,
            skill=p.spoken,
            untrained=p.untrained,
            opposed=opposed,
            other_difficulty=[d.face for d in match.dice if d.pool == "difficulty"],
            difficulty_label=p.difficulty_label,
        )
        return with_karma_counts(record, p)
