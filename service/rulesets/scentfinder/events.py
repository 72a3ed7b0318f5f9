"""The events of Scentfinder: the facts the event store keeps forever.

Tags (``scentfinder.action_taken`` ...) never change.  Events carry every number
``decide`` worked out (HP after damage, actions regained, durations after the end of a
turn), so ``evolve`` never applies a rule.  Events with dice carry them in ``rolls``.
"""

from __future__ import annotations

import msgspec

from service.dice.model import RollRecord
from service.rulesets.scentfinder.fields import Degree, SaveName
from service.rulesets.scentfinder.sheet import SheetChange
from service.rulesets.scentfinder.state import Condition, Hazard, Obstacle, Spell, Weapon


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every Scentfinder event."""


class AreaDefined(_Event, frozen=True, kw_only=True, tag="scentfinder.area_defined"):
    """An area of the battlefield, its links to adjacent areas and its terrain (SCF-04)."""

    area: str
    name: str
    adjacent: tuple[str, ...] = ()
    difficult: bool = False
    hazard: Hazard | None = None
    obstacle: Obstacle | None = None
    uneven: bool = False
    cover: bool = False


class CombatantAdded(_Event, frozen=True, kw_only=True, tag="scentfinder.combatant_added"):
    """A combatant joins with its sheet: pools, Saves, skills, weapons, spells, area."""

    combatant: str
    name: str
    pc: bool
    side: str
    sentient: bool = True
    minion_of: str | None = None
    hp: int
    max_hp: int
    fp: int = 0
    max_fp: int = 0
    saves: dict[str, int] = {}
    skills: tuple[str, ...] = ()
    weapons: dict[str, Weapon] = {}
    held: tuple[str, ...] = ()
    hands: int = 2
    spells: dict[str, Spell] = {}
    magic_skill: str | None = None
    refocus_skill: str | None = None
    healing_tools: bool = False
    shield: bool = False
    area: str
    phase: int | None = None


class CombatantRemoved(_Event, frozen=True, kw_only=True, tag="scentfinder.combatant_removed"):
    """A combatant leaves the fight; it stays in the state, marked out."""

    combatant: str


class InitiativeSet(_Event, frozen=True, kw_only=True, tag="scentfinder.initiative_set"):
    """A PC's initiative degree, value and phase, or an NPC's fixed phase (SCF-06/07)."""

    combatant: str
    phase: int
    degree: Degree | None = None
    value: int | None = None
    skill: str | None = None
    start_area: str | None = None


class CombatBegan(_Event, frozen=True, kw_only=True, tag="scentfinder.combat_began"):
    """Combat starts; ``order`` is the turn order of round 1."""

    order: tuple[str, ...] = ()


class RoundStarted(_Event, frozen=True, kw_only=True, tag="scentfinder.round_started"):
    """A new round begins; nobody has had a turn in it yet."""

    round: int


class TurnStarted(_Event, frozen=True, kw_only=True, tag="scentfinder.turn_started"):
    """A turn starts: 3 actions and a reaction regained, fewer at Death's Door (SCF-10);
    conditions lasting 'until next turn' end (``expired``)."""

    combatant: str
    round: int
    phase: int
    actions: int
    reaction: int
    expired: tuple[str, ...] = ()


class Delayed(_Event, frozen=True, kw_only=True, tag="scentfinder.delayed"):
    """[0] Delay: the combatant acts in a later phase from now on (SCF-09, SCF-A11)."""

    combatant: str
    from_phase: int
    to_phase: int
    rank: int
    actions: int = 0
    reaction: int = 0
    """What they keep until the delayed turn starts: nothing regained at this turn's
    start, and no reaction at all before a first turn (SCF-10, SCF-A11)."""
    first_turn: bool = False
    """The turn delayed was their first: until it starts they have no reaction."""


class PhaseReordered(_Event, frozen=True, kw_only=True, tag="scentfinder.phase_reordered"):
    """The players of a phase agreed on the order they act in (SCF-08)."""

    phase: int
    order: tuple[str, ...]


class ActionTaken(_Event, frozen=True, kw_only=True, tag="scentfinder.action_taken"):
    """An action is declared and paid for; ``pending`` when its test awaits the GM."""

    actor: str
    action: str
    cost: int
    target: str | None = None
    skill: str | None = None
    weapon: str | None = None
    spell: str | None = None
    area: str | None = None
    condition: str | None = None
    via: str = "turn"
    pending: bool = False
    surcharges: tuple[str, ...] = ()
    lost_action: bool = False
    fp_spent: int = 0
    ended: tuple[str, ...] = ()
    note: str | None = None
    in_force: tuple[str, ...] = ()
    """The conditions in force on its test, each with its source (SCF-57)."""


class ActionResolved(_Event, frozen=True, kw_only=True, tag="scentfinder.action_resolved"):
    """The degree of an action's test and what its line does (SCF-01)."""

    actor: str
    action: str
    degree: Degree | None = None
    target: str | None = None
    effect: str
    damage: int | None = None
    hp_after: int | None = None
    rolls: tuple[RollRecord, ...] = ()
    in_force: tuple[str, ...] = ()
    """The conditions in force on the test when its degree was given, with their sources
    (an Aid's Favour given while it waited among them)."""


class ConditionAdded(_Event, frozen=True, kw_only=True, tag="scentfinder.condition_added"):
    """A counted instance of a condition is put on its bearer (SCF-57)."""

    bearer: str
    condition: Condition


