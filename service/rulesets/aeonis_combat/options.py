"""Encounter options of the ``aeonis`` ruleset: the CHECKLIST's AEC ambiguities.

Each option's default is the CHECKLIST recommendation; ``OPTION_NOTES`` (shown by
``GET /rulesets/aeonis``) says what it does, which item it settles and why.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.ruleset import RulesetOption

Persistence = Literal["none", "paused"]
RetreatResult = Literal["attacker_gains_control", "gm"]
Unchosen = Literal["fill", "none"]


class AeonisOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the encounter is created; they never change afterwards."""

    attack_ap_cost: Annotated[int, Meta(ge=0, le=20, description="AP an Attack action costs.")] = 2
    press_ap_cost: Annotated[
        int, Meta(ge=0, le=20, description="Extra AP to Press the Attack.")
    ] = 1
    ap_per_round: Annotated[
        Annotated[int, Meta(ge=0, le=100)] | None,
        Meta(description="AP each side has after Round Start (null: not reset)."),
    ] = 6
    standard_battle_persistence: Annotated[
        Persistence,
        Meta(description="What a non-siege battle keeps after its Attack action (AEC-A1)."),
    ] = "none"
    unit_damage_persists: Annotated[
        bool, Meta(description="Damage to non-Lord units stays after a battle (AEC-A1).")
    ] = True
    archers_also_strike_in_main_step: Annotated[
        bool, Meta(description="Archers roll in Strike/Counterstrike too (AEC-A2).")
    ] = False
    archer_prestrike_simultaneous: Annotated[
        bool, Meta(description="Defending Archers killed in the Pre-Strike still roll (AEC-A3).")
    ] = False
    defender_retreat_result: Annotated[
        RetreatResult, Meta(description="What a defender retreat does to control (AEC-A4).")
    ] = "attacker_gains_control"
    press_allowed_in_siege: Annotated[
        bool, Meta(description="Press the Attack is allowed in a siege round (AEC-A5).")
    ] = True
    assault_variant: Annotated[
        bool, Meta(description="Allow the optional Assault instead of a siege (section 7).")
    ] = False
    assault_defense_bonus: Annotated[
        int, Meta(ge=0, le=10, description="Added to defending line units' Defense (AEC-A12).")
    ] = 1
    reinforce_unchosen: Annotated[
        Unchosen,
        Meta(description="Reinforce for a side that chose nothing before the round (AEC-17)."),
    ] = "fill"


OPTION_NOTES: tuple[RulesetOption, ...] = (
    RulesetOption(
        "attack_ap_cost",
        2,
        "AEC-01: the walkthroughs price the Attack action at 2 AP (sections 8.1, 8.2). "
        "Actions.md, which owns AP, is not part of the text, so it is an option.",
    ),
    RulesetOption(
        "press_ap_cost",
        1,
        "AEC-16: Press the Attack costs '+1 AP' (section 4.0).",
    ),
    RulesetOption(
        "ap_per_round",
        6,
        "AEC-A14: the AP budget lives in Actions.md, which the text does not contain. At "
        "Round Start every side's AP is set to this number (6 = three Attack actions); null "
        "leaves AP alone so the GM sets it by ruling. Movement costs no AP here: the GM "
        "adjusts AP by ruling where the host game charges for it.",
    ),
    RulesetOption(
        "standard_battle_persistence",
        "none",
        "AEC-A1 (contradiction 'pauses' vs 'only Cities/Fortresses can create multi-turn "
        "combat state'): 'none' (recommended) dissolves commitments and lines when the "
        "Attack action on a non-siege hex ends; a later Attack is a new declaration. "
        "'paused' keeps the battle (lines, reserves, damage) and a later Attack by the same "
        "attacker resumes it with one more round. Sieges always persist (section 6.2).",
    ),
    RulesetOption(
        "unit_damage_persists",
        True,
        "AEC-A1: damage is a property of the unit and stays after a battle, since the text "
        "has no healing rule for units (only Lords heal, AEC-12). False restores surviving "
        "non-Lord units to full hit points when their battle ends.",
    ),
    RulesetOption(
        "archers_also_strike_in_main_step",
        False,
        "AEC-A2: an Archer's Pre-Strike is its strike for the battle round ('Pre-Strike' "
        "reads as a timing advantage; the walkthrough rolls archers only there). True makes "
        "Archers roll again in Strike/Counterstrike (the literal reading).",
    ),
    RulesetOption(
        "archer_prestrike_simultaneous",
        False,
        "AEC-A3/AEC-18: attacking Archers roll first and their damage applies at once, so a "
        "defending Archer they destroy does not roll. True: the table plays the Pre-Strike "
        "simultaneously ('simultaneous is fine if your table prefers'): every defending "
        "Archer on the line when it begins rolls.",
    ),
    RulesetOption(
        "defender_retreat_result",
        "attacker_gains_control",
        "AEC-A4 (section 5 has no case for a defender retreat): the retreating defender "
        "gives up the hex, so section 5.1 applies and the attacker gains control and may "
        "occupy. Its Battle Line units and the Reserves inside the target hex move to the "
        "chosen hex; Reserves elsewhere stay. 'gm': the battle ends without a change of "
        "control and the GM rules on the hex.",
    ),
    RulesetOption(
        "press_allowed_in_siege",
        True,
        "AEC-A5: section 6.2 resolves siege rounds 'using section 4', which includes Press "
        "the Attack (4.0); section 8 does not exclude sieges.",
    ),
    RulesetOption(
        "assault_variant",
        False,
        "Section 7 is an optional variant, so it is off unless the encounter turns it on. "
        "With it, the attacker may declare an Assault on a City or Fortress: one Attack "
        "action (AEC-A12: 2 AP, no further AP) loops battle rounds until victory or an "
        "attacker retreat; defenders cannot retreat and no siege is formed.",
    ),
    RulesetOption(
        "assault_defense_bonus",
        1,
        "AEC-A12: 'defenders gain +1 Defense on their Battle Line units during an "
        "Assault' is added to each Defense die result of a defending line unit. 0 disables "
        "it ('Recommended', not mandatory).",
    ),
    RulesetOption(
        "reinforce_unchosen",
        "fill",
        "AEC-17: Reinforce is a choice ('you may promote units from your Reserves ... until "
        "you reach the cap'); each side names the Reserves it promotes, or none, with "
        "aeonis.reinforce (the attacker also with aeonis.fight's 'promote'). This option "
        "settles a side that said nothing before the round is resolved: 'fill' promotes "
        "its Reserves in commitment order up to the cap, what a table does without a word "
        "and what keeps a battle from stalling on a forgotten choice; 'none' promotes "
        "nobody, the literal 'may'.",
    ),
)
