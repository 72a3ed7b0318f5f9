"""Encounter options of Scentfinder: one per ambiguity of the text (SCF-A*).

Every default is the CHECKLIST recommendation; ``OPTION_NOTES`` (served by
``GET /rulesets/scentfinder``) says what each option does and why.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.options import NOTATION_FORMAT
from service.ruleset import RulesetOption


class ScentfinderOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the encounter is created; they never change afterwards."""

    degree_input: Literal["gm_entered", "house_dice"] = "gm_entered"
    house_dice: Annotated[
        str,
        Meta(
            pattern=r"^[1-9][0-9]?d[1-9][0-9]{0,2}([+-][0-9]{1,3})?$",
            extra_json_schema=NOTATION_FORMAT,
        ),
    ] = "1d20"
    house_triumph_margin: Annotated[int, Meta(ge=1, le=100)] = 10
    arrest_fall_triumph_as_success: bool = True
    duration_tick: Literal["bearer", "source"] = "bearer"
    evade_until_next_turn: bool = True
    evade_taxes_melee_weapon_strikes: bool = True
    strike_resolution: Literal["attacker_tests_vs_static_save"] = "attacker_tests_vs_static_save"
    hazard_save_table: Literal["terrain_overrides"] = "terrain_overrides"
    persistent_decrement: Annotated[int, Meta(ge=1, le=10)] = 1
    carry_over: bool = False
    within_phase_order: Literal["lowest_first", "highest_first"] = "lowest_first"
    difficult_surcharge: Literal["one_per_move"] = "one_per_move"
    hazard_trigger: Literal["start_enter_or_leave"] = "start_enter_or_leave"
    attack_trait_key: Literal["actor_skill_turn"] = "actor_skill_turn"
    hiding_ends_on_non_stealth_action: bool = True
    deaths_door: Literal["gm_sets"] = "gm_sets"
    minion_actions_expire: Literal["end_of_commanders_turn"] = "end_of_commanders_turn"
    focus_maximum: Literal["sheet_only", "starting_fp"] = "sheet_only"


OPTION_NOTES: tuple[RulesetOption, ...] = (
    RulesetOption(
        "degree_input",
        "gm_entered",
        "SCF-A1. The text never says which dice decide Triumph, Success, Failure or Bungle, "
        "nor what 'lowest-rolling' counts. The GM enters the degree of every test and, "
        "for initiative, the value that orders players within a phase; damage dice are "
        "real rolls (server or manual). 'house_dice' turns on an optional dice resolver "
        "for tests (roll_test): a HOUSE RULE, not the text's.",
    ),
    RulesetOption(
        "house_dice",
        "1d20",
        "Only with degree_input = house_dice (a house rule, not the text's): the dice of "
        "roll_test, plus the GM's bonus, against the GM's target number.",
    ),
    RulesetOption(
        "house_triumph_margin",
        10,
        "Only with degree_input = house_dice (a house rule): meeting the target by this "
        "much is a Triumph, missing it by this much a Bungle; otherwise Success when the "
        "total meets the target, Failure when not.",
    ),
    RulesetOption(
        "arrest_fall_triumph_as_success",
        True,
        "SCF-A2. Arrest Fall has no Triumph line; a Triumph should not do less than a "
        "Success, so it stops the fall too. Every other missing line is 'no effect'.",
    ),
    RulesetOption(
        "duration_tick",
        "bearer",
        "SCF-A4. Durations count down at the end of each turn of the creature the effect "
        "is on ('their next turn' in Sustain Spell). With 'source', an effect a creature "
        "caused on another counts down at the end of the causer's turns instead.",
    ),
    RulesetOption(
        "evade_until_next_turn",
        True,
        "SCF-A5. Evade lasts until the start of the evader's next turn; counted in turns "
        "it would end before any enemy acts.",
    ),
    RulesetOption(
        "evade_taxes_melee_weapon_strikes",
        True,
        "SCF-A6. Evade costs one more action for melee-trait actions against the evader "
        "and for a Strike with a melee weapon, unless the action or weapon has reach.",
    ),
    RulesetOption(
        "strike_resolution",
        "attacker_tests_vs_static_save",
        "SCF-A7. A Strike is one test of the attacker against the target's Save; the "
        "target does not roll. The [0] Save is for hazards, spell effects and traps.",
    ),
    RulesetOption(
        "hazard_save_table",
        "terrain_overrides",
        "SCF-A8. Against hazardous terrain a Triumph ignores the die, a Success halves it "
        "(rounded down), a Failure rolls it, a Bungle maximises it (from the Save table).",
    ),
    RulesetOption(
        "persistent_decrement",
        1,
        "SCF-A9. 'Permanent' damage is persistent damage: at the end of the bearer's turn "
        "each instance deals its value, then drops by this much and is gone at 0.",
    ),
    RulesetOption(
        "carry_over",
        False,
        "SCF-A10. 'Regains 3 actions & a reaction' is a refresh: unused ones are lost. "
        "true adds what was left to the new pool (a house reading, not the default).",
    ),
    RulesetOption(
        "within_phase_order",
        "lowest_first",
        "SCF-A12. The text says lowest-rolling players act first in their phase; the GM "
        "may re-order players who agree (reorder_phase).",
    ),
    RulesetOption(
        "difficult_surcharge",
        "one_per_move",
        "SCF-A13. A move into, inside or out of difficult terrain costs one more action, "
        "once, even when both areas are difficult.",
    ),
    RulesetOption(
        "hazard_trigger",
        "start_enter_or_leave",
        "SCF-A14. A move action that starts in, enters or leaves a hazardous area calls "
        "for one Save.",
    ),
    RulesetOption(
        "attack_trait_key",
        "actor_skill_turn",
        "SCF-A17. 'Not the same skill twice in one turn' is kept per actor, skill and "
        "turn, for every attack-trait action (Analyse, Cast Spell, Disarm, Grapple, "
        "Intimidate, Knockdown, Shove, Strike, Taunt).",
    ),
    RulesetOption(
        "hiding_ends_on_non_stealth_action",
        True,
        "SCF-A18. Hiding ends when the hider takes an action that does not call for a "
        "Stealth test (Sneak, Hide, a Stealth Strike and an undetected Interact keep it); "
        "Saves and reactions outside one's turn do not end it.",
    ),
    RulesetOption(
        "deaths_door",
        "gm_sets",
        "SCF-A20. The text never says when a creature reaches Death's Door: the GM sets "
        "it with a ruling; First Help takes creatures out of it.",
    ),
    RulesetOption(
        "minion_actions_expire",
        "end_of_commanders_turn",
        "SCF-A22. Actions granted by Command are spent during the commander's turn and "
        "lost at its end; a minion has no turn of its own.",
    ),
    RulesetOption(
        "focus_maximum",
        "sheet_only",
        "SCF-A20. The text defines no maximum Focus: FP are capped only by a max_fp the "
        "sheet gives, so Refocus adds its points to a sheet without one. 'starting_fp' caps "
        "such a sheet at the FP it started with (a house reading).",
    ),
)
