"""The events of Untold Aeons: the facts the event store keeps forever.

Tags (``untold-aeons.attack_resolved`` ...) never change. Events carry every number
``decide`` worked out (damage and stress after, the turn order, pools after a karma
spend), so ``evolve`` never applies a rule and never rolls. Dice live in ``rolls``.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.dice.model import Modifier, RollRecord
from service.rulesets.untold_aeons.state import (
    Category,
    Condition,
    Hardened,
    Slot,
    Speed,
    Status,
    Weapon,
)


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every Untold Aeons event."""


class CharacterAdded(_Event, frozen=True, kw_only=True, tag="untold-aeons.character_added"):
    """A character joined with the sheet and the limits derived from it (UAE-01, UAE-02)."""

    character: str
    name: str
    side: str
    pc: bool
    dexterity: int
    toughness: int
    willpower: int
    intellect: int
    skills: dict[str, int] = {}
    weapons: dict[str, Weapon] = {}
    stress_limit: int
    wound_limit: int
    move_speed: int
    xp: int = 0
    stress: int = 0
    damage: int = 0
    hardened: dict[str, Hardened] = {}
    """Where the character starts: stress and damage already taken, hardened levels and
    notches already earned (a character joining mid-story)."""
    karma_players: int
    """The players' pool after: one point per player character (UAE-03)."""


class DistanceSet(_Event, frozen=True, kw_only=True, tag="untold-aeons.distance_set"):
    """The Narrator set how far apart two combatants are (yards or point blank)."""

    a: str
    b: str
    yards: int
    point_blank: bool = False


class RoundStarted(_Event, frozen=True, kw_only=True, tag="untold-aeons.round_started"):
    """A round began; ``initiating_side`` goes first within each turn speed."""

    round: int
    initiating_side: str
    choosing: bool = True
    """False when turn types are kept from round 1 (turn_type_choice = once)."""


class TurnChosen(_Event, frozen=True, kw_only=True, tag="untold-aeons.turn_chosen"):
    """A character chose a Fast or a Slow turn for the round."""

    character: str
    speed: Speed


class TurnsOrdered(_Event, frozen=True, kw_only=True, tag="untold-aeons.turns_ordered"):
    """UAE-27: Fast initiating > Fast defending > Slow initiating > Slow defending."""

    slots: tuple[Slot, ...]


class Moved(_Event, frozen=True, kw_only=True, tag="untold-aeons.moved"):
    """A character moved, ran (a sustained run) or sprinted ``yards``; ``limit`` is how
    far it could go (UAE-02)."""

    character: str
    yards: int
    sprint: bool = False
    run: bool = False
    limit: int


class StoodUp(_Event, frozen=True, kw_only=True, tag="untold-aeons.stood_up"):
    """A character got up from prone, spending the action (UAE-33)."""

    character: str


class TurnEnded(_Event, frozen=True, kw_only=True, tag="untold-aeons.turn_ended"):
    """A character's turn is over."""

    character: str


class AttackDeclared(_Event, frozen=True, kw_only=True, tag="untold-aeons.attack_declared"):
    """An attack waiting for its defence (or resolved at once when none is possible).
    For a shot, ``difficulty`` is the range band plus ``modifiers`` (UAE-32)."""

    attacker: str
    target: str
    weapon: str
    ranged: bool
    rapid_fire: bool = False
    difficulty: int = 0
    modifiers: tuple[Modifier, ...] = ()


class Hit(msgspec.Struct, frozen=True, kw_only=True):
    """One hit: damage dealt = base (doubled on a critical) + successes before
    cancelling; taken = dealt - max(0, Toughness - Piercing), never below 0."""

    base: int
    critical: bool
    successes: int
    dealt: int
    reduction: int
    taken: int


class AttackResolved(_Event, frozen=True, kw_only=True, tag="untold-aeons.attack_resolved"):
    """The rolls of an attack and what they decided: the result, the hits and
    the damage of whoever was struck (UAE-28..UAE-40)."""

    attacker: str
    target: str
    weapon: str
    response: str
    result: Literal["hit", "miss", "defended", "fought_back", "nothing"]
    hits: tuple[Hit, ...] = ()
    struck: str | None = None
    """Who takes the damage: the target, or the attacker on a Fight Back win."""
    damage_after: int | None = None
    prone: tuple[str, ...] = ()
    """Who ends prone: a Dodge always, a dive for cover (UAE-28, UAE-33, UAE-A20)."""
    back_weapon: str | None = None
    """The weapon a Fight Back used (so a karma reroll can decide the fight again)."""
    rolls: tuple[RollRecord, ...]


