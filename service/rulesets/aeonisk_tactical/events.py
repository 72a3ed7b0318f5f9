"""The events of the Aeonisk ruleset: the facts the event store keeps forever.

Tags (``aeonisk.declared`` ...) are the stored names and never change.  Events carry
every number ``decide`` worked out (wounds after a hit, the Initiative after a Shock, the
bands after a move), so ``evolve`` never applies a rule and never rolls.  Events with
dice carry them in ``rolls``.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.dice.model import RollRecord
from service.rulesets.aeonisk_tactical.fields import Band, Slot, SuppressChoice, TokenKind
from service.rulesets.aeonisk_tactical.plan import AnyAction, Declaration
from service.rulesets.aeonisk_tactical.state import BandChange, Pairing, PendingMove, Watch, Weapon

AttackKind = Literal["attack", "charge", "suppress", "overwatch", "free_strike"]
PhaseName = Literal["fast", "slow", "cleanup"]


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every Aeonisk event."""


class CharacterAdded(_Event, frozen=True, kw_only=True, tag="aeonisk.character_added"):
    """A character joined with their sheet."""

    character: str
    name: str
    side: str
    pc: bool
    attributes: dict[str, int]
    skills: dict[str, int] = {}
    soak: int
    void: int = 0
    bonds: tuple[str, ...] = ()
    weapons: dict[str, Weapon] = {}
    defence: Pairing | None = None
    static_defence: int | None = None
    zone: str | None = None
    parry: Pairing | None = None


class CharacterRemoved(_Event, frozen=True, kw_only=True, tag="aeonisk.character_removed"):
    """A character left the encounter: their bands, declaration and held token go."""

    character: str


class BandSet(_Event, frozen=True, kw_only=True, tag="aeonisk.band_set"):
    """The GM set the band between two characters."""

    a: str
    b: str
    band: Band


class ZoneEntered(_Event, frozen=True, kw_only=True, tag="aeonisk.zone_entered"):
    """The GM placed a character in a zone of the map."""

    character: str
    zone: str


class TokenPlaced(_Event, frozen=True, kw_only=True, tag="aeonisk.token_placed"):
    """The GM placed a Tactical Token on the table (section 5), unclaimed."""

    token: str
    kind: TokenKind
    label: str


class RoundStarted(_Event, frozen=True, kw_only=True, tag="aeonisk.round_started"):
    """A round begins with its Declare Phase: Reactions and Defence Tokens refresh
    (AEK-30, AEK-A4) and last round's declarations are cleared.  ``awaiting`` are the
    characters who roll Initiative one at a time (``roll_initiative``) before anyone
    declares."""

    round: int
    awaiting: tuple[str, ...] = ()


class InitiativeEntry(msgspec.Struct, frozen=True, kw_only=True):
    character: str
    total: int
    natural_one: bool = False


class InitiativeRolled(_Event, frozen=True, kw_only=True, tag="aeonisk.initiative_rolled"):
    """Agility x 4 + d20 for each character (AEK-06); ``order`` is the resolution order
    (descending, ties by skill then Agility, AEK-09); declaring goes the other way."""

    results: tuple[InitiativeEntry, ...]
    order: tuple[str, ...]
    note: str | None = None
    rolls: tuple[RollRecord, ...]


class PhaseStarted(_Event, frozen=True, kw_only=True, tag="aeonisk.phase_started"):
    """A phase of the round begins: Fast (Reactions), Slow (declared actions) or Cleanup."""

    phase: PhaseName
    round: int


class Declared(_Event, frozen=True, kw_only=True, tag="aeonisk.declared"):
    """A character's declaration (AEK-13): no roll, no effect yet."""

    declaration: Declaration


class DeclarationLapsed(_Event, frozen=True, kw_only=True, tag="aeonisk.declaration_lapsed"):
    """The GM closed the Declare Phase before ``character`` declared: no action this
    round and no Defence Token allocated, so every attacker gains Flanking (AEK-32)."""

    character: str


class VoidSurgeDeclared(_Event, frozen=True, kw_only=True, tag="aeonisk.void_surge_declared"):
    """Void Surge added as a Free Action to a declared attack before its roll (AEK-63)."""

    character: str


class InitiativeRerolled(_Event, frozen=True, kw_only=True, tag="aeonisk.initiative_rerolled"):
    """A forfeited turn re-rolls Initiative, halved if it was 0 (AEK-12)."""

    character: str
    total: int
    rolls: tuple[RollRecord, ...]


class ActionBegan(_Event, frozen=True, kw_only=True, tag="aeonisk.action_began"):
    """A declared action starts resolving (Slow Phase)."""

    character: str
    slot: Slot
    action: AnyAction


class ActionFailed(_Event, frozen=True, kw_only=True, tag="aeonisk.action_failed"):
    """A declared action fails as the text says (AEK-17, AEK-54); it is spent."""

    character: str
    slot: Slot
    reason: str


