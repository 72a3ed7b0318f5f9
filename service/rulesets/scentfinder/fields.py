"""Field types and the action table of Scentfinder (CHECKLIST section SCF).

The table ``ACTIONS`` is the rules text turned into data: every action's cost, traits,
whether it calls for a test, the skill it tests, and its degree lines in our words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Literal

from msgspec import Meta

Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^\S+$", examples=["alice"])]
Text = Annotated[str, Meta(min_length=1, max_length=200)]
Name = Annotated[str, Meta(min_length=1, max_length=60)]
Notation = Annotated[
    str, Meta(pattern=r"^[1-9][0-9]?d[1-9][0-9]{0,2}([+-][0-9]{1,3})?$", examples=["1d8"])
]
"""A damage die as the text writes it ("dx"): NdM with an optional constant."""

Degree = Literal["triumph", "success", "failure", "bungle"]
DEGREES: tuple[Degree, ...] = ("triumph", "success", "failure", "bungle")
DEGREE_WORD: dict[str, str] = {
    "triumph": "Triumph",
    "success": "Success",
    "failure": "Failure",
    "bungle": "Bungle",
}
SaveName = Literal["VIG", "REF", "WIL"]
Phase = Annotated[int, Meta(ge=1, le=4)]
PHASE_OF: dict[str, int] = {"triumph": 1, "success": 2, "failure": 3, "bungle": 4}
"""SCF-06: the initiative degree gives the phase."""

ConditionKind = Literal[
    "favoured",
    "impaired",
    "staggered",
    "stunned",
    "immobilised",
    "restrained",
    "perturbed",
    "faltering",
    "obscured",
    "hiding",
    "evaded",
    "sustained",
    "affliction",
    "spell",
    "taunted",
    "intimidated",
    "predicted",
    "spotting",
    "sought",
    "aiding",
    "ready",
    "bonus_reaction",
    "shield_raised",
    "refocus_costly",
    "stealth_strike",
    "other",
]
CONDITION_WORD: dict[str, str] = {
    "favoured": "Favoured",
    "impaired": "Impaired",
    "staggered": "Staggered",
    "stunned": "Stunned",
    "immobilised": "Immobilised",
    "restrained": "Restrained",
    "perturbed": "Perturbed",
    "faltering": "Faltering",
    "obscured": "Obscured",
    "hiding": "Hiding",
    "evaded": "Evading",
    "sustained": "Sustained",
    "affliction": "afflicted",
    "spell": "under a spell",
    "taunted": "Taunted",
    "intimidated": "Intimidated",
    "predicted": "Predicted",
    "spotting": "able to target a Hiding enemy",
    "sought": "has Sought",
    "aiding": "ready to Aid",
    "ready": "Readied",
    "bonus_reaction": "holding a bonus reaction",
    "shield_raised": "behind a raised shield",
    "refocus_costly": "Refocusing at [2]",
    "stealth_strike": "able to strike using Stealth",
    "other": "affected",
}

Expiry = Literal[
    "turns",
    "start_of_turn",
    "end_of_turn",
    "next_action",
    "while_hiding",
    "held",
    "attack_or_start_of_turn",
    "next_roll",
    "in_area",
    "until_removed",
]
"""When a condition ends (SCF-58): after ``remaining`` of the bearer's turns, at the start
or end of the bearer's turn, after the source's next action, while the bearer keeps
Hiding, as long as the source holds them, until the bearer attacks or next turn starts,
after one roll, while standing in an area, or when the GM removes it."""

ActionName = Literal[
    "administer_first_help",
    "aid",
    "analyse",
    "arrest_fall",
    "avert_gaze",
    "cast_spell",
    "command",
    "create_a_diversion",
    "disable",
    "disarm",
    "escape",
    "feint",
    "grapple",
    "hide",
    "interact",
    "intimidate",
    "knockdown",
    "point_out",
    "predict",
    "raise_a_shield",
    "rally",
    "ready",
    "refocus",
    "release",
    "taunt",
    "seek",
    "shove",
    "steel_oneself",
    "strike",
    "sustain_spell",
    "take_cover",
    "evade",
    "flank",
    "shift",
    "sneak",
]

Trait = Literal[
    "attack",
    "melee",
    "move",
    "manipulate",
    "concentrate",
    "magical",
    "sonorous",
    "linguistic",
    "visual",
    "auditory",
    "mental",
    "emotion",
]


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action of the text: cost in actions (-1 = reaction), traits, its test."""

    title: str
    cost: int
    traits: tuple[str, ...] = ()
    test: bool = False
    skills: tuple[str, ...] = ()
    """Skills the text allows for the test (first = default); empty = any named skill."""
    vs: str | None = None
    """The target's statistic the test is against ("vs WIL"), for the log."""
    target: Literal["none", "creature", "ally", "enemy", "optional"] = "none"
    lines: tuple[str, str, str, str] = ("¤", "¤", "¤", "¤")
    """What each degree does, T/S/F/B, in our words (SCF-01; a silent line is ¤)."""


NONE = "no effect"