class LimitChecked(_Event, frozen=True, kw_only=True, tag="untold-aeons.limit_checked"):
    """The check above a limit (UAE-16, UAE-18, UAE-21, UAE-23): Toughness for wounds,
    Intellect for stress, one difficulty die per point over the limit (or twice it)."""

    character: str
    track: Literal["wounds", "stress"]
    level: Literal["limit", "twice"]
    value: int
    threshold: int
    difficulty: int
    passed: bool
    status_after: Status
    shaken_after: bool
    rolls: tuple[RollRecord, ...]


class Bled(_Event, frozen=True, kw_only=True, tag="untold-aeons.bled"):
    """A Severely Injured character loses 1 to bleeding (UAE-22, UAE-A13)."""

    character: str
    damage_after: int


class CheckCalled(_Event, frozen=True, kw_only=True, tag="untold-aeons.check_called"):
    """The Narrator called for a check: a trait against difficulty dice, maybe
    with the difficulty dice behind the screen (UAE-11)."""

    character: str
    label: str
    trait: str
    knowledge_for: str | None = None
    difficulty: int
    behind_screen: bool = False


class CheckRolled(_Event, frozen=True, kw_only=True, tag="untold-aeons.check_rolled"):
    """A called check rolled in the open; the outcome is on the roll record."""

    character: str
    label: str
    succeeded: bool
    rolls: tuple[RollRecord, ...]


class SkillDiceRolled(_Event, frozen=True, kw_only=True, tag="untold-aeons.skill_dice_rolled"):
    """The player's half of a behind-the-screen check: skill dice only, no outcome yet.
    ``difficulty``: the difficulty dice the Narrator will roll (with karma's +2)."""

    character: str
    label: str
    difficulty: int
    rolls: tuple[RollRecord, ...]
    difficulty_label: str | None = None
    """The difficulty's named parts (karma's +2), spoken when its dice are rolled."""


class DifficultyRolled(_Event, frozen=True, kw_only=True, tag="untold-aeons.difficulty_rolled"):
    """The Narrator's difficulty dice behind the screen (UAE-11). The outcome lives only
    on the roll record (``outcome`` and ``pool``), so it stays secret until revealed."""

    character: str
    label: str
    rolls: tuple[RollRecord, ...]


class CheckRerolled(_Event, frozen=True, kw_only=True, tag="untold-aeons.check_rerolled"):
    """A karma reroll: the character's own dice again, the difficulty dice kept."""

    character: str
    label: str
    succeeded: bool
    rolls: tuple[RollRecord, ...]


class CharacterAfter(msgspec.Struct, frozen=True, kw_only=True):
    """A character's values once a reroll decided a roll again."""

    character: str
    damage: int
    stress: int
    shaken: bool
    status: Status
    conditions: tuple[Condition, ...] = ()
    hardened: dict[str, Hardened] = {}


class RollRerolled(_Event, frozen=True, kw_only=True, tag="untold-aeons.roll_rerolled"):
    """A karma reroll (UAE-04, UAE-A6) of a roll with consequences: an attack or its
    defence, a sanity check, a daily recovery, a check above a limit. The character's own
    dice are rolled again (difficulty dice and the other side's roll kept), and the same
    thing is decided again from the state before the roll: ``result`` says what it decides
    now and ``after`` replaces the values the first result set (damage, stress, Shaken,
    status, prone, notches). ``rolls`` are the new rolls only: the rerolled dice and any
    check that follows the new result (a check asked for again unchanged keeps its dice);
    ``sequence`` lists the roll ids the result now rests on."""

    character: str
    label: str
    replaced: str
    """The roll id of the roll rerolled."""
    result: str
    sequence: tuple[str, ...]
    after: tuple[CharacterAfter, ...]
    rolls: tuple[RollRecord, ...]


