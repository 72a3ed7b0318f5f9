"""The events of the TACTICS ruleset: stored facts, tags never change.

Events carry every number ``decide`` worked out (the Press's Precision after the
penalty, the fail-by margin, the damage, soak, wounds and shields after), so ``evolve``
applies no rule and never rolls.  Events with dice carry them in ``rolls``.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.dice.model import RollRecord
from service.rulesets.tactics.state import (
    Area,
    Bonus,
    Category,
    FeatureKind,
    Maneuver,
    PendingHit,
    Status,
    Weapon,
)

AgilityResult = Literal["dodged", "grazed", "failed"]


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every TACTICS event."""


class CombatantAdded(_Event, frozen=True, kw_only=True, tag="tactics.combatant_added"):
    """A creature joined with its sheet (TAC-08, TAC-09, TAC-15, TAC-17)."""

    id: str
    name: str
    side: str = ""
    category: Category = "standard"
    precision: int = 0
    endurance: int = 0
    agility: int = 0
    acumen: int = 0
    armour: int = 0
    toughness: int = 1
    shields: int = 0
    weapons: dict[str, Weapon] = {}
    maneuvers: dict[str, Maneuver] = {}
    zone: str | None = None


class CombatantRemoved(_Event, frozen=True, kw_only=True, tag="tactics.combatant_removed"):
    """A creature left the encounter."""

    id: str
    voided: tuple[str, ...] = ()
    """Pending Presses that lost their last target with it."""


class ZoneAdded(_Event, frozen=True, kw_only=True, tag="tactics.zone_added"):
    """A zone was added, linked to neighbouring zones (TAC-18)."""

    id: str
    links: tuple[str, ...] = ()


class Placed(_Event, frozen=True, kw_only=True, tag="tactics.placed"):
    """A creature is now in a zone (placed by the GM or moved by a Maneuver)."""

    combatant: str
    zone: str
    by_maneuver: bool = False


class HinderedSet(_Event, frozen=True, kw_only=True, tag="tactics.hindered_set"):
    """Access between two creatures became hindered or clear (TAC-A13)."""

    a: str
    b: str
    hindered: bool


class SightSet(_Event, frozen=True, kw_only=True, tag="tactics.sight_set"):
    """Two zones gained or lost line of sight (TAC-A13)."""

    a: str
    b: str
    visible: bool


class FeatureAdded(_Event, frozen=True, kw_only=True, tag="tactics.feature_added"):
    """A zone feature appeared: cover, a cloud, anything exploitable (TAC-19)."""

    id: str
    name: str
    zone: str
    kind: FeatureKind
    users: tuple[str, ...] = ()


class FeatureUsersChanged(_Event, frozen=True, kw_only=True, tag="tactics.feature_users_changed"):
    """Creatures entered or left a feature."""

    feature: str
    entered: tuple[str, ...] = ()
    left: tuple[str, ...] = ()


class FeatureRemoved(_Event, frozen=True, kw_only=True, tag="tactics.feature_removed"):
    """A zone feature is gone."""

    id: str


class TurnOrderSet(_Event, frozen=True, kw_only=True, tag="tactics.turn_order_set"):
    """The GM's ordered list of turns (TAC-A8)."""

    order: tuple[str, ...]


class RoundStarted(_Event, frozen=True, kw_only=True, tag="tactics.round_started"):
    """A new round of turns began."""

    round: int


class TurnStarted(_Event, frozen=True, kw_only=True, tag="tactics.turn_started"):
    """A creature's turn begins: its action pool and Press count reset (TAC-02, TAC-A5),
    shields tick (TAC-A2) and its pending Presses wait for the React choice (TAC-07)."""

    combatant: str
    round: int
    actions: int
    shields_before: int = 0
    shields_after: int = 0
    cooldown_needed: bool = False
    pending: tuple[str, ...] = ()


class TurnEnded(_Event, frozen=True, kw_only=True, tag="tactics.turn_ended"):
    """A creature's turn ended."""

    combatant: str
    expired: tuple[str, ...] = ()
    """Maneuver bonuses that ended with this turn."""


class ManeuverTaken(_Event, frozen=True, kw_only=True, tag="tactics.maneuver_taken"):
    """A Maneuver was taken, as an action or as the turn's React (TAC-04, TAC-06)."""

    combatant: str
    maneuver: str
    bonus: Bonus | None = None
    actions_left: int
    as_react: bool = False


class PressDeclared(_Event, frozen=True, kw_only=True, tag="tactics.press_declared"):
    """A Press declared, pending until each target's next turn (TAC-05, TAC-07, TAC-12)."""

    press: str
    attacker: str
    weapon: str
    damage: int
    precision: int
    penalty: int
    """The cumulative Press penalty already taken off Precision (TAC-A5)."""
    area: Area
    hits: tuple[PendingHit, ...]
    zone: str | None = None
    feature: str | None = None
    cloud_name: str | None = None
    """A cloud Press creates its cloud, a feature with this id and name (TAC-24)."""
    actions_left: int


class AgilityChecked(_Event, frozen=True, kw_only=True, tag="tactics.agility_checked"):
    """The defender's Agility check against a Press (TAC-10, TAC-13)."""

    press: str
    target: str
    attacker: str
    precision: int
    total: int
    result: AgilityResult
    fail_by: int
    damage: int
    """The damage the soak roll faces: base + fail-by (0 when dodged)."""
    rolls: tuple[RollRecord, ...]