ACTIONS: dict[str, ActionSpec] = {
    "administer_first_help": ActionSpec(
        "Administer First Help",
        2,
        ("manipulate", "melee"),
        test=True,
        skills=("Medicine",),
        target="creature",
        lines=(
            "one persistent instance to 0, two halved, or out of Death's Door at 5 HP",
            "one persistent instance halved, or out of Death's Door at 1 HP",
            NONE,
            "+1 to a persistent instance, or 1 fewer regained action per turn at Death's Door",
        ),
    ),
    "aid": ActionSpec("Aid", 1, target="optional"),
    "analyse": ActionSpec(
        "Analyse",
        1,
        ("attack", "concentrate"),
        test=True,
        target="creature",
        lines=(
            "two aspects of the target revealed",
            "one aspect of the target revealed",
            "a mildly helpful hint at the GM's discretion",
            NONE,
        ),
    ),
    "arrest_fall": ActionSpec(
        "Arrest Fall",
        -1,
        ("manipulate", "move"),
        test=True,
        skills=("REF",),
        lines=("stops falling", "stops falling", NONE, NONE),
    ),
    "avert_gaze": ActionSpec("Avert Gaze", 1),
    "cast_spell": ActionSpec(
        "Cast Spell",
        1,
        ("attack", "magical", "manipulate", "sonorous"),
        test=True,
        target="optional",
        lines=(
            "maximised damage, effects for 3 turns, can be sustained",
            "rolled damage, effects for 2 turns, can be sustained",
            "1 damage, effects for 1 turn",
            NONE,
        ),
    ),
    "command": ActionSpec(
        "Command",
        1,
        ("linguistic", "sonorous"),
        test=True,
        skills=("Charm", "Intimidation", "Nature"),
        target="ally",
        lines=(
            "the minion gains 2 actions (3 for one more action)",
            "the minion gains 2 actions",
            NONE,
            NONE,
        ),
    ),
    "create_a_diversion": ActionSpec(
        "Create a Diversion",
        1,
        ("mental", "manipulate", "sonorous"),
        test=True,
        skills=("Deception",),
        lines=(
            "Obscured to all senses for 2 turns",
            "Obscured to all senses for 1 turn",
            NONE,
            "Diversions Impaired for 2 turns",
        ),
    ),
    "disable": ActionSpec(
        "Disable",
        2,
        ("manipulate", "melee"),
        test=True,
        skills=(),
        lines=(
            "2 steps towards disabling the device",
            "1 step towards disabling the device",
            NONE,
            "a hostile effect of the device (GM)",
        ),
    ),
    "disarm": ActionSpec(
        "Disarm",
        1,
        ("attack", "melee"),
        test=True,
        skills=("Dexterity",),
        target="enemy",
        lines=(
            "the target's weapon falls into an adjacent area",
            "attacks with the target's weapon Impaired for 1 turn",
            "attacks with the disarming weapon Impaired for 1 turn",
            "the disarming weapon falls into an adjacent area",
        ),
    ),
    "escape": ActionSpec(
        "Escape",
        1,
        test=True,
        skills=("Agility", "Might"),
        lines=("ends Restrained and Immobilised", "ends Restrained or Immobilised", NONE, NONE),
    ),
    "feint": ActionSpec(
        "Feint",
        1,
        ("mental",),
        test=True,
        skills=("Deception",),
        vs="WIL",
        target="enemy",
        lines=(
            "the target is Stunned against the feinter's actions for 1 turn",
            "the target is Stunned against the feinter's next action",
            NONE,
            "the target gains a bonus reaction usable only against the feinter",
        ),
    ),
    "grapple": ActionSpec(
        "Grapple",
        2,
        ("attack", "melee"),
        test=True,
        skills=("Might",),
        vs="VIG",
        target="enemy",
        lines=(
            "the target is Immobilised and Restrained while held",
            "the target is Immobilised or Restrained while held",
            NONE,
            "the target may Grapple back with an automatic Success",
        ),
    ),
    "hide": ActionSpec(
        "Hide",
        1,
        test=True,
        skills=("Stealth",),
        lines=(
            "Hiding, and can strike using Stealth for 1 turn",
            "Hiding",
            NONE,
            "Hiding Impaired for 2 turns",
        ),
    ),
    "interact": ActionSpec("Interact", 0, ("manipulate", "melee")),
    "intimidate": ActionSpec(
        "Intimidate",
        1,
        ("attack", "emotion", "mental", "sonorous"),
        test=True,
        skills=("Intimidation",),
        vs="WIL",
        target="enemy",
        lines=(
            "next turn the target must first make an Impaired Strike, Shift, or lose 1 action",
            "next turn the target must first Strike, Shift, or lose 1 action",
            NONE,
            "Intimidating Impaired for 2 turns",
        ),
    ),
    "knockdown": ActionSpec(
        "Knockdown",
        2,
        ("attack", "melee"),
        test=True,
        skills=("Might",),
        vs="REF",
        target="enemy",
        lines=(
            "the target is Immobilised or Staggered (attacker's choice) for 2 turns",
            "the target is Immobilised or Staggered (its own choice) for 2 turns",
            NONE,
            "the attacker is Immobilised or Staggered (own choice) for 2 turns",
        ),
    ),
    "point_out": ActionSpec("Point Out", 1, ("auditory", "linguistic", "manipulate", "visual")),
    "predict": ActionSpec(
        "Predict",
        1,
        ("concentrate",),
        test=True,
        skills=("Perception",),
        vs="WIL",
        target="creature",
        lines=(
            "the predictor chooses the target's course; it must follow it or Feint",
            "the GM tells the target's most plausible course",
            NONE,
            "the predictor is Stunned against the target's actions for 2 turns",
        ),
    ),
    "raise_a_shield": ActionSpec("Raise a Shield", 1),
    "rally": ActionSpec(
        "Rally",
        1,
        ("emotion", "linguistic", "mental", "sonorous"),
        test=True,
        skills=("Charm",),
        target="ally",
        lines=(
            "an affliction of a WIL Save dissipates",
            "a basic WIL affliction dissipates, or an Intense one becomes basic",
            NONE,
            "the affliction is Sustained or becomes Intense",
        ),
    ),
    "ready": ActionSpec("Ready", 2, ("concentrate",)),
    "refocus": ActionSpec(
        "Refocus",
        1,
        ("concentrate", "magical"),
        test=True,
        lines=("+2 FP", "+1 FP", NONE, "Refocusing costs [2] for the rest of the turn"),
    ),
    "release": ActionSpec("Release", 0),
    "taunt": ActionSpec(
        "Taunt",
        1,
        ("attack", "emotion", "linguistic", "mental", "sonorous"),
        test=True,
        skills=("Charm",),
        vs="WIL",
        target="enemy",
        lines=(
            "the target is Perturbed, Impaired against others and cannot move away (1 turn)",
            "the target is Impaired against others and cannot move away (1 turn)",
            NONE,
            "Taunts Impaired for 2 turns",
        ),
    ),
    "seek": ActionSpec(
        "Seek",
        1,
        ("concentrate",),
        test=True,
        skills=("Awareness",),
        lines=(
            "Hiding enemies in the area can be targeted",
            "Hiding enemies in the area can be targeted",
            NONE,
            "Seeking in that area Impaired for 1 turn",
        ),
    ),
    "shove": ActionSpec(
        "Shove",
        2,
        ("attack", "melee"),
        test=True,
        skills=("Might",),
        vs="VIG",
        target="enemy",
        lines=(
            "the target is Staggered (2 turns) and Perturbed (2 turns) or pushed to an "
            "adjacent area",
            "the target is Staggered (2 turns) or pushed to an adjacent area (its choice)",
            NONE,
            "the shover is Staggered for 2 turns",
        ),
    ),
    "steel_oneself": ActionSpec(
        "Steel Oneself",
        1,
        test=True,
        skills=("Awareness", "Faith"),
        lines=(
            "Faltering and Perturbed 2 turns shorter",
            "Faltering or Perturbed 2 turns shorter",
            NONE,
            NONE,
        ),
    ),
    "strike": ActionSpec(
        "Strike",
        1,
        ("attack",),
        test=True,
        vs="REF",
        target="enemy",
        lines=("maximised damage", "rolled damage", "1 damage", NONE),
    ),
    "sustain_spell": ActionSpec("Sustain Spell", 1, ("concentrate", "magical")),
    "take_cover": ActionSpec("Take Cover", 1),
    "evade": ActionSpec("Evade", 1, ("move",)),
    "flank": ActionSpec(
        "Flank",
        1,
        ("melee", "move"),
        test=True,
        skills=("Agility",),
        vs="WIL",
        target="enemy",
        lines=(
            "attacks on the target Favoured and ignoring 1 Impairment (1 turn)",
            "attacks on the target Favoured (1 turn)",
            NONE,
            NONE,
        ),
    ),
    "shift": ActionSpec("Shift", 1, ("move",)),
    "sneak": ActionSpec(
        "Sneak",
        1,
        ("move",),
        test=True,
        skills=("Stealth",),
        lines=(
            "moves, still Hiding, attacks Favoured (1 turn)",
            "moves, still Hiding",
            "loses the movement or stops Hiding",
            "moves and stops Hiding",
        ),
    ),
}

MOVE_ACTIONS = frozenset(n for n, s in ACTIONS.items() if "move" in s.traits and n != "arrest_fall")
ATTACK_SKILL_FIXED = {
    "disarm": "Dexterity",
    "grapple": "Might",
    "intimidate": "Intimidation",
    "knockdown": "Might",
    "shove": "Might",
    "taunt": "Charm",
}

_NOTATION = re.compile(r"^([1-9][0-9]?)d([1-9][0-9]{0,2})([+-][0-9]{1,3})?$")


def maximum_of(notation: str) -> int:
    """The maximised result of a damage die ("maximise damage")."""
    match = _NOTATION.match(notation)
    if match is None:
        raise ValueError(notation)
    count, sides, constant = match.groups()
    return int(count) * int(sides) + int(constant or 0)


def title_of(action: str) -> str:
    return ACTIONS[action].title
