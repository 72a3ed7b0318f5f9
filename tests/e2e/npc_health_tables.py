"""Tables for the NPC health tests (tests/e2e/test_npc_health.py), one per ruleset: the
GM's commands that set up a player character and an NPC and hurt both, and the numbers
of each one's health a reader could find in what they read.

The numbers are chosen so they appear nowhere else in a body (not in a version, an id or
a timestamp), and searched for as whole numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from service.rulesets.tactics import EXAMPLE_OPTIONS as TACTICS_OPTIONS


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
    state_counts_down: bool = False
    """The players' state gives health as what is left to take (wounds to the limit), so the
    player character's number there is not the track's."""
    npc_elsewhere: tuple[tuple[int, int], ...] = ()
    """Another world's NPC: each hidden number of the NPC's commands (its hit points, or a
    track the GM set), and what it is there instead, chosen so that nothing public changes
    (no one goes down, no descriptor word moves)."""

    def other_world(self) -> tuple[Step, ...]:
        """The same steps with the NPC's numbers those of ``npc_elsewhere``."""
        swap = dict(self.npc_elsewhere)
        steps = []
        for step in self.steps:
            text = msgspec.json.encode(step.command).decode()
            if f'"{self.npc}"' in text:
                command = msgspec.json.decode(text)
                step = Step(_swapped(command, swap), step.manual)
            steps.append(step)
        return tuple(steps)


