"""The commands of Scentfinder: what the GM or a player asks for.

Players declare actions for their own characters by sheet names (``act`` without a
degree, ``delay``, ``end_turn``); every command that carries a degree, a die or any other
free number is the GM's (``access.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.rulesets.scentfinder.fields import (
    ActionName,
    ConditionKind,
    Degree,
    Expiry,
    Id,
    Name,
    Notation,
    Phase,
    SaveName,
    Text,
)
from service.rulesets.scentfinder.sheet import SheetChange
from service.rulesets.scentfinder.state import Hazard, Obstacle, Spell, Weapon

Choice = Literal[
    "immobilised",
    "restrained",
    "staggered",
    "displaced",
    "perturbed",
    "faltering",
    "lose_movement",
    "stop_hiding",
    "sustained",
    "intense",
    "zero",
    "halve",
    "halve_two",
    "plus_one",
    "deaths_door",
]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of every Scentfinder command."""


class DefineArea(_Command, frozen=True, kw_only=True, tag="scentfinder.define_area"):
    """The GM defines an area of the battlefield, its links and its environment (SCF-04)."""

    id: Id
    name: Text
    adjacent: Annotated[tuple[Id, ...], Meta(max_length=20)] = ()
    difficult: bool = False
    hazard: Hazard | None = None
    obstacle: Obstacle | None = None
    uneven: bool = False
    cover: bool = False


class AddCombatant(_Command, frozen=True, kw_only=True, tag="scentfinder.add_combatant"):
    """The GM adds a combatant with its sheet; NPCs get their fixed phase (SCF-07)."""

    id: Id
    name: Text
    pc: bool = True
    side: Id = "party"
    sentient: bool = True
    minion_of: Id | None = None
    hp: Annotated[int, Meta(ge=0, le=100_000)]
    max_hp: Annotated[int, Meta(ge=1, le=100_000)] | None = None
    fp: Annotated[int, Meta(ge=0, le=1000)] = 0
    max_fp: Annotated[int, Meta(ge=0, le=1000)] | None = None
    saves: dict[SaveName, int] = {}
    skills: Annotated[tuple[Name, ...], Meta(max_length=60)] = ()
    weapons: dict[Name, Weapon] = {}
    held: Annotated[tuple[Name, ...], Meta(max_length=4)] = ()
    hands: Annotated[int, Meta(ge=0, le=8)] = 2
    spells: dict[Name, Spell] = {}
    magic_skill: Name | None = None
    refocus_skill: Name | None = None
    healing_tools: bool = False
    shield: bool = False
    area: Id
    phase: Phase | None = None


class RemoveCombatant(_Command, frozen=True, kw_only=True, tag="scentfinder.remove_combatant"):
    """The GM takes a combatant out of the fight."""

    id: Id


class InitiativeEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A PC's initiative degree and value (SCF-A1), or an NPC's fixed phase."""

    combatant: Id
    degree: Degree | None = None
    value: Annotated[int, Meta(ge=-1000, le=1000)] | None = None
    skill: Name = "Perception"
    start_area: Id | None = None
    phase: Phase | None = None


class Initiative(_Command, frozen=True, kw_only=True, tag="scentfinder.initiative"):
    """The GM enters initiative: degrees and values for PCs, phases for NPCs (SCF-05/06)."""

    entries: Annotated[tuple[InitiativeEntry, ...], Meta(min_length=1, max_length=50)]


class Begin(_Command, frozen=True, kw_only=True, tag="scentfinder.begin"):
    """Combat starts: round 1, phase 1."""


class ReorderPhase(_Command, frozen=True, kw_only=True, tag="scentfinder.reorder_phase"):
    """The players of a phase agree on their order (SCF-08)."""

    phase: Phase
    order: Annotated[tuple[Id, ...], Meta(min_length=1, max_length=20)]


class Delay(_Command, frozen=True, kw_only=True, tag="scentfinder.delay"):
    """[0] Delay at the start of one's turn to a later phase, for good (SCF-09). A phase
    past the fourth is refused by the rules, not the schema, so the refusal can say why."""

    combatant: Id
    phase: Annotated[int, Meta(ge=1, le=100)]


class Act(_Command, frozen=True, kw_only=True, tag="scentfinder.act"):
    """Take an action. Without ``degree`` a test waits for the GM's ``resolve``; with it
    (GM only) the action is declared and resolved at once."""

    actor: Id
    action: ActionName
    target: Id | None = None
    skill: Name | None = None
    weapon: Name | None = None
    spell: Name | None = None
    area: Id | None = None
    condition: Id | None = None
    involved: bool = False
    """Interact: an involved or two-handed interaction costs [1] (SCF-34)."""
    undetected: bool = False
    """Interact undetected: calls for a Stealth test (SCF-34)."""
    readied_action: ActionName | None = None
    trigger: Text | None = None
    note: Text | None = None
    via: Literal["turn", "reaction", "bonus_reaction", "minion"] = "turn"
    degree: Degree | None = None
    choice: Choice | None = None
    extra_action: bool = False


class Resolve(_Command, frozen=True, kw_only=True, tag="scentfinder.resolve"):
    """The GM enters the degree of the pending test, with any choice its line offers."""

    degree: Degree
    choice: Choice | None = None
    condition: Id | None = None
    area: Id | None = None
    instances: Annotated[tuple[int, ...], Meta(max_length=2)] = ()
    extra_action: bool = False
    note: Text | None = None


class RollTest(_Command, frozen=True, kw_only=True, tag="scentfinder.roll_test"):
    """HOUSE RULE, only with ``degree_input = house_dice``: roll the pending test with the
    house dice plus ``bonus`` against ``target``; the margin gives the degree."""

    bonus: Annotated[int, Meta(ge=-100, le=100)] = 0
    target: Annotated[int, Meta(ge=-100, le=1000)]
    choice: Choice | None = None
    area: Id | None = None
    instances: Annotated[tuple[int, ...], Meta(max_length=2)] = ()
    extra_action: bool = False
    note: Text | None = None


class Save(_Command, frozen=True, kw_only=True, tag="scentfinder.save"):
    """[0] Save (SCF-45): the GM enters the degree. A pending hazard takes its Save and die
    from the area (SCF-17); any other danger names the Save and its damage die."""

    combatant: Id
    degree: Degree
    save: SaveName | None = None
    damage: Notation | None = None
    label: Text = "danger"


class EndTurn(_Command, frozen=True, kw_only=True, tag="scentfinder.end_turn"):
    """End one's turn: persistent damage, then durations, then dissipation (SCF-11)."""

    combatant: Id


class ConditionSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    kind: ConditionKind
    turns: Annotated[int, Meta(ge=1, le=100)] | None = None
    expiry: Expiry | None = None
    against: Id | None = None
    scope: Text | None = None
    circumstance: bool = False
    save: SaveName | None = None
    intense: bool = False
    note: Text | None = None


class Adjudicate(_Command, frozen=True, kw_only=True, tag="scentfinder.adjudicate"):
    """A GM ruling with its reason: set values, add or remove conditions (SCF-A15/A20)."""

    reason: Text
    combatant: Id | None = None
    hp: Annotated[int, Meta(ge=-100_000, le=100_000)] | None = None
    fp: Annotated[int, Meta(ge=0, le=1000)] | None = None
    deaths_door: bool | None = None
    dd_action_loss: Annotated[int, Meta(ge=0, le=3)] | None = None
    persistent: (
        Annotated[tuple[Annotated[int, Meta(ge=1, le=1000)], ...], Meta(max_length=10)] | None
    ) = None
    area: Id | None = None
    add_condition: ConditionSpec | None = None
    remove_condition: Id | None = None
    sheet: SheetChange | None = None
    """Any other piece of the sheet (healing tools, weapons, Saves, maxima ...)."""


class GmRoll(_Command, frozen=True, kw_only=True, tag="scentfinder.gm_roll"):
    """The GM rolls a die for something the text leaves to the table (often hidden)."""

    label: Text
    notation: Notation


class EndCombat(_Command, frozen=True, kw_only=True, tag="scentfinder.end_combat"):
    """The fight is over."""


Command = (
    DefineArea
    | AddCombatant
    | RemoveCombatant
    | Initiative
    | Begin
    | ReorderPhase
    | Delay
    | Act
    | Resolve
    | RollTest
    | Save
    | EndTurn
    | Adjudicate
    | GmRoll
    | EndCombat
)

COMMAND_TYPES: tuple[type[Command], ...] = (
    DefineArea,
    AddCombatant,
    RemoveCombatant,
    Initiative,
    Begin,
    ReorderPhase,
    Delay,
    Act,
    Resolve,
    RollTest,
    Save,
    EndTurn,
    Adjudicate,
    GmRoll,
    EndCombat,
)
