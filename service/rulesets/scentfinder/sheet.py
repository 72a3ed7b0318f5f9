"""A GM ruling on a combatant's sheet: any piece of it can be set again mid-fight (a
healing kit found or lost, a new spell, a Save changed by a curse), with the ruling's
reason.  ``SheetChange`` is both the ruling's input and what its event records; only the
pieces given change.  ``max_fp`` 0 means no maximum (SCF-A20).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.ruleset import RuleViolation
from service.rulesets.scentfinder.fields import Id, Name, SaveName, Text, maximum_of
from service.rulesets.scentfinder.state import Combatant, Spell, Weapon


class SheetChange(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Text | None = None
    side: Id | None = None
    sentient: bool | None = None
    max_hp: Annotated[int, Meta(ge=1, le=100_000)] | None = None
    max_fp: Annotated[int, Meta(ge=0, le=1000)] | None = None
    saves: dict[SaveName, int] | None = None
    skills: Annotated[tuple[Name, ...], Meta(max_length=60)] | None = None
    weapons: dict[Name, Weapon] | None = None
    held: Annotated[tuple[Name, ...], Meta(max_length=4)] | None = None
    hands: Annotated[int, Meta(ge=0, le=8)] | None = None
    spells: dict[Name, Spell] | None = None
    magic_skill: Name | None = None
    refocus_skill: Name | None = None
    healing_tools: bool | None = None
    shield: bool | None = None

    def given(self) -> dict[str, object]:
        """The pieces this change sets."""
        return {f: getattr(self, f) for f in self.__struct_fields__ if getattr(self, f) is not None}


def check(who: Combatant, change: SheetChange) -> None:
    """The changed sheet must still hold together: held weapons on it, hands for them,
    damage dice that can be rolled."""
    pieces = change.given()
    if not pieces:
        raise RuleViolation("A sheet ruling sets at least one piece of the sheet")
    weapons = change.weapons if change.weapons is not None else who.weapons
    held = change.held if change.held is not None else tuple(h for h in who.held if h in weapons)
    hands = change.hands if change.hands is not None else who.hands
    for item in held:
        if item not in weapons:
            raise RuleViolation(f"{who.name} would hold '{item}', which is not on the sheet")
    if len(held) > hands:
        raise RuleViolation(f"{who.name} has {hands} hand(s) and cannot hold {len(held)} weapons")
    for weapon in (change.weapons or {}).values():
        check_die(weapon.damage)
    for spell in (change.spells or {}).values():
        if spell.damage is not None:
            check_die(spell.damage)


def apply(who: Combatant, change: SheetChange) -> Combatant:
    """``who`` with the pieces set; held weapons no longer on the sheet are let go."""
    pieces = change.given()
    if "saves" in pieces:
        pieces["saves"] = {str(k): v for k, v in (change.saves or {}).items()}
    who = msgspec.structs.replace(who, **pieces)
    if change.held is None:
        who = msgspec.structs.replace(who, held=tuple(h for h in who.held if h in who.weapons))
    return who


def spoken(change: SheetChange) -> str:
    """ "healing tools: yes, max HP 20, weapons: sword, bow" """
    parts = []
    for field, value in change.given().items():
        label = field.replace("_", " ").replace("hp", "HP").replace("fp", "FP")
        if isinstance(value, bool):
            parts.append(f"{label}: {'yes' if value else 'no'}")
        elif isinstance(value, dict):
            parts.append(f"{label}: {', '.join(f'{k}' for k in value) or 'none'}")
        elif isinstance(value, tuple):
            parts.append(f"{label}: {', '.join(value) or 'none'}")
        elif field == "max_fp" and value == 0:
            parts.append("no maximum FP")
        else:
            parts.append(f"{label} {value}")
    return ", ".join(parts)


def check_die(notation: str) -> None:
    """A damage die the service can roll and maximise, or a refusal saying so."""
    try:
        maximum_of(notation)
    except ValueError:
        raise RuleViolation(f"'{notation}' is not a damage die like 1d6 or 2d4+1") from None