class ConditionRemoved(_Event, frozen=True, kw_only=True, tag="scentfinder.condition_removed"):
    """An instance of a condition ends, with the reason."""

    bearer: str
    condition: str
    reason: str


class ConditionChanged(_Event, frozen=True, kw_only=True, tag="scentfinder.condition_changed"):
    """An instance of a condition gets a new duration, skips or intensity."""

    bearer: str
    condition: str
    remaining: int | None = None
    skips: int = 0
    intense: bool = False
    reason: str


class Moved(_Event, frozen=True, kw_only=True, tag="scentfinder.moved"):
    """A combatant is now in another area (a move action, a Shove, a ruling)."""

    combatant: str
    from_area: str | None
    to_area: str
    reason: str


class HazardTriggered(_Event, frozen=True, kw_only=True, tag="scentfinder.hazard_triggered"):
    """A move in hazardous terrain calls for its Save (SCF-17, SCF-A14)."""

    combatant: str
    area: str
    save: SaveName
    die: str


class SaveMade(_Event, frozen=True, kw_only=True, tag="scentfinder.save_made"):
    """[0] Save against a danger or a hazard (SCF-45, SCF-A8)."""

    combatant: str
    save: SaveName
    degree: Degree
    label: str
    hazard_area: str | None = None
    damage: int = 0
    hp_after: int
    rolls: tuple[RollRecord, ...] = ()
    in_force: tuple[str, ...] = ()
    """The conditions in force on the Save, each with its source (SCF-57)."""


class Tick(msgspec.Struct, frozen=True, kw_only=True):
    condition: str
    remaining: int


class TurnEnded(_Event, frozen=True, kw_only=True, tag="scentfinder.turn_ended"):
    """End of turn in the text's order (SCF-11): persistent damage then its decrease,
    durations down by 1 (sustained ones skip), dissipation at 0."""

    combatant: str
    persistent_damage: int = 0
    hp_after: int
    persistent_after: tuple[int, ...] = ()
    ticked: tuple[Tick, ...] = ()
    skipped: tuple[str, ...] = ()
    dissipated: tuple[str, ...] = ()
    minions_lost: tuple[str, ...] = ()


class WeaponDropped(_Event, frozen=True, kw_only=True, tag="scentfinder.weapon_dropped"):
    """A held weapon falls to the ground in an area (Disarm, Release)."""

    combatant: str
    weapon: str
    area: str | None = None


class FpChanged(_Event, frozen=True, kw_only=True, tag="scentfinder.fp_changed"):
    """A combatant's FP after spending or regaining them (Sustain, Refocus)."""

    combatant: str
    fp_after: int
    reason: str


class PersistentChanged(_Event, frozen=True, kw_only=True, tag="scentfinder.persistent_changed"):
    """A combatant's instances of persistent damage after a change."""

    combatant: str
    persistent_after: tuple[int, ...]
    reason: str


class DeathsDoorChanged(_Event, frozen=True, kw_only=True, tag="scentfinder.deaths_door_changed"):
    """A combatant reaches or leaves Death's Door, with HP after (SCF-A20)."""

    combatant: str
    deaths_door: bool
    hp_after: int
    dd_action_loss: int = 0
    reason: str


class ActionsGranted(_Event, frozen=True, kw_only=True, tag="scentfinder.actions_granted"):
    """Command: a minion gains actions to spend during its commander's turn (SCF-26)."""

    minion: str
    by: str
    actions: int


class Ruling(_Event, frozen=True, kw_only=True, tag="scentfinder.ruling"):
    """A GM ruling with its reason; every value it sets is in the event."""

    reason: str
    combatant: str | None = None
    hp: int | None = None
    fp: int | None = None
    deaths_door: bool | None = None
    dd_action_loss: int | None = None
    persistent: tuple[int, ...] | None = None
    area: str | None = None
    condition_added: Condition | None = None
    condition_removed: str | None = None
    sheet: SheetChange | None = None


class GmRolled(_Event, frozen=True, kw_only=True, tag="scentfinder.gm_rolled"):
    """The GM rolled a die for something the text leaves to the table."""

    label: str
    rolls: tuple[RollRecord, ...] = ()


class CombatEnded(_Event, frozen=True, kw_only=True, tag="scentfinder.combat_ended"):
    """The fight is over, in the round it ended."""

    round: int


Event = (
    AreaDefined
    | CombatantAdded
    | CombatantRemoved
    | InitiativeSet
    | CombatBegan
    | RoundStarted
    | TurnStarted
    | Delayed
    | PhaseReordered
    | ActionTaken
    | ActionResolved
    | ConditionAdded
    | ConditionRemoved
    | ConditionChanged
    | Moved
    | HazardTriggered
    | SaveMade
    | TurnEnded
    | WeaponDropped
    | FpChanged
    | PersistentChanged
    | DeathsDoorChanged
    | ActionsGranted
    | Ruling
    | GmRolled
    | CombatEnded
)

EVENT_TYPES: tuple[type[Event], ...] = (
    AreaDefined,
    CombatantAdded,
    CombatantRemoved,
    InitiativeSet,
    CombatBegan,
    RoundStarted,
    TurnStarted,
    Delayed,
    PhaseReordered,
    ActionTaken,
    ActionResolved,
    ConditionAdded,
    ConditionRemoved,
    ConditionChanged,
    Moved,
    HazardTriggered,
    SaveMade,
    TurnEnded,
    WeaponDropped,
    FpChanged,
    PersistentChanged,
    DeathsDoorChanged,
    ActionsGranted,
    Ruling,
    GmRolled,
    CombatEnded,
)
