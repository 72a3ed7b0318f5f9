"""Encounter options of the Aeonisk ruleset: one per ambiguity of the text (AEK-A*).

Every default is the CHECKLIST recommendation; ``OPTION_NOTES`` (served by
``GET /rulesets/aeonisk``) says what each option does and why its default is what it is.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.ruleset import RulesetOption
from service.rulesets.aeonisk_tactical.fields import Band, Id


class ZoneLink(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One row of a zone map's band table (section 11): the band between two zones."""

    a: Id
    b: Id
    band: Band


class AeoniskOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the encounter is created; they never change afterwards."""

    initiative_mode: Literal["reroll_each_round", "once_at_start"] = "reroll_each_round"
    hit_rule: Literal["attack_ge_defence", "attack_gt_defence"] = "attack_ge_defence"
    halve_rounding: Literal["floor", "ceil"] = "floor"
    init0_blocks_reactions: bool = False
    reaction_timing: Literal["fast_phase_commit", "interrupt"] = "fast_phase_commit"
    modifier_cap_scope: Literal["all_situational", "defence_only", "off"] = "all_situational"
    flanking_stacks: bool = False
    defence_tokens_for_npcs: bool = True
    burned_token_counts_as_missing: bool = True
    high_ground_mode: Literal["near_only", "minus2_any_range"] = "near_only"
    terrain_check_formula: Literal["product", "sum"] = "product"
    charge_includes_attack: bool = True
    fatal_failure_status: Literal["dead", "gm"] = "dead"
    fatal_check_timing: Literal["on_hit", "cleanup"] = "on_hit"
    shock_init_penalty: Annotated[int, Meta(ge=1, le=100)] | None = None
    full_defence_bonus: Annotated[int, Meta(ge=1, le=20)] | None = None
    disengage_dc: Annotated[int, Meta(ge=1, le=100)] = 20
    bond_rally_dc: Annotated[int, Meta(ge=1, le=100)] = 20
    void_slick_dc: Annotated[int, Meta(ge=1, le=100)] = 20
    zone_map: Annotated[tuple[ZoneLink, ...], Meta(max_length=200)] = ()
    parry_ranged: bool = False


OPTION_NOTES: tuple[RulesetOption, ...] = (
    RulesetOption(
        "initiative_mode",
        "reroll_each_round",
        "AEK-A1. The cheat-sheet says 'Roll once at start', section 1 says 'Re-roll ... at "
        "the start of every round'. Default every round: the cheat-sheet calls itself 'a "
        "brief overview. Detailed explanations follow', so section 1 governs, and the "
        "Nat-1 rule ('Initiative 0 for the round') only reads naturally per round. "
        "once_at_start keeps each INIT (changed only by Shock and the forfeit re-roll).",
    ),
    RulesetOption(
        "hit_rule",
        "attack_ge_defence",
        "AEK-A5. The text never states how an attack total compares with the defence "
        "total. Default: the defence total is the attack's target number and, like any "
        "task roll against its DC, meeting it succeeds (attack >= defence hits). The "
        "Kaelia snippet ('16 vs Attack 18 -> miss') contradicts every comparison rule: "
        "under either setting an attack of 18 against a defence of 16 hits, and this "
        "ruleset resolves it as a hit (read '-> miss' as 'the defence missed').",
    ),
    RulesetOption(
        "halve_rounding",
        "floor",
        "AEK-A6. INIT 0 halves all skill checks: the final total after all modifiers is "
        "halved, rounding down by default (the text gives no rounding).",
    ),
    RulesetOption(
        "init0_blocks_reactions",
        False,
        "AEK-A2. Whether a character at INIT 0 loses Reactions. Default no: the text only "
        "makes their actions Slow (resolved after every Normal-speed action).",
    ),
    RulesetOption(
        "reaction_timing",
        "fast_phase_commit",
        "AEK-A3. Reactions are committed in the Fast Phase against declared actions and "
        "take effect when those resolve (the text puts every Reaction in the Fast Phase). "
        "'interrupt' also accepts modifier reactions (Bonded Defence, token spends, Heroic "
        "Burn) in the Slow Phase while the action they answer has not resolved yet. "
        "Breakaway free strikes are taken in the Slow Phase in both modes.",
    ),
    RulesetOption(
        "modifier_cap_scope",
        "all_situational",
        "AEK-A9. The net situational modifier of a roll (range, tokens, flanking, prone, "
        "High-Ground, Charge, Hunker Down, Bonded Defence, backlash, Void Surge, Energy "
        "Hub, GM extras) is clamped to -6..+6; Attribute x Skill, Strength and weapon are "
        "never capped. The text calls the cap 'normal', so it is not only for defence. "
        "defence_only caps defence rolls only; off disables it.",
    ),
    RulesetOption(
        "flanking_stacks",
        False,
        "AEK-A10. Flanking (no Defence Token, an un-allocated attacker, or two foes "
        "Engaged) is one condition worth at most +2 to the attack or -2 to the defence.",
    ),
    RulesetOption(
        "defence_tokens_for_npcs",
        True,
        "AEK-A11. NPCs allocate Defence Tokens too; otherwise every NPC would be "
        "permanently flanked. The same goes for the one-Tactical-Token cap.",
    ),
    RulesetOption(
        "burned_token_counts_as_missing",
        True,
        "AEK-A12. After a Heroic Burn the token 'does not refresh for the remainder of the "
        "combat': in later rounds the character has no Defence Token active, so every "
        "attacker gains Flanking (+2). False: no token, but no Flanking for its absence.",
    ),
    RulesetOption(
        "high_ground_mode",
        "near_only",
        "AEK-A16. High-Ground ignores the range penalty only when the target is at Near; "
        "minus2_any_range removes 2 of the range penalty at any range.",
    ),
    RulesetOption(
        "terrain_check_formula",
        "product",
        "AEK-A19. Section 5a writes 'Agility + Athletics'; the core task roll is "
        "'Attribute x Skill + d20', stated as universal, so the default is Agility x "
        "Athletics + d20 against the terrain DC. 'sum' reads the '+' literally.",
    ),
    RulesetOption(
        "charge_includes_attack",
        True,
        "AEK-A22. A Charge includes one melee attack on the chosen foe once Engaged; "
        "otherwise its '+2 to your first melee damage roll' could never apply, since "
        "Charge and Attack are both the single Major action.",
    ),
    RulesetOption(
        "fatal_failure_status",
        "dead",
        "AEK-A29. A failed Health check at 5+ Wounds kills ('Fatal'); 'gm' only records "
        "the failure and leaves the consequence to a GM ruling.",
    ),
    RulesetOption(
        "fatal_check_timing",
        "on_hit",
        "AEK-A29. The Health check is made when a hit leaves a character at 5+ Wounds "
        "(one check per hit); 'cleanup' makes it once per character in the Cleanup Phase "
        "('check Wounds/Stun').",
    ),
    RulesetOption(
        "shock_init_penalty",
        None,
        "AEK-A7. How far one Shock lowers Initiative: the text never says, so there is no "
        "default. Unset, a Shock is counted and the log asks the GM to set the new "
        "Initiative with a ruling (adjudicate set_value initiative).",
    ),
    RulesetOption(
        "full_defence_bonus",
        None,
        "AEK-36 / AEK-A34. The YAGS-core full-defence bonus, which this text does not "
        "give. Unset, full defence is refused; set, a character declaring full defence "
        "(no Major action that round) adds it to every defence roll, together with the "
        "Defence Token, within the +/-6 cap.",
    ),
    RulesetOption(
        "disengage_dc",
        20,
        "AEK-27 / AEK-A21. Disengage is an Athletics check 'vs Difficulty 20, example': "
        "Agility x Athletics + d20 against this DC.",
    ),
    RulesetOption(
        "bond_rally_dc",
        20,
        "AEK-62. Bond Rally is 'an Empathy x Charm check (e.g., vs. Difficulty 20)'.",
    ),
    RulesetOption(
        "void_slick_dc",
        20,
        "AEK-48 / AEK-A17. The Void Slick 'Agility save (DC 20)', rolled as Agility x "
        "Athletics + d20 (the text gives no pairing).",
    ),
    RulesetOption(
        "zone_map",
        (),
        "AEK-29 (section 11, optional). Named zones and the band between each pair; same "
        "zone counts as Engaged unless listed. With a map, characters are placed in "
        "zones, bands come from the table and moves name a destination zone. The state's "
        "bands show each pair's band as the map gives it; for a pair of zones the map "
        "leaves out, the GM sets the band (set_band) and an Overwatch shot takes the GM's "
        "band with the fire command, so a gap in the map never makes a legal action "
        "impossible.",
    ),
    RulesetOption(
        "parry_ranged",
        False,
        "AEK-14 / AEK-21 / AEK-A34. Parry is listed among the Reactions but its procedure "
        "is YAGS core's, which parries close-combat blows: a Parry against a ranged attack "
        "is refused by default. Its numbers are inputs: the sheet's parry pairing or the "
        "GM's entry, plus a parry bonus. True allows parrying any attack.",
    ),
)
