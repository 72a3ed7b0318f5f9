"""The actions a character declares in the Declare Phase (section 1, section 2).

A declaration holds at most one Major and one Minor action (AEK-18, AEK-19); both are
tagged unions on ``kind`` so a declaration is stored whole in the ``declared`` event and
resolved later, in the Slow Phase, exactly as it was declared (AEK-13, AEK-17).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.rulesets.aeonisk_tactical.fields import (
    DefenceMode,
    Direction,
    Id,
    Stance,
    TaskKind,
    Terrain,
    Text,
    TraitName,
)


class _Action(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind"
):
    """Base of every declared action."""


class Attack(_Action, frozen=True, kw_only=True, tag="attack"):
    """Major: attack a target with a weapon from the sheet (Attribute x Skill + d20)."""

    target: Id
    weapon: Annotated[Text, Meta(examples=["pistol"])]
    attribute: TraitName
    skill: Annotated[TraitName, Meta(examples=["firearms"])]
    running: Annotated[
        bool, Meta(description="Running while shooting: -2 to a ranged attack (section 6).")
    ] = False
    void_surge: Annotated[
        bool,
        Meta(description="Free action: +4 damage, Shock on a hit, 1 Stun backlash (section 8)."),
    ] = False


class Move(_Action, frozen=True, kw_only=True, tag="move"):
    """Shift range bands (section 3): 1 band as a Minor, up to 2 as a Major; a Major may
    also enter Difficult Terrain within the current band (bands 0, with terrain).

    Without a zone map the move names the character it is measured against (bands are
    pair-wise, AEK-24, AEK-A20); with one it names the destination zone."""

    bands: Annotated[int, Meta(ge=0, le=2)] = 1
    reference: Annotated[Id | None, Meta(description="Whom the band shift is measured to.")] = None
    direction: Direction | None = None
    zone: Annotated[Id | None, Meta(description="Destination zone (zone maps only).")] = None
    terrain: Annotated[
        Terrain | None, Meta(description="Clutter or hazard crossed: an Agility check first.")
    ] = None
    requires_standing: Annotated[
        bool, Meta(description="A sprint or dash: fails if the mover is Prone (section 5b).")
    ] = False


class Suppress(_Action, frozen=True, kw_only=True, tag="suppress"):
    """Major: suppressing fire with a weapon of Rate of Fire 3 or more (section 7)."""

    target: Id
    weapon: Text
    attribute: TraitName
    skill: TraitName


class Charge(_Action, frozen=True, kw_only=True, tag="charge"):
    """Major: from Near or Far straight into Engaged with a foe, then a melee attack."""

    target: Id
    weapon: Annotated[Text, Meta(description="The melee weapon of the included attack.")]
    attribute: TraitName
    skill: TraitName
    terrain: Terrain | None = None
    void_surge: bool = False


class Task(_Action, frozen=True, kw_only=True, tag="task"):
    """Any other task roll (a Ritual, Dreamwork, hacking a door): Attribute x Skill + d20
    against a difficulty (10 easy, 20 moderate, 30 challenging)."""

    label: Annotated[Text, Meta(examples=["Warding ritual"])]
    attribute: TraitName
    skill: TraitName
    dc: Annotated[int, Meta(ge=1, le=100, examples=[20])]
    task: TaskKind = "other"


class Reload(_Action, frozen=True, kw_only=True, tag="reload"):
    """Minor: reload a weapon (no roll; the text gives no ammunition rules)."""

    weapon: Text


class Claim(_Action, frozen=True, kw_only=True, tag="claim"):
    """Minor: claim a Tactical Token on the field (section 5)."""

    token: Id


class Swap(_Action, frozen=True, kw_only=True, tag="swap"):
    """Minor: give back the held Tactical Token and claim another."""

    token: Id


class Overwatch(_Action, frozen=True, kw_only=True, tag="overwatch"):
    """Minor: watch a 90-degree arc, given as the zones or characters in it (AEK-A24)."""

    arc: Annotated[tuple[Id, ...], Meta(min_length=1, max_length=20)]
    weapon: Text
    attribute: TraitName
    skill: TraitName


class Stand(_Action, frozen=True, kw_only=True, tag="stand"):
    """Minor: stand up from Prone (section 5b)."""


class Disengage(_Action, frozen=True, kw_only=True, tag="disengage"):
    """Minor: an Athletics check to leave Engaged without provoking a Breakaway."""

    foe: Annotated[Id, Meta(description="The foe to disengage from.")]
    zone: Annotated[Id | None, Meta(description="Destination zone (zone maps only).")] = None


class BondRally(_Action, frozen=True, kw_only=True, tag="bond_rally"):
    """Minor: Empathy x Charm check to pull 1 Stun from a Bonded ally (section 8)."""

    ally: Id


MajorAction = Attack | Move | Suppress | Charge | Task
MinorAction = Move | Reload | Claim | Swap | Overwatch | Stand | Disengage | BondRally | Task
AnyAction = (
    Attack | Move | Suppress | Charge | Task | Reload | Claim | Swap | Overwatch | Stand
) | (Disengage | BondRally)


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    """What one character declared this round, as the ``declared`` event stores it."""

    character: str
    major: MajorAction | None = None
    minor: MinorAction | None = None
    minor_first: bool = False
    """Resolve the Minor before the Major (AEK-A31: in the order the player declared)."""
    defence_token: str | None = None
    """The foe the Defence Token is allocated to; None means none is active (AEK-32)."""
    heroic_burn: bool = False
    defence: DefenceMode = "active"
    forfeit: bool = False
    stance: Stance | None = None
    lapsed: bool = False
    """The GM closed the Declare Phase before the character declared (AEK-32)."""


def requires_standing(action: AnyAction) -> bool:
    """Section 5b: a Charge always needs its feet; moves say so themselves (AEK-A30)."""
    return isinstance(action, Charge) or (isinstance(action, Move) and action.requires_standing)


def is_movement(action: AnyAction | None) -> bool:
    """Declared actions that move the character (Void Slick targets these, AEK-48)."""
    return isinstance(action, Move | Charge | Disengage)
