"""Tables for the NPC health tests (tests/e2e/test_npc_health.py), one per ruleset: the
GM's commands that set up a player character and an NPC and hurt both, and the numbers
of each one's health a reader could find in what they read.

The numbers are chosen so they appear nowhere else in a body (not in a version, an id or
a timestamp), and searched for as whole numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    command: dict[str, Any]
    manual: list[list[int]] | None = None


@dataclass(frozen=True)
class Table:
    ruleset: str
    pc: str
    """The combatant the player's token is bound to."""
    npc: str
    steps: tuple[Step, ...]
    """The GM's commands, in order: set up both, then hurt both."""
    npc_numbers: tuple[int, ...]
    """The NPC's health as the GM reads it: before, after, maximum."""
    pc_numbers: tuple[int, ...]
    """The player character's health, shown to everyone at the table."""
    npc_words: tuple[str, ...]
    """What players read of the NPC's health under ``descriptor``: at least one of these."""
    options: dict[str, Any] | None = None


def _generic(ident: str, hp: int) -> dict[str, Any]:
    return {"type": "generic.add_combatant", "id": ident, "name": ident.title(), "hp": hp}


GENERIC = Table(
    ruleset="generic",
    pc="aria",
    npc="grak",
    steps=(
        Step(_generic("aria", 611)),
        Step(_generic("grak", 913)),
        Step({"type": "generic.damage", "target": "grak", "notation": "1d6"}, [[4]]),
        Step({"type": "generic.damage", "target": "aria", "notation": "1d6"}, [[5]]),
    ),
    npc_numbers=(913, 909),
    pc_numbers=(611, 606),
    npc_words=("wounded",),
)

TABLES = (GENERIC,)
