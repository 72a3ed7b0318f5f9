"""The folded state of an Untold Aeons encounter: the sheets, the two karma pools, the
round with its Fast and Slow turns, an attack waiting for its defence, checks the
Narrator called, and what karma bought for someone's next roll.

Everything is frozen; ``evolve`` builds new values and never mutates a dict.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.dice.model import Modifier, RollRecord
from service.rulesets.untold_aeons.options import UntoldOptions

Speed = Literal["fast", "slow"]
Category = Literal["violence", "helplessness", "unnatural"]
CATEGORIES: tuple[Category, ...] = ("violence", "helplessness", "unnatural")
Condition = Literal["prone", "moving", "partial_cover", "unaware", "medical_care"]
Phase = Literal["setup", "choosing", "acting", "ended"]
Status = Literal["active", "severely_injured", "broken", "dead"]
"""``broken``: failed the save at twice the stress limit (temporarily insane or
unconscious, the Narrator says which): out of the fight until a ruling says otherwise."""

CHARACTERISTICS = ("dexterity", "toughness", "willpower", "intellect")
STANDARD_SKILLS = (
    "athletics",
    "driving",
    "first_aid",
    "investigation",
    "knowledge",
    "perception",
    "stealth",
    "streetwise",
    "survival",
    "charm",
    "deception",
    "insight",
    "intimidation",
    "persuasion",
    "brawl",
    "firearms",
    "english",
)
"""UAE-12: every standard skill starts at 1."""


class Weapon(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon on the sheet (UAE-A21: the text has no weapon table, these are inputs).

    ``plus``: a '+' weapon adds the wielder's Toughness to its base (UAE-40). ``range``
    in yards makes it a firearm; without it the weapon is a melee weapon. ``rapid_fire``
    is the N of the trait Rapid Fire N. ``skill`` defaults to Firearms or Brawl."""

    base: int = 0
    plus: bool = False
    piercing: int = 0
    range: int | None = None
    rapid_fire: int | None = None
    skill: str | None = None

    @property
    def ranged(self) -> bool:
        return self.range is not None

    @property
    def skill_name(self) -> str:
        return self.skill or ("firearms" if self.ranged else "brawl")


UNARMED = Weapon(base=0, plus=True)
"""UAE-40: unarmed attacks are '0+', the wielder's Toughness."""


class Hardened(msgspec.Struct, frozen=True, kw_only=True):
    """UAE-20: a hardened level and notches (three notches make a level) per category."""

    level: int = 0
    notches: int = 0


