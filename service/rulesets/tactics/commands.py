"""The commands of the TACTICS ruleset.

Player commands (``maneuver``, ``press``, ``react``, ``resolve``, ``end_turn``) name sheet
entries and targets only, never a number: the weapon's Damage and Precision, the
Maneuver's bonus and the defender's Agility and soak come from the sheet the GM set.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.rulesets.tactics.state import (
    Band,
    BonusStat,
    Category,
    FeatureKind,
    Maneuver,
    Status,
    Weapon,
)

Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^\S+$", examples=["rex"])]
Text = Annotated[str, Meta(min_length=1, max_length=200)]
Name = Annotated[str, Meta(min_length=1, max_length=64, examples=["pistol"])]
"""A weapon or Maneuver name on a sheet ("pistol", "take cover")."""
Number = Annotated[int, Meta(ge=-1000, le=1000)]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of every TACTICS command."""


class AddCombatant(_Command, frozen=True, kw_only=True, tag="tactics.add_combatant"):
    """The GM adds a creature with its sheet (TAC-08, TAC-09, TAC-15, TAC-17)."""

    id: Id
    name: Text
    side: Annotated[str, Meta(max_length=64)] = ""
    category: Annotated[
        Category, Meta(description="minion and slow_heavy get 2 actions a turn (TAC-02).")
    ] = "standard"
    precision: Number = 0
    endurance: Number = 0
    agility: Number = 0
    acumen: Annotated[Number, Meta(description="Stored; no rules use it (TAC-A14).")] = 0
    armour: Number = 0
    toughness: Annotated[int, Meta(ge=1, le=100, description="Divides wounds (TAC-A9).")] = 1
    shields: Annotated[int, Meta(ge=0, le=1000, description="Maximum shields (TAC-17).")] = 0
    weapons: dict[Name, Weapon] = {}
    maneuvers: dict[Name, Maneuver] = {}
    zone: Id | None = None


class RemoveCombatant(_Command, frozen=True, kw_only=True, tag="tactics.remove_combatant"):
    """The GM removes a creature; Presses left with no target are void."""

    id: Id


class AddZone(_Command, frozen=True, kw_only=True, tag="tactics.add_zone"):
    """The GM adds a zone linked to neighbouring zones (TAC-18)."""

    id: Id
    links: tuple[Id, ...] = ()


class PlaceCombatant(_Command, frozen=True, kw_only=True, tag="tactics.place"):
    """The GM puts a creature in a zone (it leaves features of its old zone)."""

    combatant: Id
    zone: Id


class SetHindered(_Command, frozen=True, kw_only=True, tag="tactics.set_hindered"):
    """The GM marks access between two creatures hindered or not (Immediate, TAC-A13)."""

    a: Id
    b: Id
    hindered: bool = True


class SetSight(_Command, frozen=True, kw_only=True, tag="tactics.set_sight"):
    """The GM rules whether two zones have line of sight (Sight range, TAC-A13)."""

    a: Id
    b: Id
    visible: bool = True


class AddFeature(_Command, frozen=True, kw_only=True, tag="tactics.add_feature"):
    """The GM adds a zone feature: cover, a cloud, anything creatures exploit (TAC-19)."""

    id: Id
    name: Text
    zone: Id
    kind: FeatureKind = "cover"
    users: tuple[Id, ...] = ()


class MoveInFeature(_Command, frozen=True, kw_only=True, tag="tactics.feature_users"):
    """The GM moves creatures into or out of a feature (into a cloud, out of cover, TAC-24)."""

    feature: Id
    enter: tuple[Id, ...] = ()
    leave: tuple[Id, ...] = ()


class RemoveFeature(_Command, frozen=True, kw_only=True, tag="tactics.remove_feature"):
    """The GM removes a zone feature (the cover is destroyed, the cloud clears)."""

    id: Id


class SetTurnOrder(_Command, frozen=True, kw_only=True, tag="tactics.set_turn_order"):
    """The GM's ordered list of turns (TAC-A8). Allowed any time: the next turn goes to
    whoever follows the current creature in the new list (the first, if it is not in it)."""

    order: tuple[Id, ...]
    append: Annotated[
        bool,
        Meta(
            description=(
                "Add these creatures after those already in the order instead of replacing "
                "it: the GM places them one at a time, as the table decides."
            )
        ),
    ] = False


class StartCombat(_Command, frozen=True, kw_only=True, tag="tactics.start_combat"):
    """Round 1 begins with the first creature's turn."""


class EndTurn(_Command, frozen=True, kw_only=True, tag="tactics.end_turn"):
    """The creature whose turn it is ends it; the next in the order starts."""

    combatant: Id


class TakeManeuver(_Command, frozen=True, kw_only=True, tag="tactics.maneuver"):
    """Spend an action on a Maneuver from the sheet (TAC-04); it may move one zone or
    enter or leave a feature of its zone (taking cover, stepping out of a cloud)."""

    combatant: Id
    maneuver: Name
    move_to: Id | None = None
    enter: Id | None = None
    leave: Id | None = None