def _swapped(value: Any, swap: dict[int, int]) -> Any:
    if isinstance(value, dict):
        return {k: _swapped(v, swap) for k, v in value.items()}
    if isinstance(value, list):
        return [_swapped(v, swap) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return swap.get(value, value)
    return value


def generic_combatant(ident: str, hp: int) -> dict[str, Any]:
    return {"type": "generic.add_combatant", "id": ident, "name": ident.title(), "hp": hp}


GENERIC = Table(
    ruleset="generic",
    pc="aria",
    npc="grak",
    steps=(
        Step(generic_combatant("aria", 611)),
        Step(generic_combatant("grak", 913)),
        Step({"type": "generic.damage", "target": "grak", "notation": "1d6"}, [[4]]),
        Step({"type": "generic.damage", "target": "aria", "notation": "1d6"}, [[5]]),
    ),
    npc_numbers=(913, 909),
    pc_numbers=(611, 606),
    npc_words=("wounded",),
    npc_elsewhere=((913, 917),),
)


def _scentfinder(ident: str, hp: int, pc: bool) -> dict[str, Any]:
    return {
        "type": "scentfinder.add_combatant",
        "id": ident,
        "name": ident.title(),
        "pc": pc,
        "side": "party" if pc else "wolves",
        "hp": hp,
        "saves": {"REF": 2, "VIG": 1, "WIL": 3},
        "area": "camp",
    }


def _sf_ruling(ident: str, hp: int) -> dict[str, Any]:
    return {
        "type": "scentfinder.adjudicate",
        "reason": "a falling rock",
        "combatant": ident,
        "hp": hp,
    }


SCENTFINDER = Table(
    ruleset="scentfinder",
    pc="mara",
    npc="wolf",
    steps=(
        Step({"type": "scentfinder.define_area", "id": "camp", "name": "the Camp"}),
        Step(_scentfinder("mara", 611, pc=True)),
        Step(_scentfinder("wolf", 913, pc=False)),
        Step(_sf_ruling("wolf", 909)),
        Step(_sf_ruling("mara", 606)),
    ),
    npc_numbers=(913, 909),
    pc_numbers=(611, 606),
    npc_words=("HP changed", "wounded", "unhurt"),
    npc_elsewhere=((913, 917), (909, 911)),
)


def _untold(ident: str, pc: bool) -> dict[str, Any]:
    return {
        "type": "untold-aeons.add_character",
        "id": ident,
        "name": ident.title(),
        "side": "investigators" if pc else "cult",
        "pc": pc,
        "dexterity": 3,
        "toughness": 3,
        "willpower": 3,
        "intellect": 3,
    }


def _untold_damage(ident: str, value: int) -> dict[str, Any]:
    ruling = {"type": "set_value", "character": ident, "field": "damage", "value": value}
    return {"type": "untold-aeons.rule", "ruling": ruling, "reason": "a fall"}


UNTOLD_AEONS = Table(
    state_counts_down=True,
    ruleset="untold-aeons",
    pc="mara",
    npc="cultist",
    steps=(
        Step(_untold("mara", pc=True)),
        Step(_untold("cultist", pc=False)),
        Step(_untold_damage("cultist", 387)),
        Step(_untold_damage("mara", 412)),
    ),
    npc_numbers=(387,),
    pc_numbers=(412,),
    npc_words=("down",),
    npc_elsewhere=((387, 385),),
)


def _tactics(ident: str, side: str) -> dict[str, Any]:
    return {"type": "tactics.add_combatant", "id": ident, "name": ident.title(), "side": side}


def _wounds(ident: str, wounds: int) -> dict[str, Any]:
    ruling = {"type": "inflict_wounds", "combatant": ident, "wounds": wounds, "source": "a fire"}
    return {"type": "tactics.adjudicate", "ruling": ruling, "reason": "the deck burns"}


TACTICS = Table(
    state_counts_down=True,
    ruleset="tactics",
    pc="rex",
    npc="grunt",
    # The wound limit is the table's, public in its options; the totals are not.
    options={**msgspec.to_builtins(TACTICS_OPTIONS), "wound_limit": 97},
    steps=(
        Step(_tactics("rex", "crew")),
        Step(_tactics("grunt", "raiders")),
        Step(_wounds("grunt", 40)),
        Step(_wounds("grunt", 43)),
        Step(_wounds("rex", 29)),
        Step(_wounds("rex", 29)),
    ),
    npc_numbers=(83,),
    pc_numbers=(58,),
    npc_words=("wounded", "bloodied"),
    # No other world: a TACTICS combatant's wounds start at none against the table's public
    # limit and grow only by what its public commands inflict, which players read.
)


def _aeonisk(ident: str, pc: bool) -> dict[str, Any]:
    return {
        "type": "aeonisk.add_character",
        "id": ident,
        "name": ident.title(),
        "side": "crew" if pc else "raiders",
        "pc": pc,
        "attributes": {"agility": 3, "strength": 2, "health": 3, "will": 3},
        "soak": 10,
    }


def _aeonisk_wounds(ident: str, value: int) -> dict[str, Any]:
    ruling = {"type": "set_value", "character": ident, "field": "wounds", "value": value}
    return {"type": "aeonisk.adjudicate", "ruling": ruling, "reason": "shrapnel"}


AEONISK = Table(
    state_counts_down=True,
    ruleset="aeonisk",
    pc="kaelia",
    npc="raider",
    steps=(
        Step(_aeonisk("kaelia", pc=True)),
        Step(_aeonisk("raider", pc=False)),
        Step(_aeonisk_wounds("raider", 387)),
        Step(_aeonisk_wounds("kaelia", 412)),
    ),
    npc_numbers=(387,),
    pc_numbers=(412,),
    npc_words=("down",),
    npc_elsewhere=((387, 385),),
)


_HEXES = [
    {"hex": "-2,0", "kind": "city", "controller": "red"},
    {"hex": "-1,0", "kind": "standard", "controller": "red"},
    {"hex": "0,0", "kind": "standard", "controller": "blue"},
    {"hex": "1,-1", "kind": "city", "controller": "blue"},
]


def _aeonis_side(side: str, hp: int, lord_hex: str, home: str) -> dict[str, Any]:
    lord = {
        "name": f"Lord {side}",
        "attack_die": "d8",
        "defense_die": "d8",
        "hp": hp,
        "movement": 2,
    }
    return {
        "type": "aeonis.add_side",
        "id": side,
        "name": f"House {side.title()}",
        "lord_id": f"{side}-lord",
        "lord": lord,
        "lord_hex": lord_hex,
        "home_city": home,
        "ap": 6,
    }


def _lord_hp(side: str, hp: int) -> dict[str, Any]:
    ruling = {"type": "set_unit_hp", "unit": f"{side}-lord", "hp": hp}
    return {"type": "aeonis.adjudicate", "ruling": ruling, "reason": "a wound from the march"}


AEONIS = Table(
    ruleset="aeonis",
    # A player's token is bound to a side: its units, the Lord among them, are the
    # player's characters.
    pc="red",
    npc="blue-lord",
    steps=(
        Step({"type": "aeonis.add_hexes", "hexes": _HEXES}),
        Step(_aeonis_side("red", 19, "-1,0", "-2,0")),
        Step(_aeonis_side("blue", 17, "0,0", "1,-1")),
        Step(_lord_hp("blue", 13)),
        Step(_lord_hp("red", 16)),
    ),
    npc_numbers=(17, 13),
    pc_numbers=(19, 16),
    npc_words=("wounded",),
    npc_elsewhere=((17, 18), (13, 12)),
)

TABLES = (GENERIC, SCENTFINDER, UNTOLD_AEONS, TACTICS, AEONISK, AEONIS)