class Character(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    side: str
    pc: bool = True
    dexterity: int
    toughness: int
    willpower: int
    intellect: int
    skills: dict[str, int] = {}
    """The sheet's skills; standard skills missing here are at 1 (UAE-12)."""
    weapons: dict[str, Weapon] = {}
    xp: int = 0
    damage: int = 0
    stress: int = 0
    shaken: bool = False
    status: Status = "active"
    conditions: tuple[Condition, ...] = ()
    hardened: dict[str, Hardened] = {}
    stress_limit: int
    """UAE-02: 10 + Willpower, kept in the state so every reader sees it."""
    wound_limit: int
    """UAE-02, UAE-A22: 10 + Toughness, the text's "Health" and "wound limit" alike."""
    move_speed: int
    """UAE-02: 5 + Dexterity, yards a round."""

    @property
    def can_act(self) -> bool:
        return self.status == "active"

    def has(self, condition: Condition) -> bool:
        return condition in self.conditions

    def rating(self, trait: str) -> int | None:
        """A characteristic, a skill on the sheet, a standard skill (1), or None."""
        if trait in CHARACTERISTICS:
            return int(getattr(self, trait))
        if trait in self.skills:
            return self.skills[trait]
        if trait in STANDARD_SKILLS:
            return 1
        return None

    def weapon(self, name: str) -> Weapon | None:
        if name == "unarmed":
            return self.weapons.get(name, UNARMED)
        return self.weapons.get(name)


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """One slot of the turn order: everyone of one side with the same turn type."""

    speed: Speed
    side: str
    initiating: bool
    characters: tuple[str, ...]


class Boost(msgspec.Struct, frozen=True, kw_only=True):
    """What karma bought for a character's next pool roll (UAE-04, UAE-05)."""

    skill: int = 0
    difficulty: int = 0


class Distance(msgspec.Struct, frozen=True, kw_only=True):
    yards: int
    point_blank: bool = False


class PendingAttack(msgspec.Struct, frozen=True, kw_only=True):
    """An attack waiting for the defender's answer (Dodge / Defend / Fight Back for
    melee, dive for cover or not for gunfire)."""

    attacker: str
    target: str
    weapon: str
    ranged: bool
    rapid_fire: bool = False
    difficulty: int = 0
    modifiers: tuple[Modifier, ...] = ()
    """What a shot's ``difficulty`` is made of (range, conditions, the Narrator's)."""


class CalledCheck(msgspec.Struct, frozen=True, kw_only=True):
    """A check the Narrator called for (UAE-06); ``behind_screen``: the Narrator rolls
    the difficulty dice in secret (UAE-11)."""

    label: str
    trait: str
    knowledge_for: str | None = None
    """Knowledge rolled for this specific knowledge skill, with 2 penalty dice."""
    difficulty: int
    behind_screen: bool = False
    skill_roll: str | None = None
    """Behind the screen: the roll id of the skill dice, once rolled."""
    skill_faces: tuple[int, ...] = ()
    untrained: bool = False
    spoken: str = ""
    difficulty_label: str | None = None


class LastCheck(msgspec.Struct, frozen=True, kw_only=True):
    """The last resolved called check of a character, for a karma reroll (UAE-A6)."""

    label: str
    skill_dice: int
    untrained: bool
    spoken: str
    difficulty_faces: tuple[int, ...]
    rerolled: bool = False
    difficulty_label: str | None = None


RerollKind = Literal["attack", "sanity", "recovery", "limit"]


class OpenRolls(msgspec.Struct, frozen=True, kw_only=True):
    """The rolls of the last roll with consequences (an attack with its defence, a sanity
    check, a daily recovery, a check above a limit, each with the checks that followed it),
    open to a karma reroll until anything else happens at the table (UAE-04, UAE-A6).

    ``before`` is the state before those rolls: a reroll decides the same thing again from
    it, with the rerolled dice new and every other roll kept (``records``)."""

    kind: RerollKind
    before: State
    records: tuple[RollRecord, ...] = ()
    character: str = ""
    """sanity / recovery / limit: whose roll started it."""
    response: str = "none"
    back_weapon: str = "unarmed"
    cause: str = ""
    difficulty: int = 0
    category: Category = "unnatural"
    track: Literal["stress", "wounds"] = "wounds"
    rerolled_by: tuple[str, ...] = ()
    """Who has rerolled in these rolls: each character once (UAE-A6)."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: UntoldOptions
    characters: dict[str, Character] = {}
    karma_players: int = 0
    karma_narrator: int = 1
    """UAE-03: the Narrator starts with one point, the players one per player."""
    phase: Phase = "setup"
    round: int | None = None
    initiating_side: str | None = None
    turns: dict[str, Speed] = {}
    slots: tuple[Slot, ...] = ()
    """The turn order of this round, slot by slot (Fast initiating, Fast defending,
    Slow initiating, Slow defending)."""
    done: tuple[str, ...] = ()
    used_action: tuple[str, ...] = ()
    used_move: tuple[str, ...] = ()
    distances: dict[str, Distance] = {}
    pending: PendingAttack | None = None
    called: dict[str, CalledCheck] = {}
    last_check: dict[str, LastCheck] = {}
    open_rolls: OpenRolls | None = None
    boosts: dict[str, Boost] = {}


def initial_state(options: UntoldOptions) -> State:
    return State(options=options)


def round_of(state: State) -> int | None:
    return state.round


def pair_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))
