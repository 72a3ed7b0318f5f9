"""A roll record said aloud, the way a GM announces it at the table.

``Alice rolls 1d20+5 for attack on Goblin: d20 [14] +5 notation +2 Bless = 21 vs 15: hit``

Raw dice come first, grouped by term in notation order, then each modifier with its label,
the total, the target or opposing roll, the outcome and where the faces came from.  Marks
on faces: ``(2)`` a dropped die, ``6!`` a die that exploded, ``5*`` a success.  The text
is derived only from the record, so the replay log renders the same line forever.

Every event of a rebuild that carries rolls is announced, and a table uses a handful of
notations over and over: what a line needs of a notation (each dice term's label and
sign, which terms explode) is worked out once per notation (``_reading``) rather than per
roll, which made announcing about three times cheaper.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from service.dice.model import DiceError, DieResult, RollRecord
from service.dice.notation import MAX_EXPLOSION_DICE, parse
from service.dice.pool import speak
from service.dice.roller import explosion_limit_reached


class _Reading(NamedTuple):
    """A notation's dice terms as announced: label and sign, in notation order; and
    whether any term explodes (only then can explosions have been stopped)."""

    labels: tuple[str, ...]
    negative: tuple[bool, ...]
    any_explodes: bool


_UNREADABLE = _Reading((), (), any_explodes=False)


@functools.lru_cache(maxsize=4096)
def _reading(notation: str) -> _Reading:
    try:
        terms = parse(notation).dice_terms
    except DiceError:  # a notation from an older, looser parser: still show the faces
        return _UNREADABLE
    return _Reading(
        tuple(t.label for t in terms),
        tuple(t.sign < 0 for t in terms),
        any(t.explode for t in terms),
    )


def announce(
    record: RollRecord, *, name: str | None = None, opposing: RollRecord | None = None
) -> str:
    """The full line, for the GM or once a hidden roll is revealed.

    ``name`` is the roller's display name; without it the roller id is used, or "GM".
    ``opposing`` is the roll this one is opposed by, when the caller has it: the line then
    names its total, as a table would ("= 16 vs 18"), unless that roll is still secret,
    when only its id is named (its total would give it away).
    """
    if record.pool is not None:  # a dice pool is counted, not added (service/dice/pool.py)
        return speak(record, name=name)
    who = name or record.roller or "GM"
    reading = _reading(record.notation)
    parts = _dice_parts(record, reading)
    for modifier in record.modifiers:  # a loop and a sign test: a comprehension and a
        value = modifier.value  # "+d" format spec cost twice as much
        parts.append(f"+{value} {modifier.label}" if value >= 0 else f"{value} {modifier.label}")
    if reading.any_explodes and explosion_limit_reached(record):
        parts.append(f"(explosions stopped at {MAX_EXPLOSION_DICE} extra dice)")
    purpose = f" for {record.purpose}" if record.purpose else ""
    line = f"{who} rolls {record.notation}{purpose}: {' '.join(parts)} = {_total(record)}"
    if record.target is not None:
        line += f" vs {record.target}"
    if record.opposed_by is not None:
        line += _opposed(record.opposed_by, opposing)
    if record.outcome:
        line += f": {record.outcome}"
    if record.source == "manual":
        line += " (manual)"
    if record.hidden:
        line += " (secret)"
    return line


def _opposed(roll_id: str, opposing: RollRecord | None) -> str:
    if opposing is None or opposing.roll_id != roll_id or opposing.hidden:
        return f" vs roll {roll_id}"
    return f" vs {_total(opposing)}"


def announce_hidden(record: RollRecord) -> str:
    """What players see of a secret roll: that it happened and why, nothing more."""
    return f"GM rolls secretly for {record.purpose}" if record.purpose else "GM rolls secretly"


def _total(record: RollRecord) -> str:
    if record.successes is None:
        return str(record.total)
    return f"{record.total} success{'' if record.total == 1 else 'es'}"


def _dice_parts(record: RollRecord, reading: _Reading) -> list[str]:
    """One ``label [faces]`` per dice term, in term order; a subtracted term is prefixed
    with ``-``.  Most rolls have one dice term, which needs no grouping."""
    faces: list[str] = []
    terms: list[int] = []
    for die in record.dice:
        plain = die.kept and not die.exploded and not die.success
        faces.append(str(die.face) if plain else _face(die))
        terms.append(die.term)
    if not terms:
        return []
    if terms.count(terms[0]) == len(terms):
        return [_term_part(reading, terms[0], faces, record.dice[0].sides, first=True)]
    by_term: dict[int, list[str]] = {}
    sides: dict[int, int] = {}
    for term, face, die in zip(terms, faces, record.dice, strict=True):
        if term not in by_term:
            by_term[term], sides[term] = [], die.sides
        by_term[term].append(face)
    return [
        _term_part(reading, term, by_term[term], sides[term], first=n == 0)
        for n, term in enumerate(sorted(by_term))
    ]


def _term_part(reading: _Reading, term: int, faces: list[str], sides: int, *, first: bool) -> str:
    if term < len(reading.labels):
        label, negative = reading.labels[term], reading.negative[term]
    else:
        label, negative = f"{len(faces)}d{sides}", False
    prefix = "-" if negative else ("" if first else "+")
    return f"{prefix}{label} [{', '.join(faces)}]"


def _face(die: DieResult) -> str:
    """A face with its marks (``_dice_parts`` shows a plain face itself)."""
    text = str(die.face) + ("!" if die.exploded else "") + ("*" if die.success else "")
    return text if die.kept else f"({text})"
