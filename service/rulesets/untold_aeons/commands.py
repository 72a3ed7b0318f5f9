"""The commands of Untold Aeons: what the Narrator (GM) and the players ask for.

Players act for their own investigators and name sheet entries only (a skill, a weapon,
a defence); every command that carries a number the rules do not derive (a difficulty,
a distance, a modifier) is the Narrator's (see ``access``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.dice.model import Modifier
from service.rulesets.untold_aeons.state import Category, Condition, Hardened, Speed, Weapon

Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^\S+$", examples=["mara"])]
Text = Annotated[str, Meta(min_length=1, max_length=200)]
Trait = Annotated[
    str, Meta(min_length=1, max_length=40, pattern=r"^[a-z][a-z_]*$", examples=["firearms"])
]
Characteristic = Annotated[int, Meta(ge=0, le=10)]
Difficulty = Annotated[int, Meta(ge=0, le=20)]
KarmaUse = Literal["reroll", "bonus", "difficulty", "deus_ex_machina", "trigger"]
Response = Literal["dodge", "defend", "fight_back", "dive", "none"]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of every Untold Aeons command."""


class AddCharacter(_Command, frozen=True, kw_only=True, tag="untold-aeons.add_character"):
    """The Narrator adds a character with the sheet (UAE-01, UAE-12, UAE-A21). Standard
    skills not listed are at 1; professional skills are listed with their rank."""

    id: Id
    name: Annotated[Text, Meta(examples=["Mara"])]
    side: Annotated[Text, Meta(examples=["investigators"])]
    pc: bool = True
    dexterity: Characteristic
    toughness: Characteristic
    willpower: Characteristic
    intellect: Characteristic
    skills: Annotated[dict[Trait, Annotated[int, Meta(ge=0, le=10)]], Meta(max_length=60)] = {}
    weapons: Annotated[dict[Text, Weapon], Meta(max_length=20)] = {}
    stress: Annotated[int, Meta(ge=0, le=1000)] = 0
    """Stress the character already carries (a character joining mid-story)."""
    damage: Annotated[int, Meta(ge=0, le=1000)] = 0
    """Damage already taken."""
    hardened: dict[Category, Hardened] = {}
    """Hardened levels and notches already earned, per category (UAE-20)."""


class SetDistance(_Command, frozen=True, kw_only=True, tag="untold-aeons.set_distance"):
    """The Narrator says how far apart two combatants are (yards), or point blank."""

    a: Id
    b: Id
    yards: Annotated[int, Meta(ge=0, le=10000)]
    point_blank: bool = False


class BeginRound(_Command, frozen=True, kw_only=True, tag="untold-aeons.begin_round"):
    """The Narrator starts a round; round 1 names the side initiating the fight."""

    initiating_side: Text | None = None


class ChooseTurn(_Command, frozen=True, kw_only=True, tag="untold-aeons.choose_turn"):
    """The character picks a Fast or a Slow turn for the round (UAE-27, UAE-A1, UAE-A2)."""

    character: Id
    speed: Speed


class Move(_Command, frozen=True, kw_only=True, tag="untold-aeons.move"):
    """Move up to Move Speed (walking, while busy fighting); ``run``: a sustained run, up
    to run_multiple (3) times it; ``sprint``: a full-on sprint, up to sprint_multiple (5)
    times it. A run or a sprint takes the whole turn (UAE-02)."""

    character: Id
    yards: Annotated[int, Meta(ge=1, le=1000)]
    sprint: bool = False
    run: bool = False


class Attack(_Command, frozen=True, kw_only=True, tag="untold-aeons.attack"):
    """An attack with a weapon on the sheet ("unarmed" always exists). ``modifiers``
    are the Narrator's difficulty modifiers for a shot (GM only)."""

    attacker: Id
    target: Id
    weapon: Text = "unarmed"
    rapid_fire: bool = False
    modifiers: Annotated[tuple[Modifier, ...], Meta(max_length=10)] = ()


class Respond(_Command, frozen=True, kw_only=True, tag="untold-aeons.respond"):
    """The defender answers an attack: dodge, defend or fight_back (melee; ``weapon``
    for fighting back), dive or none (gunfire)."""

    character: Id
    response: Response
    weapon: Text = "unarmed"


class StandUp(_Command, frozen=True, kw_only=True, tag="untold-aeons.stand_up"):
    """Get up from prone: it takes an action (UAE-33)."""

    character: Id


class EndTurn(_Command, frozen=True, kw_only=True, tag="untold-aeons.end_turn"):
    """The character ends the turn, giving up what it still allows."""

    character: Id