class Press(_Command, frozen=True, kw_only=True, tag="tactics.press"):
    """Declare a Press with a weapon of the sheet (TAC-05, TAC-12). It stays pending until
    each target's next turn. ``target`` for single, splash and cloud Presses; ``targets``
    for chain effects; ``zone`` for explosions (the centre of a large one)."""

    combatant: Id
    weapon: Name
    target: Id | None = None
    targets: tuple[Id, ...] = ()
    zone: Id | None = None


class React(_Command, frozen=True, kw_only=True, tag="tactics.react"):
    """At the start of one's turn, before any resolution roll: a Maneuver as a React
    (TAC-06, TAC-A6). ``press`` names the Press when the Maneuver covers one."""

    combatant: Id
    maneuver: Name
    press: Id | None = None


class Resolve(_Command, frozen=True, kw_only=True, tag="tactics.resolve"):
    """Resolve the first pending Press against the creature whose turn it is: Agility
    check, soak roll, wounds (TAC-13, TAC-14). The defender rolls."""

    combatant: Id


class CooldownCheck(_Command, frozen=True, kw_only=True, tag="tactics.cooldown_check"):
    """GM: the cool-down check of an unshielded creature at the start of its turn, whose
    test the text never gives, passed or failed (TAC-A2)."""

    combatant: Id
    passed: bool


class Check(_Command, frozen=True, kw_only=True, tag="tactics.check"):
    """GM: a defensive roll the text leaves open (an Acumen resistance, TAC-A14):
    d20 + the attribute, meet or beat the number."""

    combatant: Id
    attribute: Literal["agility", "endurance", "acumen", "precision"]
    target: Number
    label: Text


class SetValue(msgspec.Struct, frozen=True, kw_only=True, tag="set_value"):
    """Set a number on a creature's sheet (an attribute, armour, shields)."""

    combatant: Id
    field: Annotated[
        str,
        Meta(pattern="^(precision|endurance|agility|acumen|armour|toughness|shields|max_shields)$"),
    ]
    value: Number


class SetStatus(msgspec.Struct, frozen=True, kw_only=True, tag="set_status"):
    """Set a creature's status (active, incapacitated, dead) by the GM's word."""

    combatant: Id
    status: Status


class InflictWounds(msgspec.Struct, frozen=True, kw_only=True, tag="inflict_wounds"):
    """Wounds from outside a Press (a fall, a fire): the only way an attacker can fall
    before its Press resolves (TAC-A11)."""

    combatant: Id
    wounds: Annotated[int, Meta(ge=1, le=100)]
    source: Text


class HealWounds(msgspec.Struct, frozen=True, kw_only=True, tag="heal_wounds"):
    """Take wounds back, the most recent first (a medic, a misapplied hit): the text has
    no healing, so it is always the GM's word."""

    combatant: Id
    wounds: Annotated[int, Meta(ge=1, le=100)]


class VoidPress(msgspec.Struct, frozen=True, kw_only=True, tag="void_press"):
    """A pending Press will not resolve (against one target, or all of them)."""

    press: Id
    target: Id | None = None


class NewScene(msgspec.Struct, frozen=True, kw_only=True, tag="new_scene"):
    """A new scene begins (wounds remember their scene, TAC-A10)."""


class GrantBonus(msgspec.Struct, frozen=True, kw_only=True, tag="grant_bonus"):
    """A bonus the text leaves to the table ("a bonus of some sort", TAC-A6)."""

    combatant: Id
    stat: BonusStat
    amount: Number
    label: Text


Ruling = SetValue | SetStatus | InflictWounds | HealWounds | VoidPress | NewScene | GrantBonus


class Adjudicate(_Command, frozen=True, kw_only=True, tag="tactics.adjudicate"):
    """GM adjudication with a reason, recorded and shown in the log."""

    ruling: Ruling
    reason: Text


class EndEncounter(_Command, frozen=True, kw_only=True, tag="tactics.end_encounter"):
    """The GM ends the encounter."""


Command = (
    AddCombatant
    | RemoveCombatant
    | AddZone
    | PlaceCombatant
    | SetHindered
    | SetSight
    | AddFeature
    | MoveInFeature
    | RemoveFeature
    | SetTurnOrder
    | StartCombat
    | EndTurn
    | TakeManeuver
    | Press
    | React
    | Resolve
    | CooldownCheck
    | Check
    | Adjudicate
    | EndEncounter
)
COMMAND_TYPES: tuple[type[Command], ...] = (
    AddCombatant,
    RemoveCombatant,
    AddZone,
    PlaceCombatant,
    SetHindered,
    SetSight,
    AddFeature,
    MoveInFeature,
    RemoveFeature,
    SetTurnOrder,
    StartCombat,
    EndTurn,
    TakeManeuver,
    Press,
    React,
    Resolve,
    CooldownCheck,
    Check,
    Adjudicate,
    EndEncounter,
)

__all__ = ["COMMAND_TYPES", "Band", "Command"]