class SanityChecked(_Event, frozen=True, kw_only=True, tag="untold-aeons.sanity_checked"):
    """UAE-14, UAE-A15, UAE-A16: stress gained = difficulty (+ failures before cancelling
    on a failure) - hardened level in the category, never below 0."""

    character: str
    cause: str
    category: Category
    difficulty: int
    succeeded: bool
    computed: int
    hardened: int
    gained: int
    stress_after: int
    rolls: tuple[RollRecord, ...]
    amplified: bool = False
    """UAE-17: its Advantage or Drawback is amplified and longer-lasting, because the
    character was Shaken when rolling or this check is the one that made them Shaken."""


class NotchGained(_Event, frozen=True, kw_only=True, tag="untold-aeons.notch_gained"):
    """UAE-20: an Advantage on a sanity check while Shaken: a hardened notch."""

    character: str
    category: Category
    notches: int
    level: int


class KarmaSpent(_Event, frozen=True, kw_only=True, tag="untold-aeons.karma_spent"):
    """A karma point spent (UAE-03..05); the pools after the point moved."""

    by: str | None
    pool: Literal["players", "narrator"]
    use: str
    target: str | None = None
    note: str = ""
    karma_players: int
    karma_narrator: int


class Recovered(_Event, frozen=True, kw_only=True, tag="untold-aeons.recovered"):
    """UAE-19, UAE-25: the daily check and what it took off."""

    character: str
    track: Literal["stress", "wounds"]
    halved: bool
    amount: int
    after: int
    shaken_after: bool
    rolls: tuple[RollRecord, ...]


class Advanced(_Event, frozen=True, kw_only=True, tag="untold-aeons.advanced"):
    """A skill or characteristic raised with xp (UAE-13)."""

    character: str
    trait: str
    previous: int
    value: int
    cost: int
    xp_after: int
    source: str = ""


class ValueSet(_Event, frozen=True, kw_only=True, tag="untold-aeons.value_set"):
    """A Narrator ruling set damage, stress, xp or a karma pool."""

    character: str | None
    field: str
    value: int
    previous: int
    shaken_after: bool | None = None
    reason: str


class ConditionSet(_Event, frozen=True, kw_only=True, tag="untold-aeons.condition_set"):
    """A Narrator ruling put a condition on a character or took it off."""

    character: str
    condition: Condition
    on: bool
    reason: str


class StatusSet(_Event, frozen=True, kw_only=True, tag="untold-aeons.status_set"):
    """A Narrator ruling set a character's status or Shaken."""

    character: str
    status: Status
    shaken: bool
    reason: str


class EffectRuled(_Event, frozen=True, kw_only=True, tag="untold-aeons.effect_ruled"):
    """A Narrator ruling on an Advantage, a Drawback, a phobia or a mania."""

    character: str
    effect: str
    reason: str


class EncounterEnded(_Event, frozen=True, kw_only=True, tag="untold-aeons.encounter_ended"):
    """The encounter is over."""

    round: int | None


Event = (
    CharacterAdded
    | DistanceSet
    | RoundStarted
    | TurnChosen
    | TurnsOrdered
    | Moved
    | StoodUp
    | TurnEnded
    | AttackDeclared
    | AttackResolved
    | LimitChecked
    | Bled
    | CheckCalled
    | CheckRolled
    | SkillDiceRolled
    | DifficultyRolled
    | CheckRerolled
    | RollRerolled
    | SanityChecked
    | NotchGained
    | KarmaSpent
    | Recovered
    | Advanced
    | ValueSet
    | ConditionSet
    | StatusSet
    | EffectRuled
    | EncounterEnded
)

EVENT_TYPES: tuple[type[Event], ...] = (
    CharacterAdded,
    DistanceSet,
    RoundStarted,
    TurnChosen,
    TurnsOrdered,
    Moved,
    StoodUp,
    TurnEnded,
    AttackDeclared,
    AttackResolved,
    LimitChecked,
    Bled,
    CheckCalled,
    CheckRolled,
    SkillDiceRolled,
    DifficultyRolled,
    CheckRerolled,
    RollRerolled,
    SanityChecked,
    NotchGained,
    KarmaSpent,
    Recovered,
    Advanced,
    ValueSet,
    ConditionSet,
    StatusSet,
    EffectRuled,
    EncounterEnded,
)
