"""The shape of a roll as it is stored in events and shown to players.

A roll record is the whole truth about one roll: who rolled, why, the notation, every raw
die, every labelled modifier, the total, what it was compared with and the outcome, plus
where the faces came from (server or manual) and, for server rolls, the fairness epoch and
die index that let anyone recompute it once the seed is revealed.  Rulesets embed these
records in their events under a field named ``rolls``; projections find them there.
"""

from __future__ import annotations

from typing import Literal, Protocol

import msgspec

RollSource = Literal["server", "manual"]
PoolName = Literal["skill", "difficulty"]


class DiceError(ValueError):
    """Bad notation, a notation over the limits, or manual faces that do not fit.

    The message is shown to the user verbatim, so it names the offending part.
    """


class DiceNeeded(DiceError):
    """Manual dice ran short: the command needs another die before it can be decided.

    Not a refusal of what was entered: ``needed`` says which roll, for whom, why, and
    which dice, given the faces already entered, so a client prompts for exactly those
    and sends the command again with them added.
    """

    def __init__(self, needed: NeededDice) -> None:
        dice = ", ".join(f"d{s}" for s in needed.dice)
        more = "" if needed.exact else " (and more if it explodes)"
        who = f" for {needed.roller}" if needed.roller else ""
        super().__init__(
            f"manual roll {needed.roll} ({needed.notation}, {needed.purpose}{who}) needs "
            f"{len(needed.dice)} more {'die' if len(needed.dice) == 1 else 'dice'}: "
            f"{dice}{more}; roll {'it' if len(needed.dice) == 1 else 'them'} and send the "
            "command again with the faces added"
        )
        self.needed = needed


class NeededDice(msgspec.Struct, frozen=True, kw_only=True):
    """The ``dice_needed`` member of a 422: the next dice a command needs from the table."""

    roll: int
    """Which roll of the command, counting from 1: the position in ``manual_dice`` of the
    list to extend (or to add, when it is one past the end)."""
    roll_id: str
    """The id the roll will have (``r12``)."""
    roller: str | None
    """Who rolls: a combatant id, or None for the GM / the table."""
    purpose: str
    notation: str
    faces_entered: tuple[int, ...] = ()
    """Faces of this roll already entered (and used): keep them, add the new ones."""
    dice: tuple[int, ...]
    """Sides of each die still needed, in the order to enter them."""
    exact: bool = True
    """False for an exploding roll: a die at its top face asks for one more."""
    hidden: bool = False
    """Whether the command is a secret GM roll (only the GM can have sent it)."""


UNUSED = "unused"
"""The ``outcome`` of a record of faces thrown at the table that the command did not
need: kept in the record, never counted (service/dice/roller.py, ``unused_records``)."""


class DieResult(msgspec.Struct, frozen=True, kw_only=True):
    """One physical die: its size, the face it showed and what the notation did with it."""

    term: int
    """Index of the dice term in the notation this die belongs to (0 for ``2d6`` in ``2d6+1d4``)."""
    sides: int
    """The die's size; 0 for a face entered but never rolled for (an unused manual
    face), whose size nobody asked."""
    face: int
    kept: bool = True
    """False when dropped by keep-highest/keep-lowest."""
    exploded: bool = False
    """True when this die showed the explosion face and caused an extra die."""
    success: bool | None = None
    """For success-counting terms: whether this die met the threshold."""
    pool: PoolName | None = None
    """For dice pools (service/dice/pool.py): which pool the die belongs to."""
    counts: str | None = None
    """For dice pools: what the die counted for ("2 successes", "Advantage", "nothing")."""


