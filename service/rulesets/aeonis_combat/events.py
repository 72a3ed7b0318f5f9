"""The events of the ``aeonis`` ruleset: the facts the event store keeps forever.

Tags (``aeonis.attack_declared`` ...) are the stored type names and never change.  Events
carry every number ``decide`` worked out (hp after each strike, AP after paying, the
step the battle moves to), so ``evolve`` never applies a rule and never rolls.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.dice.model import RollRecord
from service.rulesets.aeonis_combat.state import Hex, LordAbility, LordSheet, Step


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every aeonis event: frozen, keyword-only, tagged on ``type``."""


class HexesAdded(_Event, frozen=True, kw_only=True, tag="aeonis.hexes_added"):
    """Hexes joined the map in play, with their kind and control."""

    hexes: dict[str, Hex]


class SideAdded(_Event, frozen=True, kw_only=True, tag="aeonis.side_added"):
    """A side (player) joined with its resources, Home City and Lord, placed at ``lord_hex``."""

    side: str
    name: str
    lord: str
    sheet: LordSheet
    lord_hex: str | None
    home_city: str | None = None
    ap: int = 0
    renown: int = 0
    vp: int = 0


class UnitPlaced(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    kind: Literal["infantry", "cavalry", "archers"]
    hp: int


class UnitsAdded(_Event, frozen=True, kw_only=True, tag="aeonis.units_added"):
    """Units of a side were placed in a hex at full hit points."""

    side: str
    hex: str
    units: tuple[UnitPlaced, ...]


class UnitsMoved(_Event, frozen=True, kw_only=True, tag="aeonis.units_moved"):
    """Units of a side moved to ``to``."""

    side: str
    units: tuple[str, ...]
    to: str
    left_battle: tuple[str, ...] = ()
    """Committed units that are no longer adjacent to their battle and so left it."""


class RoundStarted(_Event, frozen=True, kw_only=True, tag="aeonis.round_started"):
    """Round Start of game round ``round``; ``ap`` is each side's AP after the reset."""

    round: int
    ap: dict[str, int] = {}


class LordHealed(_Event, frozen=True, kw_only=True, tag="aeonis.lord_healed"):
    """A Lord healed to full HP at Round Start (2.1.3)."""

    lord: str
    hp: int


class LordReleased(_Event, frozen=True, kw_only=True, tag="aeonis.lord_released"):
    """A captured Lord returns at full HP to ``hex`` (its Home City), or off the map for
    the GM to place when the Home City is gone or held by another side (AEC-A15)."""

    lord: str
    hex: str | None
    hp: int


class CleanupDone(_Event, frozen=True, kw_only=True, tag="aeonis.cleanup_done"):
    """Cleanup & Checks of game round ``round``: the Action Phase is over."""

    round: int


class AttackDeclared(_Event, frozen=True, kw_only=True, tag="aeonis.attack_declared"):
    """A new battle: the attacker paid, committed and formed its line (3.1-3.3)."""

    hex: str
    side: str
    defender: str
    cap: int
    siege: bool
    """True for a Fortress (the defender is assumed to Hold the Walls)."""
    assault: bool = False
    line: tuple[str, ...]
    reserves: tuple[str, ...] = ()
    ap_spent: int
    ap_after: int


class AttackRenewed(_Event, frozen=True, kw_only=True, tag="aeonis.attack_renewed"):
    """Another Attack action against a paused battle (a new siege round, 6.2)."""

    hex: str
    side: str
    reinforcements: tuple[str, ...] = ()
    ap_spent: int
    ap_after: int
    step: Step


class DefenceDeclared(_Event, frozen=True, kw_only=True, tag="aeonis.defence_declared"):
    """The defender's commitment (or siege reinforcements) and line; lines are formed."""

    hex: str
    side: str
    line: tuple[str, ...] = ()
    reserves: tuple[str, ...] = ()
    siege: bool
    """Whether the battle is a siege from now on (Hold the Walls, 6.1)."""
    targets: dict[str, str] = {}


class TargetsSet(_Event, frozen=True, kw_only=True, tag="aeonis.targets_set"):
    """A side chose the enemy Battle Line units its strikers target."""

    hex: str
    side: str
    targets: dict[str, str]


class ReinforceChosen(_Event, frozen=True, kw_only=True, tag="aeonis.reinforce_chosen"):
    """A side chose the Reserves it promotes in the coming round's Reinforce (4.1);
    an empty ``promote`` promotes none."""

    hex: str
    side: str
    promote: tuple[str, ...] = ()


class Strike(msgspec.Struct, frozen=True, kw_only=True):
    """One unit's roll against its target: Attack Die vs Defense Die (4.3)."""

    step: Literal["pre_strike", "strike", "counterstrike"]
    striker: str
    target: str
    attack: int
    defense: int
    damage: int
    target_hp: int
    """The target's hit points after the strike."""
    attack_roll: str
    defense_roll: str


class BattleRoundFought(_Event, frozen=True, kw_only=True, tag="aeonis.battle_round_fought"):
    """Steps 1-4 of a battle round; the Retreat Check (step 5) comes next."""

    hex: str
    number: int
    """Battle round number within this battle."""
    promoted: dict[str, tuple[str, ...]] = {}
    """Side -> Reserves promoted to its Battle Line in Reinforce (4.1)."""
    strikes: tuple[Strike, ...] = ()
    destroyed: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()
    """Lords reduced to 0 HP: captured, not destroyed (2.1.4)."""
    rolls: tuple[RollRecord, ...]


class LordCaptured(_Event, frozen=True, kw_only=True, tag="aeonis.lord_captured"):
    """A Lord at 0 HP was captured by ``by``, who gained +2 Renown and +1 VP (2.1.4)."""

    lord: str
    by: str
    renown_after: int
    vp_after: int


class Retreated(_Event, frozen=True, kw_only=True, tag="aeonis.retreated"):
    """A side retreats at the Retreat Check. The attacker's units stay in their origin
    hexes; a defender's ``moved`` units go to ``to``."""

    hex: str
    side: str
    to: str | None = None
    moved: tuple[str, ...] = ()


class Stood(_Event, frozen=True, kw_only=True, tag="aeonis.stood"):
    """A side did not retreat at the Retreat Check."""

    hex: str
    side: str
    step: Step
    """Where the battle goes next: the defender's Retreat Check, the attacker's choice,
    or (in an Assault) the next battle round."""


class Pressed(_Event, frozen=True, kw_only=True, tag="aeonis.pressed"):
    """The attacker Pressed the Attack: paid, and one more battle round follows (4.0)."""

    hex: str
    side: str
    ap_spent: int
    ap_after: int
    reinforcements: tuple[str, ...] = ()
    step: Step


class AttackActionEnded(_Event, frozen=True, kw_only=True, tag="aeonis.attack_action_ended"):
    """The Attack action is over; the battle (a siege) pauses until the next one."""

    hex: str


BattleOutcome = Literal[
    "defender_held",
    "dissolved",
    "siege_lifted",
    "siege_ended",
    "defender_retreated",
    "ruling",
]


class BattleWon(_Event, frozen=True, kw_only=True, tag="aeonis.battle_won"):
    """The attacker won: it controls the hex and occupation follows (5.1, 6.5)."""

    hex: str
    side: str
    reason: str | None = None
    """Set for a GM ruling."""
    siege_removed: bool = False
    """The Siege marker goes with the capture (6.5), before the occupation."""


class HexOccupied(_Event, frozen=True, kw_only=True, tag="aeonis.hex_occupied"):
    """The victorious attacker's units move in; the battle is over."""

    hex: str
    side: str
    units: tuple[str, ...] = ()
    healed: tuple[str, ...] = ()
    """Non-Lord units restored to full hp (unit_damage_persists = false)."""


class BattleEnded(_Event, frozen=True, kw_only=True, tag="aeonis.battle_ended"):
    """The battle is over without a change of control; every surviving unit is where it
    was (committed units never left their origin hexes)."""

    hex: str
    outcome: BattleOutcome
    healed: tuple[str, ...] = ()
    reason: str | None = None
    """Why, when the outcome alone does not say: a GM ruling's reason, or the rule that
    ended the battle (a siege with no attacker left adjacent)."""


class SideValueSet(_Event, frozen=True, kw_only=True, tag="aeonis.side_value_set"):
    """GM ruling: a side's AP, Renown or VP set to ``value``."""

    side: str
    field: str
    value: int
    previous: int
    reason: str


class UnitHpSet(_Event, frozen=True, kw_only=True, tag="aeonis.unit_hp_set"):
    """GM ruling: a unit's hit points set."""

    unit: str
    hp: int
    previous: int
    reason: str


class UnitRemoved(_Event, frozen=True, kw_only=True, tag="aeonis.unit_removed"):
    """GM ruling: a unit taken off the board and out of every battle."""

    unit: str
    reason: str


class HexSet(_Event, frozen=True, kw_only=True, tag="aeonis.hex_set"):
    """GM ruling: a hex's control and flags set."""

    hex: str
    controller: str | None
    contested: bool
    attackable: bool
    reason: str


class RetreatAllowed(_Event, frozen=True, kw_only=True, tag="aeonis.retreat_allowed"):
    """GM ruling: the defenders of a City/Fortress may retreat (a card, spell or motion)."""

    hex: str
    reason: str


class LordAbilityUsed(_Event, frozen=True, kw_only=True, tag="aeonis.lord_ability_used"):
    """A side used an ability of its Lord Sheet; the GM applies ``effect`` (2.1.1)."""

    side: str
    lord: str
    ability: str
    timing: str
    effect: str
    hex: str | None = None
    note: str | None = None
    uses: int = 1
    """Uses of this ability in the current game round, this one included."""


class LordAbilitiesSet(_Event, frozen=True, kw_only=True, tag="aeonis.lord_abilities_set"):
    """GM: a side's Lord Sheet now lists these abilities."""

    side: str
    abilities: tuple[LordAbility, ...] = ()


Event = (
    HexesAdded
    | SideAdded
    | UnitsAdded
    | UnitsMoved
    | RoundStarted
    | LordHealed
    | LordReleased
    | CleanupDone
    | AttackDeclared
    | AttackRenewed
    | DefenceDeclared
    | TargetsSet
    | ReinforceChosen
    | BattleRoundFought
    | LordCaptured
    | Retreated
    | Stood
    | Pressed
    | AttackActionEnded
    | BattleWon
    | HexOccupied
    | BattleEnded
    | SideValueSet
    | UnitHpSet
    | UnitRemoved
    | HexSet
    | RetreatAllowed
    | LordAbilityUsed
    | LordAbilitiesSet
)

EVENT_TYPES: tuple[type[Event], ...] = (
    HexesAdded,
    SideAdded,
    UnitsAdded,
    UnitsMoved,
    RoundStarted,
    LordHealed,
    LordReleased,
    CleanupDone,
    AttackDeclared,
    AttackRenewed,
    DefenceDeclared,
    TargetsSet,
    ReinforceChosen,
    BattleRoundFought,
    LordCaptured,
    Retreated,
    Stood,
    Pressed,
    AttackActionEnded,
    BattleWon,
    HexOccupied,
    BattleEnded,
    SideValueSet,
    UnitHpSet,
    UnitRemoved,
    HexSet,
    RetreatAllowed,
    LordAbilityUsed,
    LordAbilitiesSet,
)
