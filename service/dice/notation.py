"""Dice notation: text in, a small immutable expression out.

This module is the parser; the expression it builds and the limits it enforces are
service/dice/expression.py's (re-exported here).

Grammar (case-insensitive; spaces are allowed between any two tokens, not inside numbers)::

    expression := ["+" | "-"] term (("+" | "-") term)*
    term       := integer | dice
    dice       := [integer] "d" (integer | "%") suffix*
    suffix     := ("kh" | "kl" | "k" | "dh" | "dl") integer     keep / drop
                | "!"                                          exploding
                | (">=" | ">") integer                         success counting

Each kind of suffix may appear once, in any order.  Decisions where the brief was open:

- ``kh N``/``kl N`` accept 1..N (keeping every die is allowed because rulesets build
  notations such as ``{n}d20kh1`` where n may be 1); ``dh``/``dl`` accept 1..N-1 (dropping
  every die leaves no roll).  Explosion dice join the pool before keep/drop applies.
- A success threshold that no face can meet (``1d6>=7``) is an error, surely a typo; one
  that every face meets (``1d6>=1``) is allowed, since it is harmless and sometimes meant.
- Success-counting terms may be combined with each other and with constants (added to the
  count), never with summed dice terms, and cannot be subtracted.
- An expression must contain at least one dice term: ``5`` is not a roll.
- Error messages quote the offending term and give a 0-based character position.
"""

from __future__ import annotations

import functools
from typing import Literal

import msgspec

from service.dice.expression import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_EXPLOSION_DICE,
    MAX_NOTATION_LENGTH,
    MAX_SIDES,
    MAX_TERMS,
    Constant,
    DiceExpression,
    DiceTerm,
    KeepDrop,
    KeepMode,
    SuccessRule,
    Term,
)
from service.dice.model import DiceError

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_EXPLOSION_DICE",
    "MAX_NOTATION_LENGTH",
    "MAX_SIDES",
    "MAX_TERMS",
    "Constant",
    "DiceExpression",
    "DiceTerm",
    "KeepDrop",
    "KeepMode",
    "SuccessRule",
    "Term",
    "parse",
]

_DIGITS = "0123456789"
# Only ASCII letters are folded so that positions in messages match the user's text
# (str.lower() may change the length of some non-ASCII strings).
_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def parse(notation: str) -> DiceExpression:
    """Parse ``notation`` or raise DiceError saying what is wrong and where."""
    if isinstance(notation, str) and len(notation) <= MAX_NOTATION_LENGTH:
        return _parse_valid_length(notation)
    return _parse(notation)


@functools.lru_cache(maxsize=4096)
def _parse_valid_length(notation: str) -> DiceExpression:
    """A table uses a handful of notations over and over ("1d20+5", "2d6"): the parsed,
    immutable expression is kept (a refused one is not: lru_cache keeps no exceptions)."""
    return _parse(notation)


def _parse(notation: str) -> DiceExpression:
    if not isinstance(notation, str):
        raise DiceError(f"notation must be text, not {type(notation).__name__}")
    if len(notation) > MAX_NOTATION_LENGTH:
        raise DiceError(
            f"notation is {len(notation)} characters long; "
            f"the limit is {MAX_NOTATION_LENGTH} characters (MAX_NOTATION_LENGTH)"
        )
    return _Parser(notation).expression()


