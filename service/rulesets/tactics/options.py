"""Encounter options of the TACTICS ruleset: one per gap of the rules text (TAC-A*).

Every option has the checklist's recommended default, except ``press_penalty_step``
(TAC-A5): the text says each Press "inflicts a penalty on all subsequent Press actions"
but never says how large, so there is no default.  An encounter created without it is
refused when its options are decoded (``__post_init__`` raises, msgspec turns that into a
validation error, and the service answers 422 with this message).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.ruleset import RulesetOption

ShieldMode = Literal["gate", "per_point"]
DodgeTie = Literal["defender", "attacker"]
DeathRule = Literal["literal", "same_source_only"]
PrecisionSource = Literal["weapon_plus_attribute", "weapon"]
AttackerOut = Literal["resolve", "void"]

PRESS_PENALTY_MISSING = (
    "TAC-A5: the rules give no size for the Press penalty ('each Press action taken in a "
    "turn inflicts a penalty on all subsequent Press actions'); set press_penalty_step "
    "(the Precision lost by each later Press in a turn, e.g. 2) when creating the encounter"
)

Small = Annotated[int, Meta(ge=0, le=100)]


class TacticsOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the encounter is created; they never change afterwards."""

    press_penalty_step: Annotated[
        Small | None,
        Meta(
            description=(
                "REQUIRED (TAC-A5): Precision lost by every later Press of the same turn; "
                "the k-th Press has -(k-1) x step. The text gives no number."
            )
        ),
    ] = None
    shield_mode: Annotated[
        ShieldMode,
        Meta(description="TAC-A1: gate (a shielded hit is wholly negated) or per_point."),
    ] = "gate"
    dodge_tie: Annotated[
        DodgeTie,
        Meta(description="TAC-A4: defender (Agility total = Precision dodges) or attacker."),
    ] = "defender"
    graze_band_width: Annotated[
        Small,
        Meta(description="TAC-A4: totals this close below Precision take base damage only."),
    ] = 0
    wounds_per_damage: Annotated[
        Annotated[int, Meta(ge=1, le=10)],
        Meta(description="TAC-A9: wounds per point of damage that gets past soak."),
    ] = 1
    wound_limit: Annotated[
        Annotated[int, Meta(ge=1, le=100)], Meta(description="TAC-15: wounds anyone can suffer.")
    ] = 20
    death_rule: Annotated[
        DeathRule,
        Meta(description="TAC-A10: literal (one source OR one scene kills) or same_source_only."),
    ] = "literal"
    medium_zones: Annotated[Small, Meta(description="TAC-18: Medium range, zones away.")] = 3
    far_zones: Annotated[Small, Meta(description="TAC-18: Far range, zones away.")] = 5
    actions_per_turn: Annotated[Small, Meta(description="TAC-02: actions of most creatures.")] = 3
    reduced_actions: Annotated[
        Small, Meta(description="TAC-02: actions of Minions and slow heavies.")
    ] = 2
    turn_order: Annotated[
        Literal["gm_list"], Meta(description="TAC-A8: the GM sets the order of turns.")
    ] = "gm_list"
    precision_source: Annotated[
        PrecisionSource,
        Meta(description="TAC-10: a Press's Precision is the weapon's plus the attacker's."),
    ] = "weapon_plus_attribute"
    attacker_out: Annotated[
        AttackerOut,
        Meta(description="TAC-A11: Presses of a fallen attacker still resolve, or are void."),
    ] = "resolve"

    def __post_init__(self) -> None:
        if self.press_penalty_step is None:
            raise ValueError(PRESS_PENALTY_MISSING)

    @property
    def penalty_step(self) -> int:
        assert self.press_penalty_step is not None
        return self.press_penalty_step