class TokenClaimed(_Event, frozen=True, kw_only=True, tag="aeonisk.token_claimed"):
    """A character claimed a Tactical Token with a Minor action (AEK-41)."""

    character: str
    token: str
    returned: str | None = None
    """The token given back by a Swap."""


class TokenSpent(_Event, frozen=True, kw_only=True, tag="aeonisk.token_spent"):
    """A Tactical Token spent as a Reaction and discarded (AEK-39, AEK-40)."""

    character: str
    token: str
    kind: TokenKind
    target: str | None = None


class BondedDefenceGiven(_Event, frozen=True, kw_only=True, tag="aeonisk.bonded_defence"):
    """Bonded Defence committed as a Reaction: ``by`` gives ``ally`` +2 against ``attacker``."""

    by: str
    ally: str
    attacker: str


class ParryCommitted(_Event, frozen=True, kw_only=True, tag="aeonisk.parry"):
    """A Parry committed as the Reaction against a declared attack (AEK-14, AEK-21): the
    defence roll against it is Attribute x Skill + d20 + ``bonus`` (YAGS numbers)."""

    character: str
    attacker: str
    attribute: str
    skill: str
    bonus: int = 0


class HeroicBurnMade(_Event, frozen=True, kw_only=True, tag="aeonisk.heroic_burn"):
    """The Defence Token is burned: -4 this round, no refresh this combat (AEK-35)."""

    character: str
    foe: str
    reaction: bool


class AttackRolled(_Event, frozen=True, kw_only=True, tag="aeonisk.attack_rolled"):
    """An attack roll against a defence roll or static defence (AEK-A5)."""

    attacker: str
    target: str
    kind: AttackKind
    outcome: Literal["hit", "miss"]
    defence: int
    bonded_by: str | None = None
    """Who gave the target Bonded Defence against this attack (used up by it)."""
    backlash_used: bool = False
    """The target's Bonded Defence backlash (-2) went into this defence roll."""
    high_ground: bool = False
    """The attacker's spent High-Ground went into this attack roll."""
    parried: bool = False
    """The defence roll was the target's Parry against this attacker (used up by it)."""
    rolls: tuple[RollRecord, ...]


class DamageRolled(_Event, frozen=True, kw_only=True, tag="aeonisk.damage_rolled"):
    """Strength + weapon + d20 minus Soak; Wounds per AEK-67."""

    attacker: str
    target: str
    damage: int
    soak: int
    wounds: int
    wounds_after: int
    used: tuple[str, ...] = ()
    """One-shot bonuses this hit used up: cover, energy_hub, charge."""
    rolls: tuple[RollRecord, ...]


class FatalCheck(_Event, frozen=True, kw_only=True, tag="aeonisk.fatal_check"):
    """Health x 2 + d20 against 20 + 5 per Wound over 5 (AEK-68)."""

    character: str
    outcome: Literal["success", "failure"]
    dead: bool
    rolls: tuple[RollRecord, ...]


class CheckRolled(_Event, frozen=True, kw_only=True, tag="aeonisk.check_rolled"):
    """A task roll against a difficulty, with its success tiers (AEK-01..03)."""

    character: str
    label: str
    outcome: Literal["success", "failure"]
    tiers: int = 0
    used: tuple[str, ...] = ()
    """Bonuses the roll used up: ley_node, energy_hub."""
    rolls: tuple[RollRecord, ...]


class Moved(_Event, frozen=True, kw_only=True, tag="aeonisk.moved"):
    """A character moved: the bands that changed, or the zone entered on a zone map."""

    character: str
    changes: tuple[BandChange, ...] = ()
    zone: str | None = None


class ChargeMade(_Event, frozen=True, kw_only=True, tag="aeonisk.charge_made"):
    """A Charge reached Engaged: +2 to the first melee damage on ``foe`` this turn, -2 to
    the charger's defences until their next turn (AEK-58)."""

    character: str
    foe: str


class ProneChanged(_Event, frozen=True, kw_only=True, tag="aeonisk.prone_changed"):
    """A character fell or was knocked Prone, or stood up."""

    character: str
    prone: bool
    reason: str


class StunChanged(_Event, frozen=True, kw_only=True, tag="aeonisk.stun_changed"):
    """A character's Stun is now ``stun`` (Void Surge backlash, Bond Rally)."""

    character: str
    stun: int
    reason: str


class ShockSuffered(_Event, frozen=True, kw_only=True, tag="aeonisk.shock_suffered"):
    """A Shock (AEK-11): counted, and Initiative lowered when the size is known."""

    character: str
    initiative: int | None
    reason: str


class VoidChanged(_Event, frozen=True, kw_only=True, tag="aeonisk.void_changed"):
    """A character's Void score is now ``void`` (a GM ruling such as a Void Splash)."""

    character: str
    void: int
    reason: str


class OverwatchSet(_Event, frozen=True, kw_only=True, tag="aeonisk.overwatch_set"):
    """A character set up an Overwatch arc with a Minor action (AEK-59)."""

    character: str
    watch: Watch


