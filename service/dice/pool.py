"""Dice pools: a skill pool of d6 against a difficulty pool of d6, counted not added.

Pure functions over faces and roll records; no randomness of its own.  A ruleset rolls
the dice with ``Dice.roll("3d6+2d6", ...)`` (or the two pools as two rolls) and hands the
record to ``mark``, which labels every die with its pool and what it counted for and
attaches a ``PoolSummary``.  The faces and their order are never changed, so a server
roll still verifies against its seed.

Counting (both pools alike): a 5 is one, a 6 two (successes on skill dice, failures on
difficulty dice).  A 1 on a skill die is an Advantage, on a difficulty die a Drawback.
Successes cancel failures and Advantages cancel Drawbacks one for one; the check
succeeds with more successes than failures, so a tie fails.  Skill 0 ("untrained"): one
skill die that gives a single success on a 6 and nothing else, not even an Advantage on
a 1; its difficulty dice count as usual.

``speak`` says a pool roll aloud:
``Mara rolls Firearms 3 against difficulty 2: 6 5 1 vs 5 2 -> 3 successes, 1 failure,
1 Advantage: success with Advantage``.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.dice.model import PoolName, PoolSummary, RollRecord


def face_value(face: int, *, untrained: bool = False) -> int:
    """Successes (or failures) one die counts: 5 -> 1, 6 -> 2; untrained: 6 -> 1."""
    if untrained:
        return 1 if face == 6 else 0
    return 2 if face == 6 else 1 if face == 5 else 0


def die_counts(face: int, pool: PoolName, *, untrained: bool = False) -> str:
    """What one die counted for, in words ("2 successes", "Drawback", "nothing")."""
    value = face_value(face, untrained=untrained and pool == "skill")
    if value:
        return plural(value, "success" if pool == "skill" else "failure")
    if face == 1 and not (untrained and pool == "skill"):
        return "Advantage" if pool == "skill" else "Drawback"
    return "nothing"


def count(
    skill_faces: Sequence[int],
    difficulty_faces: Sequence[int],
    *,
    skill: str,
    untrained: bool = False,
    opposed: bool = False,
    skill_roll: str | None = None,
    apart: Sequence[int] = (),
    difficulty_label: str | None = None,
) -> PoolSummary:
    """Count two pools.  ``opposed``: a pool with no difficulty side of its own (an
    opposed melee roll): ``succeeded`` is left None for the caller to compare."""
    successes = sum(face_value(f, untrained=untrained) for f in skill_faces)
    failures = sum(face_value(f) for f in difficulty_faces)
    advantages = 0 if untrained else sum(1 for f in skill_faces if f == 1)
    drawbacks = sum(1 for f in difficulty_faces if f == 1)
    return PoolSummary(
        skill=skill,
        skill_dice=len(skill_faces),
        difficulty_dice=len(difficulty_faces),
        untrained=untrained,
        successes=successes,
        failures=failures,
        advantages=advantages,
        drawbacks=drawbacks,
        net_successes=max(0, successes - failures),
        net_failures=max(0, failures - successes),
        net_advantages=max(0, advantages - drawbacks),
        net_drawbacks=max(0, drawbacks - advantages),
        succeeded=None if opposed else successes > failures,
        skill_roll=skill_roll,
        apart=tuple(apart),
        difficulty_label=difficulty_label,
    )


def mark(
    record: RollRecord,
    *,
    skill_dice: int,
    skill: str,
    untrained: bool = False,
    opposed: bool = False,
    other_skill: Sequence[int] = (),
    other_difficulty: Sequence[int] = (),
    skill_roll: str | None = None,
    difficulty_label: str | None = None,
) -> RollRecord:
    """``record`` with its first ``skill_dice`` dice labelled skill dice, the rest
    difficulty dice, and the pool summary attached; ``total`` is successes minus
    failures, ``successes`` the successes before cancelling, ``outcome`` the spoken
    result (unless ``opposed``).

    ``other_skill`` / ``other_difficulty``: faces of the same check rolled apart and
    counted with this record: the skill dice a player rolled before the Narrator's
    difficulty dice behind the screen (``skill_roll`` names that roll), or the
    difficulty dice kept by a reroll of the skill dice.  ``difficulty_label``: the
    difficulty's parts as spoken, shown after its number.
    """
    faces = [d.face for d in record.dice]
    dice = tuple(
        msgspec.structs.replace(
            die,
            pool=(pool := _pool_of(i, skill_dice)),
            counts=die_counts(die.face, pool, untrained=untrained),
        )
        for i, die in enumerate(record.dice)
    )
    summary = count(
        [*other_skill, *faces[:skill_dice]],
        [*faces[skill_dice:], *other_difficulty],
        skill=skill,
        untrained=untrained,
        opposed=opposed,
        skill_roll=skill_roll,
        apart=(*other_skill, *other_difficulty),
        difficulty_label=difficulty_label,
    )
    return msgspec.structs.replace(
        record,
        dice=dice,
        pool=summary,
        total=summary.successes - summary.failures,
        successes=summary.successes,
        opposed_by=skill_roll if skill_roll is not None else record.opposed_by,
        outcome=None if summary.succeeded is None else result_words(summary),
    )


def _pool_of(index: int, skill_dice: int) -> PoolName:
    return "skill" if index < skill_dice else "difficulty"


def result_words(summary: PoolSummary) -> str:
    """ "success with Advantage", "failure with 2 Drawbacks", "failure" ..."""
    word = "success" if summary.succeeded else "failure"
    return word + extras(summary)


def extras(summary: PoolSummary) -> str:
    if summary.net_advantages:
        n = summary.net_advantages
        return " with Advantage" if n == 1 else f" with {n} Advantages"
    if summary.net_drawbacks:
        n = summary.net_drawbacks
        return " with Drawback" if n == 1 else f" with {n} Drawbacks"
    return ""


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"1 {word}"
    return f"{n} {word}es" if word.endswith("s") else f"{n} {word}s"


def tally(summary: PoolSummary) -> str:
    """ "3 successes, 1 failure, 1 Advantage" (successes and failures before cancelling,
    Advantages or Drawbacks after); Advantages and Drawbacks that cancelled are still
    named ("1 Advantage and 1 Drawback cancel")."""
    parts = [plural(summary.successes, "success")]
    if summary.difficulty_dice:
        parts.append(plural(summary.failures, "failure"))
    if summary.advantages and summary.drawbacks:
        both = (
            f"{plural(summary.advantages, 'Advantage')} and {plural(summary.drawbacks, 'Drawback')}"
        )
        if summary.net_advantages:
            parts.append(f"{both}: {plural(summary.net_advantages, 'Advantage')} left")
        elif summary.net_drawbacks:
            parts.append(f"{both}: {plural(summary.net_drawbacks, 'Drawback')} left")
        else:
            parts.append(f"{both} cancel")
    elif summary.net_advantages:
        parts.append(plural(summary.net_advantages, "Advantage"))
    elif summary.net_drawbacks:
        parts.append(plural(summary.net_drawbacks, "Drawback"))
    return ", ".join(parts)


def speak(record: RollRecord, *, name: str | None = None) -> str:
    """The spoken line of a pool roll (see the module docstring); for a record without
    a pool summary, an empty string."""
    summary = record.pool
    if summary is None:
        return ""
    who = name or record.roller or "The Narrator"
    skill = " ".join(str(d.face) for d in record.dice if d.pool == "skill")
    difficulty = " ".join(str(d.face) for d in record.dice if d.pool == "difficulty")
    purpose = f" for {record.purpose}" if record.purpose else ""
    if summary.skill_roll is not None:
        rolled = " ".join(str(f) for f in summary.apart)
        line = (
            f"{who} rolls {summary.difficulty_dice} difficulty dice"
            + (f" ({summary.difficulty_label})" if summary.difficulty_label else "")
            + f"{purpose} against "
            f"{summary.skill} (roll {summary.skill_roll}: {rolled}): {difficulty or '-'} -> "
        )
    else:
        against = (
            f" against difficulty {summary.difficulty_dice}" if summary.difficulty_dice else ""
        )
        if summary.difficulty_label:
            against = f" against difficulty {summary.difficulty_dice} = {summary.difficulty_label}"
        untrained = " (untrained)" if summary.untrained else ""
        if summary.apart:
            kept = " ".join(str(f) for f in summary.apart)
            difficulty = f"{difficulty} {kept}".strip() + " (kept)"
        faces = skill + (f" vs {difficulty}" if difficulty else "")
        line = f"{who} rolls {summary.skill}{untrained}{against}{purpose}: {faces} -> "
    line += tally(summary)
    if record.outcome:
        line += f": {record.outcome}"
    if record.source == "manual":
        line += " (manual)"
    if record.hidden:
        line += " (secret)"
    return line


def notation(skill_dice: int, difficulty_dice: int) -> str:
    """The notation of a pool roll: skill dice first, then difficulty dice."""
    parts = [f"{n}d6" for n in (skill_dice, difficulty_dice) if n > 0]
    return "+".join(parts)