class SoakRolled(_Event, frozen=True, kw_only=True, tag="tactics.soak_rolled"):
    """The soak roll: d20 + Endurance + armour, subtracted from the damage (TAC-14)."""

    press: str
    target: str
    attacker: str
    damage: int
    braced: bool = False
    """A medium explosion (or centre of a large one): no Agility roll (TAC-21)."""
    soak: int
    through: int
    wounds: int
    """Wounds the damage that got through is worth (TAC-A9), before shields."""
    rolls: tuple[RollRecord, ...]


class ShieldsSpent(_Event, frozen=True, kw_only=True, tag="tactics.shields_spent"):
    """Shields meet a hit (TAC-17, TAC-A1)."""

    combatant: str
    press: str | None = None
    spent: int
    negated: int
    shields_after: int


class Wounded(_Event, frozen=True, kw_only=True, tag="tactics.wounded"):
    """Wounds were taken, from a Press or a GM ruling (TAC-15, TAC-16)."""

    combatant: str
    wounds: int
    source: str
    scene: int
    total_after: int
    status_after: Status
    press: str | None = None
    reason: str | None = None
    """Set when the wounds come from a GM ruling rather than a Press."""


class WoundsHealed(_Event, frozen=True, kw_only=True, tag="tactics.wounds_healed"):
    """The GM took wounds back (latest first); the status stays as it was."""

    combatant: str
    wounds: int
    total_after: int
    reason: str


class HitResolved(_Event, frozen=True, kw_only=True, tag="tactics.hit_resolved"):
    """A Press is done with this target; it leaves the pending list."""

    press: str
    target: str
    wounds: int
    """What the damage that got through was worth, before shields."""
    absorbed: int = 0
    """Of ``wounds``, how many the shields negated (TAC-17, TAC-A1); the rest were taken."""


class HitVoided(_Event, frozen=True, kw_only=True, tag="tactics.hit_voided"):
    """A pending Press will not touch this target (TAC-A11, a cloud left, a ruling)."""

    press: str
    target: str
    why: str


class CooldownChecked(_Event, frozen=True, kw_only=True, tag="tactics.cooldown_checked"):
    """The GM ruled the cool-down check of an unshielded creature (TAC-A2)."""

    combatant: str
    passed: bool
    shields_after: int


class CheckRolled(_Event, frozen=True, kw_only=True, tag="tactics.check_rolled"):
    """A defensive check the GM called for: d20 + attribute vs a number (TAC-A14)."""

    combatant: str
    label: str
    attribute: str
    target: int
    rolls: tuple[RollRecord, ...]
    """The total and success or failure are the roll's (``total``, ``outcome``)."""
    react_open: bool = False
    """Rolled while the creature's React choice was pending: the check neither answers
    the pending Presses nor closes the React window (TAC-06)."""


class ValueSet(_Event, frozen=True, kw_only=True, tag="tactics.value_set"):
    """A GM ruling set a number on a creature's sheet."""

    combatant: str
    field: str
    value: int
    previous: int
    reason: str


class StatusSet(_Event, frozen=True, kw_only=True, tag="tactics.status_set"):
    """A GM ruling set a creature's status."""

    combatant: str
    status: Status
    previous: Status
    reason: str


class SceneStarted(_Event, frozen=True, kw_only=True, tag="tactics.scene_started"):
    """A GM ruling started a new scene (TAC-A10)."""

    scene: int
    reason: str


class BonusGranted(_Event, frozen=True, kw_only=True, tag="tactics.bonus_granted"):
    """A GM ruling granted a bonus (TAC-A6)."""

    combatant: str
    bonus: Bonus
    reason: str


class EncounterEnded(_Event, frozen=True, kw_only=True, tag="tactics.encounter_ended"):
    """The encounter is over."""


Event = (
    CombatantAdded
    | CombatantRemoved
    | ZoneAdded
    | Placed
    | HinderedSet
    | SightSet
    | FeatureAdded
    | FeatureUsersChanged
    | FeatureRemoved
    | TurnOrderSet
    | RoundStarted
    | TurnStarted
    | TurnEnded
    | ManeuverTaken
    | PressDeclared
    | AgilityChecked
    | SoakRolled
    | ShieldsSpent
    | Wounded
    | WoundsHealed
    | HitResolved
    | HitVoided
    | CooldownChecked
    | CheckRolled
    | ValueSet
    | StatusSet
    | SceneStarted
    | BonusGranted
    | EncounterEnded
)
EVENT_TYPES: tuple[type[Event], ...] = (
    CombatantAdded,
    CombatantRemoved,
    ZoneAdded,
    Placed,
    HinderedSet,
    SightSet,
    FeatureAdded,
    FeatureUsersChanged,
    FeatureRemoved,
    TurnOrderSet,
    RoundStarted,
    TurnStarted,
    TurnEnded,
    ManeuverTaken,
    PressDeclared,
    AgilityChecked,
    SoakRolled,
    ShieldsSpent,
    Wounded,
    WoundsHealed,
    HitResolved,
    HitVoided,
    CooldownChecked,
    CheckRolled,
    ValueSet,
    StatusSet,
    SceneStarted,
    BonusGranted,
    EncounterEnded,
)