class _Parser:
    """Recursive descent over one notation; ``pos`` is a 0-based index into ``raw``."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.text = raw.translate(_FOLD)
        self.pos = 0

    # -- scanning -------------------------------------------------------------------
    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_spaces()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def found(self) -> str:
        char = self.peek()
        return f"found {char!r}" if char else "found the end of the notation"

    def quote(self, start: int) -> str:
        return repr(self.raw[start : self.pos].strip())

    def number(self) -> int | None:
        self.skip_spaces()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
            self.pos += 1
        return int(self.text[start : self.pos]) if self.pos > start else None

    # -- grammar --------------------------------------------------------------------
    def expression(self) -> DiceExpression:
        if not self.raw.strip():
            raise DiceError("notation is empty: write dice such as 'd20' or '2d6+3'")
        terms: list[Term] = []
        while True:
            sign_at = self.pos
            op = self.peek()
            if op in ("+", "-"):
                self.pos += 1
            elif terms:
                raise DiceError(f"expected '+' or '-' at position {self.pos}, {self.found()}")
            sign: Literal[1, -1] = -1 if op == "-" else 1
            terms.append(self.term(sign, sign_at))
            if len(terms) > MAX_TERMS:
                raise DiceError(f"notation has more than {MAX_TERMS} terms (MAX_TERMS)")
            if not self.peek():
                break
        return _checked(self.raw, terms)

    def term(self, sign: Literal[1, -1], sign_at: int) -> Term:
        self.skip_spaces()
        start = self.pos
        count = self.number()
        if self.peek() != "d":
            if count is None:
                raise DiceError(
                    f"expected a number or dice such as '2d6' at position {self.pos}, "
                    f"{self.found()}"
                )
            if count > MAX_CONSTANT:
                raise DiceError(
                    f"constant {self.quote(start)} at position {start} is larger than "
                    f"{MAX_CONSTANT} (MAX_CONSTANT)"
                )
            return Constant(sign * count)
        self.pos += 1  # the "d"
        percent = self.peek() == "%"
        if percent:
            self.pos += 1
            sides: int | None = 100
        else:
            sides = self.number()
        if sides is None:
            raise DiceError(
                f"{self.quote(start)} is missing the number of sides after 'd' "
                f"(position {self.pos})"
            )
        if count is not None and count < 1:
            raise DiceError(
                f"{self.quote(start)} at position {start} rolls no dice: "
                "the number of dice must be at least 1"
            )
        if not 2 <= sides <= MAX_SIDES:
            raise DiceError(
                f"{self.quote(start)} at position {start}: a die needs between 2 and "
                f"{MAX_SIDES} sides (MAX_SIDES)"
            )
        dice = DiceTerm(
            sign=sign, count=1 if count is None else count, sides=sides, percent=percent
        )
        dice = self.suffixes(dice, start)
        if sign == -1 and dice.success is not None:
            raise DiceError(
                f"{self.quote(start)} at position {sign_at}: "
                "a success-counting term cannot be subtracted"
            )
        return dice

    def suffixes(self, dice: DiceTerm, start: int) -> DiceTerm:
        while True:
            char = self.peek()
            at = self.pos
            if char in ("k", "d"):
                dice = self.keep_drop(dice, start, at)
            elif char == "!":
                self.pos += 1
                if dice.explode:
                    raise DiceError(f"{self.quote(start)} has a second '!' at position {at}")
                dice = msgspec.structs.replace(dice, explode=True)
            elif char == ">":
                dice = self.threshold(dice, start, at)
            else:
                return dice

    def keep_drop(self, dice: DiceTerm, start: int, at: int) -> DiceTerm:
        first = self.text[self.pos]
        self.pos += 1
        second = self.text[self.pos] if self.pos < len(self.text) else ""
        if second in ("h", "l"):
            self.pos += 1
            mode: KeepMode = "kh" if first + second == "kh" else "kl"
            if first == "d":
                mode = "dh" if second == "h" else "dl"
        elif first == "k":
            mode = "kh"
        else:
            raise DiceError(
                f"{self.quote(start)}: 'd' after the dice must be 'dh' (drop highest) or "
                f"'dl' (drop lowest) (position {at})"
            )
        wanted = self.number()
        verb = "keep" if mode[0] == "k" else "drop"
        if wanted is None:
            raise DiceError(
                f"{self.quote(start)} is missing the number of dice to {verb} after "
                f"{self.raw[at : self.pos].strip()!r} (position {self.pos})"
            )
        if dice.keep is not None:
            raise DiceError(f"{self.quote(start)} has a second keep/drop at position {at}")
        high = dice.count if verb == "keep" else dice.count - 1
        if high < 1:
            raise DiceError(
                f"{self.quote(start)} at position {at}: cannot drop dice from a single die"
            )
        if not 1 <= wanted <= high:
            raise DiceError(
                f"{self.quote(start)} at position {at}: can {verb} between 1 and {high} "
                f"of {dice.count} dice, not {wanted}"
            )
        return msgspec.structs.replace(dice, keep=KeepDrop(mode, wanted))

    def threshold(self, dice: DiceTerm, start: int, at: int) -> DiceTerm:
        self.pos += 1
        op: Literal[">=", ">"] = ">"
        if self.peek() == "=":
            self.pos += 1
            op = ">="
        value = self.number()
        if value is None:
            raise DiceError(
                f"{self.quote(start)} is missing the target number after {op!r} "
                f"(position {self.pos})"
            )
        if dice.success is not None:
            raise DiceError(f"{self.quote(start)} has a second success threshold at position {at}")
        rule = SuccessRule(op, value)
        if rule.min_face > dice.sides:
            raise DiceError(
                f"{self.quote(start)} at position {at}: no face of a d{dice.sides} "
                f"is {op}{value}, so it can never succeed"
            )
        return msgspec.structs.replace(dice, success=rule)


def _checked(raw: str, terms: list[Term]) -> DiceExpression:
    """Whole-expression rules: at least one die, the dice limit, no mixed counting."""
    dice_terms = [t for t in terms if isinstance(t, DiceTerm)]
    if not dice_terms:
        raise DiceError(f"{raw.strip()!r} has no dice: add a dice term such as 'd20'")
    total = sum(t.count for t in dice_terms)
    if total > MAX_DICE:
        raise DiceError(f"notation rolls {total} dice; the limit is {MAX_DICE} (MAX_DICE)")
    counting = [t for t in dice_terms if t.success is not None]
    summed = [t for t in dice_terms if t.success is None]
    if counting and summed:
        raise DiceError(
            f"{counting[0].label!r} counts successes and cannot be mixed with summed dice "
            f"such as {summed[0].label!r}; roll them separately"
        )
    return DiceExpression("".join(raw.split()).translate(_FOLD), tuple(terms))