class CallCheck(_Command, frozen=True, kw_only=True, tag="untold-aeons.call_check"):
    """The Narrator calls for a check: a skill or characteristic against difficulty
    dice. ``use_knowledge``: roll Knowledge with 2 penalty dice instead of a specific
    knowledge skill the character lacks. ``behind_screen``: the Narrator will roll the
    difficulty dice in secret (UAE-11)."""

    character: Id
    label: Text
    trait: Trait
    difficulty: Difficulty
    use_knowledge: bool = False
    behind_screen: bool = False


class RollCheck(_Command, frozen=True, kw_only=True, tag="untold-aeons.roll_check"):
    """The character rolls the check the Narrator called for."""

    character: Id


class RollDifficulty(_Command, frozen=True, kw_only=True, tag="untold-aeons.roll_difficulty"):
    """The Narrator rolls the difficulty dice of a behind-the-screen check; send it with
    ``hidden: true`` so the table sees the result only when it is revealed."""

    character: Id


class SanityCheck(_Command, frozen=True, kw_only=True, tag="untold-aeons.sanity_check"):
    """The Narrator calls a sanity check: Willpower against a difficulty for the
    severity, in one category (UAE-14, UAE-A16)."""

    character: Id
    cause: Text
    difficulty: Difficulty
    category: Category


class SpendKarma(_Command, frozen=True, kw_only=True, tag="untold-aeons.spend_karma"):
    """Spend a karma point (UAE-03..05). ``by``: the investigator spending from the
    players' pool, or null for the Narrator's pool. ``target``: whose next roll the
    bonus or difficulty applies to (default: the spender's own)."""

    by: Id | None = None
    use: KarmaUse
    target: Id | None = None
    note: Annotated[str, Meta(max_length=200)] = ""


class DailyRecovery(_Command, frozen=True, kw_only=True, tag="untold-aeons.daily_recovery"):
    """Once a day: a difficulty-0 Willpower check against stress, or Toughness against
    wounds (UAE-19, UAE-25)."""

    character: Id
    track: Literal["stress", "wounds"]


class Bleed(_Command, frozen=True, kw_only=True, tag="untold-aeons.bleed"):
    """A Severely Injured character loses 1 more to bleeding (for the 'minute' option)."""

    character: Id


class Advance(_Command, frozen=True, kw_only=True, tag="untold-aeons.advance"):
    """Spend xp to raise a skill or characteristic by 1, or learn a professional skill."""

    character: Id
    trait: Trait
    source: Annotated[str, Meta(max_length=200)] = ""


class SetValue(msgspec.Struct, frozen=True, kw_only=True, tag="set_value"):
    """Set damage, stress, xp or a karma pool (character null for the pools)."""

    character: Id | None = None
    field: Literal["damage", "stress", "xp", "karma_players", "karma_narrator"]
    value: Annotated[int, Meta(ge=0, le=1000)]


class SetCondition(msgspec.Struct, frozen=True, kw_only=True, tag="set_condition"):
    character: Id
    condition: Condition
    on: bool = True


class SetStatus(msgspec.Struct, frozen=True, kw_only=True, tag="set_status"):
    """Shaken on or off, or a status (e.g. back from 'broken' after the episode)."""

    character: Id
    status: Literal["active", "severely_injured", "broken", "dead", "shaken", "not_shaken"]


class Effect(msgspec.Struct, frozen=True, kw_only=True, tag="effect"):
    """What an Advantage or Drawback does, a phobia, a mania, a hallucination: the text
    leaves these to the Narrator (UAE-15, UAE-17, UAE-35, UAE-36)."""

    character: Id
    effect: Text


Ruling = SetValue | SetCondition | SetStatus | Effect


class Rule(_Command, frozen=True, kw_only=True, tag="untold-aeons.rule"):
    """A Narrator ruling, always with a reason."""

    ruling: Ruling
    reason: Text


class EndEncounter(_Command, frozen=True, kw_only=True, tag="untold-aeons.end_encounter"):
    """The Narrator ends the encounter; afterwards only rulings are accepted."""


Command = (
    AddCharacter
    | SetDistance
    | BeginRound
    | ChooseTurn
    | Move
    | Attack
    | Respond
    | StandUp
    | EndTurn
    | CallCheck
    | RollCheck
    | RollDifficulty
    | SanityCheck
    | SpendKarma
    | DailyRecovery
    | Bleed
    | Advance
    | Rule
    | EndEncounter
)

COMMAND_TYPES: tuple[type[Command], ...] = (
    AddCharacter,
    SetDistance,
    BeginRound,
    ChooseTurn,
    Move,
    Attack,
    Respond,
    StandUp,
    EndTurn,
    CallCheck,
    RollCheck,
    RollDifficulty,
    SanityCheck,
    SpendKarma,
    DailyRecovery,
    Bleed,
    Advance,
    Rule,
    EndEncounter,
)
