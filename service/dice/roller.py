"""``RollingDice``: the ``Dice`` a ruleset is handed, turning notation into roll records.

Order of work for one roll, which is also the order faces are drawn (and so the order of
server die indices and of manual faces): dice terms left to right; within a term each die
in turn, an explosion die drawn right after the die that caused it.  Then keep/drop marks
dice of each term (over the whole pool, explosion dice included), success counting
marks kept dice, and the total is computed.

Explosions stop once one roll has added ``MAX_EXPLOSION_DICE`` extra dice.  The record
shows it without any extra field: a die at its maximum face in an exploding term with
``exploded=False`` can only mean the limit was reached (``explosion_limit_reached``).
"""

from __future__ import annotations

from service.dice.faces import FaceSource, FacesShort, ManualFaces, ServerFaces
from service.dice.model import (
    UNUSED,
    DiceError,
    DiceNeeded,
    DieResult,
    Modifier,
    NeededDice,
    NoRoll,
    RollRecord,
)
from service.dice.notation import MAX_CONSTANT, MAX_EXPLOSION_DICE, DiceExpression, DiceTerm, parse


class RollingDice:
    """Implements the ``Dice`` protocol over a face source; ids are ``r{n}``, n counting up.

    After ``decide`` the service reads ``records``, ``next_roll_number`` and, for server
    faces, ``next_index`` to advance its counters, and records manual faces the command
    did not need (``unused_records``); ``ensure_all_used()`` refuses them instead, for
    tests that pin a ruleset's exact rolls.  A command that rolled nothing at all refuses
    manual dice (``not_rolled``).
    """

    def __init__(
        self,
        faces: FaceSource,
        *,
        next_roll_number: int,
        hidden: bool = False,
        id_prefix: str = "r",
    ) -> None:
        self.faces = faces
        self.next_roll_number = next_roll_number
        self.hidden = hidden
        self.id_prefix = id_prefix
        """``r`` for public rolls; a sealed command numbers its own (``s3.1``), so public
        roll ids never count secret rolls."""
        self._records: list[RollRecord] = []
        self._no_rolls: list[NoRoll] = []

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Every record made so far, in order."""
        return tuple(self._records)

    @property
    def next_index(self) -> int | None:
        """The next server die index of the epoch; None for manual faces."""
        return self.faces.next_index if isinstance(self.faces, ServerFaces) else None

    def ensure_all_used(self) -> None:
        self.faces.ensure_all_used()

    def no_roll(self, why: str, *, rule: str) -> None:
        """See ``Dice.no_roll``."""
        self._no_rolls.append(NoRoll(why, rule))

    def not_rolled(self) -> NoRoll | None:
        """Why the manual dice sent with the command cannot be taken, or None.

        Only a roll can decide that another is needed (an attack die whether the damage
        die is rolled), so faces left over after a command that rolled are kept as unused;
        a command that rolled nothing at all was settled by its own inputs, and a face
        sent with it was thrown by mistake.  The reason is the last the ruleset gave
        (``no_roll``: the step deepest in the command says most), else one with no words
        (the caller names the command).  Ask before ``unused_records``.
        """
        if self._records or not isinstance(self.faces, ManualFaces) or not self.faces.sent_any:
            return None
        if self._no_rolls:
            return self._no_rolls[-1]
        return NoRoll("", None)

    def unused_records(self) -> tuple[RollRecord, ...]:
        """Manual faces the command did not need, one record per list, numbered after
        its rolls: thrown at the table, so kept in the ledger (outcome ``unused``, dice
        not kept, total 0), and as secret as the command when it is hidden."""
        if not isinstance(self.faces, ManualFaces):
            return ()
        records = []
        for faces in self.faces.unused():
            records.append(
                RollRecord(
                    roll_id=f"{self.id_prefix}{self.next_roll_number}",
                    roller=None,
                    purpose="thrown at the table, not needed by the command",
                    notation="",
                    dice=tuple(DieResult(term=0, sides=0, face=f, kept=False) for f in faces),
                    total=0,
                    outcome=UNUSED,
                    source="manual",
                    hidden=self.hidden,
                )
            )
            self.next_roll_number += 1
        self._records.extend(records)
        return tuple(records)

    def _needed(
        self, short: FacesShort, expression: DiceExpression, purpose: str, roller: str | None
    ) -> NeededDice:
        """What the table must still roll for this roll, given the faces entered for it."""
        every = [t.sides for t in expression.dice_terms for _ in range(t.count)]
        if expression.explodes and short.sides is not None:
            # Explosions shift which die comes next: name the one asked for, at least.
            dice: tuple[int, ...] = (short.sides,)
        else:
            dice = tuple(every[len(short.given) :])
        return NeededDice(
            roll=short.roll,
            roll_id=f"{self.id_prefix}{self.next_roll_number}",
            roller=roller,
            purpose=purpose,
            notation=expression.text,
            faces_entered=short.given,
            dice=dice,
            exact=not expression.explodes,
            hidden=self.hidden,
        )

    def roll(
        self,
        notation: str,
        *,
        purpose: str,
        roller: str | None = None,
        modifiers: tuple[Modifier, ...] = (),
        target: int | None = None,
    ) -> RollRecord:
        """Roll ``notation``; see ``Dice.roll``."""
        expression = parse(notation)
        _check_modifiers(modifiers)
        try:
            epoch, index = self.faces.begin_roll(expression.text)
            dice = _draw(expression, self.faces)
        except FacesShort as short:
            raise DiceNeeded(self._needed(short, expression, purpose, roller)) from None
        self.faces.end_roll()
        all_modifiers = (
            *(Modifier("notation", value) for value in expression.constants),
            *modifiers,
        )
        bonus = sum(m.value for m in all_modifiers)
        successes: int | None = None
        if expression.counts_successes:
            successes = sum(1 for d in dice if d.kept and d.success)
            total = successes + bonus
        else:
            signs = [t.sign for t in expression.dice_terms]
            total = sum(signs[d.term] * d.face for d in dice if d.kept) + bonus
        record = RollRecord(
            roll_id=f"{self.id_prefix}{self.next_roll_number}",
            roller=roller,
            purpose=purpose,
            notation=expression.text,
            dice=dice,
            modifiers=all_modifiers,
            total=total,
            successes=successes,
            target=target,
            source=self.faces.source,
            epoch=epoch,
            index=index,
            hidden=self.hidden,
        )
        self.next_roll_number += 1
        self._records.append(record)
        return record


def _check_modifiers(modifiers: tuple[Modifier, ...]) -> None:
    """Modifiers keep the bounds of the notation's own constants, whoever adds them: a
    labelled +2^64 is no more a table's number than a notation's."""
    for m in modifiers:
        if abs(m.value) > MAX_CONSTANT:
            raise DiceError(
                f"modifier {m.label!r} of {m.value} is larger than {MAX_CONSTANT} "
                "(modifiers are bounded like notation constants)"
            )


def _draw(expression: DiceExpression, faces: FaceSource) -> tuple[DieResult, ...]:
    """Draw every face of the roll and mark each die (see the module docstring)."""
    terms = expression.dice_terms
    exact = not expression.explodes
    not_started = expression.dice_count
    extra = 0
    drawn = 0
    results: list[DieResult] = []
    for number, term in enumerate(terms):
        not_started -= term.count
        pool: list[DieResult] = []
        remaining = term.count
        while remaining:
            face = faces.draw(term.sides, needed=drawn + remaining + not_started, exact=exact)
            drawn += 1
            remaining -= 1
            explodes = term.explode and face == term.sides and extra < MAX_EXPLOSION_DICE
            if explodes:
                extra += 1
                remaining += 1
            pool.append(DieResult(term=number, sides=term.sides, face=face, exploded=explodes))
        results.extend(_mark(term, pool))
    return tuple(results)


def _mark(term: DiceTerm, pool: list[DieResult]) -> list[DieResult]:
    """Apply keep/drop and success marks.  Ties keep the earlier die, so it is stable.

    ``success`` says whether a die met the threshold, as model.py documents, even for a
    dropped die; only kept successes count.
    """
    kept = set(range(len(pool)))
    if term.keep is not None:
        mode, n = term.keep.mode, term.keep.count
        highest = sorted(range(len(pool)), key=lambda i: (-pool[i].face, i))
        lowest = sorted(range(len(pool)), key=lambda i: (pool[i].face, i))
        if mode == "kh":
            kept = set(highest[:n])
        elif mode == "kl":
            kept = set(lowest[:n])
        elif mode == "dh":
            kept = set(lowest[: len(pool) - n])
        else:
            kept = set(highest[: len(pool) - n])
    marked: list[DieResult] = []
    for i, die in enumerate(pool):
        success = None
        if term.success is not None:
            success = die.face >= term.success.min_face
        marked.append(
            DieResult(
                term=die.term,
                sides=die.sides,
                face=die.face,
                kept=i in kept,
                exploded=die.exploded,
                success=success,
            )
        )
    return marked


def explosion_limit_reached(record: RollRecord) -> bool:
    """Whether explosions of this roll were cut off by ``MAX_EXPLOSION_DICE``."""
    try:
        terms = parse(record.notation).dice_terms
    except DiceError:
        return False
    return any(
        d.term < len(terms) and terms[d.term].explode and d.face == d.sides and not d.exploded
        for d in record.dice
    )