class SuppressionPending(_Event, frozen=True, kw_only=True, tag="aeonisk.suppression_pending"):
    """A Suppress hit: ``target`` has to choose Dive or Hunker Down (AEK-57)."""

    target: str
    by: str


class SuppressionChosen(_Event, frozen=True, kw_only=True, tag="aeonisk.suppression_chosen"):
    """The suppressed character chose Dive or Hunker Down (AEK-57)."""

    character: str
    choice: SuppressChoice
    lost_cover: bool = False


class BreakawayOpened(_Event, frozen=True, kw_only=True, tag="aeonisk.breakaway_opened"):
    """A move out of Engaged without Disengage: ``foes`` may take a free strike (AEK-28).
    ``move`` is the move, held until the strikes are made while both are still Engaged;
    events stored without it opened the window after the move."""

    mover: str
    foes: tuple[str, ...]
    move: PendingMove | None = None


class BreakawayClosed(_Event, frozen=True, kw_only=True, tag="aeonisk.breakaway_closed"):
    """The free strikes of a Breakaway are over."""

    mover: str


class EffectsEnded(_Event, frozen=True, kw_only=True, tag="aeonisk.effects_ended"):
    """Lingering effects that ran out (Cleanup, or the character's next turn)."""

    character: str
    effects: tuple[str, ...]


class Obscured(_Event, frozen=True, kw_only=True, tag="aeonisk.obscured"):
    """A Vent was opened (AEK-46): obscurement until ``until_round``."""

    by: str
    label: str
    until_round: int


class ObscurementCleared(_Event, frozen=True, kw_only=True, tag="aeonisk.obscurement_cleared"):
    """GM ruling: the obscurement of opened Vents ends early."""

    reason: str | None = None


class ValueSet(_Event, frozen=True, kw_only=True, tag="aeonisk.value_set"):
    """GM ruling: a character's ``field`` set to ``value``."""

    character: str
    field: str
    value: int
    previous: int | None
    reason: str


class OutcomeOverridden(_Event, frozen=True, kw_only=True, tag="aeonisk.outcome_overridden"):
    """GM ruling: the outcome of a recent roll is changed; its consequences are not."""

    roll_id: str
    previous: str
    outcome: str
    reason: str


class EnergyNullified(_Event, frozen=True, kw_only=True, tag="aeonisk.energy_nullified"):
    """GM ruling: a banked Energy Hub bonus ends (AEK-A15)."""

    character: str
    reason: str


class ExtraTokenIgnored(_Event, frozen=True, kw_only=True, tag="aeonisk.extra_token_ignored"):
    """GM ruling: a second Defence Token changes nothing (AEK-37, AEK-A13)."""

    character: str
    reason: str


class EncounterEnded(_Event, frozen=True, kw_only=True, tag="aeonisk.encounter_ended"):
    """The encounter is over; only GM rulings follow."""


Event = (
    CharacterAdded
    | CharacterRemoved
    | BandSet
    | ZoneEntered
    | TokenPlaced
    | RoundStarted
    | InitiativeRolled
    | PhaseStarted
    | Declared
    | DeclarationLapsed
    | VoidSurgeDeclared
    | InitiativeRerolled
    | ActionBegan
    | ActionFailed
    | TokenClaimed
    | TokenSpent
    | BondedDefenceGiven
    | ParryCommitted
    | HeroicBurnMade
    | AttackRolled
    | DamageRolled
    | FatalCheck
    | CheckRolled
    | Moved
    | ChargeMade
    | ProneChanged
    | StunChanged
    | ShockSuffered
    | VoidChanged
    | OverwatchSet
    | SuppressionPending
    | SuppressionChosen
    | BreakawayOpened
    | BreakawayClosed
    | EffectsEnded
    | Obscured
    | ObscurementCleared
    | ValueSet
    | OutcomeOverridden
    | EnergyNullified
    | ExtraTokenIgnored
    | EncounterEnded
)

EVENT_TYPES: tuple[type[Event], ...] = (
    CharacterAdded,
    CharacterRemoved,
    BandSet,
    ZoneEntered,
    TokenPlaced,
    RoundStarted,
    InitiativeRolled,
    PhaseStarted,
    Declared,
    DeclarationLapsed,
    VoidSurgeDeclared,
    InitiativeRerolled,
    ActionBegan,
    ActionFailed,
    TokenClaimed,
    TokenSpent,
    BondedDefenceGiven,
    ParryCommitted,
    HeroicBurnMade,
    AttackRolled,
    DamageRolled,
    FatalCheck,
    CheckRolled,
    Moved,
    ChargeMade,
    ProneChanged,
    StunChanged,
    ShockSuffered,
    VoidChanged,
    OverwatchSet,
    SuppressionPending,
    SuppressionChosen,
    BreakawayOpened,
    BreakawayClosed,
    EffectsEnded,
    Obscured,
    ObscurementCleared,
    ValueSet,
    OutcomeOverridden,
    EnergyNullified,
    ExtraTokenIgnored,
    EncounterEnded,
)