class PoolSummary(msgspec.Struct, frozen=True, kw_only=True):
    """The count of a skill pool against a difficulty pool (service/dice/pool.py).

    Successes come from skill dice (5 = 1, 6 = 2), failures from difficulty dice (5 = 1,
    6 = 2); a skill-die 1 is an Advantage, a difficulty-die 1 a Drawback.  Successes and
    failures cancel one for one, so do Advantages and Drawbacks: the ``net_`` fields are
    what is left after cancelling.  More successes than failures succeeds, a tie fails.
    """

    skill: str
    """The pool's label as spoken ("Firearms 3", "Dexterity 2")."""
    skill_dice: int
    difficulty_dice: int
    untrained: bool = False
    """Skill 0: one die that succeeds (once) only on a 6 and never gives an Advantage."""
    successes: int
    failures: int
    advantages: int
    drawbacks: int
    net_successes: int
    net_failures: int
    net_advantages: int
    net_drawbacks: int
    succeeded: bool | None = None
    """More successes than failures; None for a pool with no difficulty side of its own
    (an opposed roll, or skill dice whose difficulty is rolled apart)."""
    skill_roll: str | None = None
    """For a difficulty pool rolled apart (behind the screen): the roll id of the skill
    dice it is counted against; the counts are then of both rolls together."""
    apart: tuple[int, ...] = ()
    """Faces of the same check that are not in this record but counted with it: the
    skill dice of ``skill_roll``, or the difficulty dice a reroll of the skill dice kept."""
    difficulty_label: str | None = None
    """Where the difficulty came from, as spoken ("2 range (10 yards) +2 dive for cover"),
    when it has a named part: every number that changed the roll is on its record."""


class Modifier(msgspec.Struct, frozen=True):
    """A signed number added to a roll, with the reason it applies ("Strength", "cover")."""

    label: str
    value: int


class RollRecord(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about one roll; see design section 5."""

    roll_id: str
    roller: str | None
    """Who rolled: a combatant id, or None for the GM / the table."""
    purpose: str
    """Why: the action, in words ("attack on Goblin", "initiative")."""
    notation: str
    dice: tuple[DieResult, ...]
    modifiers: tuple[Modifier, ...] = ()
    """Constants of the notation (label "notation") and the ruleset's labelled modifiers."""
    total: int
    """Sum of kept dice and all modifiers; for success-counting rolls, the success count."""
    successes: int | None = None
    target: int | None = None
    """Target number the total was compared with, when there was one."""
    opposed_by: str | None = None
    """roll_id of the opposing roll, for opposed rolls."""
    outcome: str | None = None
    source: RollSource
    epoch: int | None = None
    """Fairness epoch of a server roll (None for manual rolls)."""
    index: int | None = None
    """Die index k of the first server die of this roll within its epoch; later dice of the
    roll use k+1, k+2 ... in the order they appear in ``dice``."""
    hidden: bool = False
    """A secret GM roll: players see that it happened, not its faces or total."""
    pool: PoolSummary | None = None
    """For dice-pool rolls: the two pools counted (service/dice/pool.py)."""


class Dice(Protocol):
    """The only source of chance a ruleset ever sees.

    ``decide`` calls ``roll`` and embeds the returned records in its events, possibly after
    filling in ``target``/``opposed_by``/``outcome`` with ``msgspec.structs.replace``.
    Implementations are pure given their inputs (seed and counters, or manual faces), so a
    decision is reproducible.
    """

    def roll(
        self,
        notation: str,
        *,
        purpose: str,
        roller: str | None = None,
        modifiers: tuple[Modifier, ...] = (),
        target: int | None = None,
    ) -> RollRecord:
        """Roll ``notation`` (raising DiceError when it is bad) and return its record.

        ``modifiers`` are added to the total after the notation's own constants; when
        ``target`` is given it is stored on the record (outcome is the ruleset's business).
        """
        ...

    def no_roll(self, why: str, *, rule: str) -> None:
        """Say that the command's own inputs settle that a step rolls no die: ``why``, in
        the words of the rules text, and ``rule``, where the rules say so.

        A die the table sends with a command that then rolls nothing at all is a mistake
        (nothing inside the command could have asked for it), so the command is refused
        with this reason (service/ruleset.py, ``refuse_dice_not_rolled``).
        """
        ...


class NoRoll(msgspec.Struct, frozen=True):
    """Why a command rolls no die, as a ruleset said it (``Dice.no_roll``)."""

    why: str
    rule: str | None