OPTION_NOTES: tuple[RulesetOption, ...] = (
    RulesetOption(
        "press_penalty_step",
        None,
        "TAC-A5, required, no default: each Press after the first in a turn lowers its "
        "Precision (the defender's target number) by this step, cumulatively (the k-th Press "
        "has -(k-1) x step); the count resets when the attacker's next turn starts. Precision "
        "because the attacker never rolls and Precision is the accuracy number. The text "
        "gives no size, so the table must choose one; creating an encounter without it is "
        "refused with a 422.",
    ),
    RulesetOption(
        "shield_mode",
        "gate",
        "TAC-A1: 'each point of shield can negate 1 wound' vs 'while shielded ... protected "
        "from any and all wounds'. gate: a hit arriving while shields >= 1 spends "
        "min(shields, wounds) points and negates all of its wounds; per_point: it spends "
        "min(shields, wounds) and the rest get through. gate because otherwise the 'any and "
        "all wounds' sentence does nothing.",
    ),
    RulesetOption(
        "dodge_tie",
        "defender",
        "TAC-A4: an Agility total equal to the Press's Precision dodges (meet or beat). "
        "'attacker' makes a tie a failure by 0 (base damage).",
    ),
    RulesetOption(
        "graze_band_width",
        0,
        "TAC-A4: the 'moderate roll might take minimum damage' band is undefined; 0 disables "
        "it. With a width w, a total from Precision - w to Precision - 1 takes the base "
        "damage without the fail-by bonus. Natural 1s and 20s are not special.",
    ),
    RulesetOption(
        "wounds_per_damage",
        1,
        "TAC-A9: 1 damage past soak = 1 wound, the only reading consistent with shields "
        "negating wounds point by point and the worked example. A creature's 'toughness' on "
        "its sheet (default 1, set by the GM) divides the wounds, rounding down: 'tougher "
        "creatures take less wounds'.",
    ),
    RulesetOption(
        "wound_limit",
        20,
        "TAC-15: 'everyone can suffer up to 20 wounds'; at the limit a creature is "
        "incapacitated or dead (TAC-16). The count is capped there.",
    ),
    RulesetOption(
        "death_rule",
        "literal",
        "TAC-A10: literal: at the limit a creature is dead if all its wounds came from one "
        "source OR all were taken in the current scene (the GM starts new scenes), else "
        "incapacitated. same_source_only ignores the scene clause, which otherwise makes "
        "incapacitation rare within one fight. Any wound while incapacitated kills.",
    ),
    RulesetOption("medium_zones", 3, "TAC-18/TAC-A13: Medium reaches up to X = 3 zone steps."),
    RulesetOption("far_zones", 5, "TAC-18/TAC-A13: Far reaches up to Y = 5 zone steps."),
    RulesetOption("actions_per_turn", 3, "TAC-02: 'everyone gets 3 actions per turn'."),
    RulesetOption(
        "reduced_actions",
        2,
        "TAC-02: Minions and 'certain slow brutish heavies' get two (the sheet's category).",
    ),
    RulesetOption(
        "turn_order",
        "gm_list",
        "TAC-A8: the text only says 'turn based'; the GM sets the ordered list of turns. "
        "Pending Presses resolve at the start of the target's next turn in declaration order.",
    ),
    RulesetOption(
        "precision_source",
        "weapon_plus_attribute",
        "TAC-08/TAC-10: Precision 'determines how accurate you are with your attacks' and "
        "'sets the number that defenders need to roll against'; a Press's Precision is the "
        "weapon's plus the attacker's Precision attribute (0 on most sheets). 'weapon' uses "
        "the weapon's number alone, for tables that fold the attribute into weapons.",
    ),
    RulesetOption(
        "attacker_out",
        "resolve",
        "TAC-A11: Presses already declared still resolve at the defender's turn even if the "
        "attacker has since been incapacitated or killed ('an attacker will not know if his "
        "first attack has killed an enemy until the defenders turn': they are committed). "
        "Presses against a dead creature are always void; against an incapacitated one they "
        "resolve and any wound kills.",
    ),
)
