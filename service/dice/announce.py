"""A roll record said aloud, the way a GM announces it at the table.

``Alice rolls 1d20+5 for attack on Goblin: d20 [14] +5 notation +2 Bless = 21 vs 15: hit``

Raw dice come first, grouped by term in notation order, then each modifier with its label,
the total, the target or opposing roll, the outcome and where the faces came from.  Marks
on faces: ``(2)`` a dropped die, ``6!`` a die that exploded, ``5*`` a success.  The text
is derived only from the record, so the replay log renders the same line forever.
"""

from __future__ import annotations

from service.dice.model import DiceError, DieResult, RollRecord
from service.dice.notation import MAX_EXPLOSION_DICE, parse
from service.dice.roller import explosion_limit_reached


def announce(record: RollRecord, *, name: str | None = None) -> str:
    """The full line, for the GM or once a hidden roll is revealed.

    ``name`` is the roller's display name; without it the roller id is used, or "GM".
    """
    who = name or record.roller or "GM"
    head = f"{who} rolls {record.notation}"
    if record.purpose:
        head += f" for {record.purpose}"
    parts = [*_dice_parts(record), *(f"{m.value:+d} {m.label}" for m in record.modifiers)]
    if explosion_limit_reached(record):
        parts.append(f"(explosions stopped at {MAX_EXPLOSION_DICE} extra dice)")
    line = f"{head}: {' '.join(parts)} = {_total(record)}"
    if record.target is not None:
        line += f" vs {record.target}"
    if record.opposed_by is not None:
        line += f" vs roll {record.opposed_by}"
    if record.outcome:
        line += f": {record.outcome}"
    if record.source == "manual":
        line += " (manual)"
    if record.hidden:
        line += " (secret)"
    return line


def announce_hidden(record: RollRecord) -> str:
    """What players see of a secret roll: that it happened and why, nothing more."""
    return f"GM rolls secretly for {record.purpose}" if record.purpose else "GM rolls secretly"


def _total(record: RollRecord) -> str:
    if record.successes is None:
        return str(record.total)
    return f"{record.total} success{'' if record.total == 1 else 'es'}"


def _dice_parts(record: RollRecord) -> list[str]:
    """One ``label [faces]`` per dice term; a subtracted term is prefixed with ``-``."""
    try:
        terms = parse(record.notation).dice_terms
    except DiceError:  # a notation from an older, looser parser: still show the faces
        terms = ()
    parts: list[str] = []
    seen = sorted({d.term for d in record.dice})
    for number in seen:
        dice = [d for d in record.dice if d.term == number]
        if number < len(terms):
            label, sign = terms[number].label, terms[number].sign
        else:
            label, sign = f"{len(dice)}d{dice[0].sides}", 1
        prefix = "-" if sign < 0 else ("+" if parts else "")
        parts.append(f"{prefix}{label} [{', '.join(_face(d) for d in dice)}]")
    return parts


def _face(die: DieResult) -> str:
    text = str(die.face) + ("!" if die.exploded else "") + ("*" if die.success else "")
    return text if die.kept else f"({text})"
