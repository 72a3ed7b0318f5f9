"""What a parsed dice notation is, and the limits every notation must keep within.

The parser (service/dice/notation.py) builds these immutable values; the roller
(service/dice/roller.py) and the spoken form (service/dice/announce.py) read them.  The
limits bound what one roll may cost, whoever writes the notation.
"""

from __future__ import annotations

from typing import Literal

import msgspec

MAX_NOTATION_LENGTH = 200
MAX_TERMS = 20
MAX_DICE = 1000
"""Dice in the whole expression, counted before explosions."""
MAX_SIDES = 10_000
MAX_CONSTANT = 1_000_000
MAX_EXPLOSION_DICE = 100
"""Extra dice that explosions may add to one roll; then exploding stops (see roller)."""

KeepMode = Literal["kh", "kl", "dh", "dl"]


class KeepDrop(msgspec.Struct, frozen=True):
    """Keep or drop the ``count`` highest/lowest dice of a term."""

    mode: KeepMode
    count: int


class SuccessRule(msgspec.Struct, frozen=True):
    """A die is a success when its face is ``>= threshold`` (or ``> threshold``)."""

    op: Literal[">=", ">"]
    threshold: int

    @property
    def min_face(self) -> int:
        """The lowest face that counts as a success."""
        return self.threshold if self.op == ">=" else self.threshold + 1


class DiceTerm(msgspec.Struct, frozen=True, kw_only=True):
    """``[N]dM`` with its suffixes; ``sign`` is -1 for a subtracted term."""

    sign: Literal[1, -1] = 1
    count: int
    sides: int
    keep: KeepDrop | None = None
    explode: bool = False
    success: SuccessRule | None = None
    percent: bool = False
    """Written ``d%``: shown that way back to the user."""

    @property
    def label(self) -> str:
        """The term as a GM would read it, without its sign: ``d20``, ``4d6kh3``, ``d%!``."""
        text = ("" if self.count == 1 else str(self.count)) + "d"
        text += "%" if self.percent else str(self.sides)
        if self.keep is not None:
            text += f"{self.keep.mode}{self.keep.count}"
        if self.explode:
            text += "!"
        if self.success is not None:
            text += f"{self.success.op}{self.success.threshold}"
        return text


class Constant(msgspec.Struct, frozen=True):
    """A signed integer term, recorded on the roll as ``Modifier("notation", value)``."""

    value: int


Term = DiceTerm | Constant


class DiceExpression(msgspec.Struct, frozen=True):
    """A parsed notation; ``text`` (the notation without spaces, lower case, otherwise as
    written so players recognise it) is what roll records store."""

    text: str
    terms: tuple[Term, ...]

    @property
    def dice_terms(self) -> tuple[DiceTerm, ...]:
        return tuple(t for t in self.terms if isinstance(t, DiceTerm))

    @property
    def constants(self) -> tuple[int, ...]:
        return tuple(t.value for t in self.terms if isinstance(t, Constant))

    @property
    def counts_successes(self) -> bool:
        return any(t.success is not None for t in self.dice_terms)

    @property
    def explodes(self) -> bool:
        return any(t.explode for t in self.dice_terms)

    @property
    def dice_count(self) -> int:
        """Dice rolled before any explosion."""
        return sum(t.count for t in self.dice_terms)
