"""Dice for Aeon Ledger: notation, provably fair server faces, manual faces, the roller
and the spoken form of a roll (design section 5).

Rulesets only ever see the ``Dice`` protocol; the service layer builds a ``RollingDice``
over ``ServerFaces`` or ``ManualFaces`` for each command.
"""

from service.dice.announce import announce, announce_hidden
from service.dice.faces import FaceSource, ManualFaces, ServerFaces
from service.dice.fair import (
    commitment,
    die_face,
    new_seed,
    recompute_faces,
    seed_matches,
    verify_record,
)
from service.dice.model import Dice, DiceError, DieResult, Modifier, RollRecord, RollSource
from service.dice.notation import (
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
    SuccessRule,
    parse,
)
from service.dice.roller import RollingDice, explosion_limit_reached

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_EXPLOSION_DICE",
    "MAX_NOTATION_LENGTH",
    "MAX_SIDES",
    "MAX_TERMS",
    "Constant",
    "Dice",
    "DiceError",
    "DiceExpression",
    "DiceTerm",
    "DieResult",
    "FaceSource",
    "KeepDrop",
    "ManualFaces",
    "Modifier",
    "RollRecord",
    "RollSource",
    "RollingDice",
    "ServerFaces",
    "SuccessRule",
    "announce",
    "announce_hidden",
    "commitment",
    "die_face",
    "explosion_limit_reached",
    "new_seed",
    "parse",
    "recompute_faces",
    "seed_matches",
    "verify_record",
]
