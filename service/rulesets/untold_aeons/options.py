"""Encounter options of Untold Aeons: one per ambiguity of the text (UAE-A*).

Every default is the CHECKLIST recommendation; ``OPTION_NOTES`` (served by
``GET /rulesets/untold-aeons``) says what each option does and why.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.ruleset import RulesetOption


class UntoldOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the encounter is created; they never change afterwards."""

    fast_turn_allows: Literal["action_or_move", "action_and_move"] = "action_or_move"
    turn_type_choice: Literal["per_round", "once"] = "per_round"
    threshold_compare: Literal["gt", "ge"] = "gt"
    melee_opposed: Literal["compare_successes"] = "compare_successes"
    karma_bonus_unit: Literal["dice", "successes"] = "dice"
    karma_reroll: Literal["last_open_roll"] = "last_open_roll"
    severe_bleed_interval: Literal["round", "minute"] = "round"
    recovery_at_limit: Literal["halved", "full"] = "halved"
    creation_points: Annotated[int, Meta(ge=4, le=20)] | None = 12
    rapid_fire_penalty_dice: Annotated[int, Meta(ge=0, le=5)] = 1
    sprint_multiple: Annotated[int, Meta(ge=1, le=10)] = 5
    run_multiple: Annotated[int, Meta(ge=1, le=10)] = 3
    characteristic_xp_factor: Annotated[int, Meta(ge=1, le=500)] = 50
    starting_xp: Annotated[int, Meta(ge=0, le=10000)] = 0


OPTION_NOTES: tuple[RulesetOption, ...] = (
    RulesetOption(
        "fast_turn_allows",
        "action_or_move",
        "UAE-A1. The text names both turn types 'Slow' in one sentence (one allows an "
        "action and a move, the other an action or a move). Default: a Fast turn allows an "
        "action OR a move and a Slow turn an action AND a move, because Fast turns go "
        "first and speed should cost something. action_and_move swaps the two.",
    ),
    RulesetOption(
        "turn_type_choice",
        "per_round",
        "UAE-A2. The text does not say whether Fast or Slow is chosen once or every round. "
        "Default every round, the only reading that keeps the choice tactical; 'once' keeps "
        "each combatant's round-1 choice for the whole fight. The initiating side is named "
        "by the Narrator when round 1 begins and may be changed at any later round "
        "('Generally, the side initiating the fight goes first').",
    ),
    RulesetOption(
        "threshold_compare",
        "gt",
        "UAE-A3. The rules say 'above your limit' / 'more than your limit', the design "
        "goals say '>= limit'. Default gt: the rules text is normative, the goals are notes. "
        "With ge the check at exactly the limit is rolled with 0 difficulty dice, so it "
        "fails only when the pool shows no success. Applies to wounds and stress, at the "
        "limit and at twice the limit.",
    ),
    RulesetOption(
        "melee_opposed",
        "compare_successes",
        "UAE-A4. The melee text never says whether the attacker rolls difficulty dice or how "
        "a 'win' is measured. The one reading implemented: attacker and defender roll their "
        "own skill pools without difficulty dice and the side with more successes wins (ties "
        "by the defence option); a side's karma difficulty dice take their failures off its "
        "successes. Damage is base + the winner's successes; a crit needs the winner's own "
        "net Advantage.",
    ),
    RulesetOption(
        "karma_bonus_unit",
        "dice",
        "UAE-A5. '+2 on any roll' / '+2 difficulty' in a pool system. Default dice: +2 skill "
        "dice or +2 difficulty dice, because the text's modifiers are dice ('bonuses / "
        "penalties', '2 penalty dice'). 'successes' adds 2 successes (or 2 failures) to the "
        "count instead.",
    ),
    RulesetOption(
        "karma_reroll",
        "last_open_roll",
        "UAE-04, UAE-A6. 'reroll dice (sorta like pushing)' names no roll, so it covers every "
        "roll a player makes: a called check, an attack (melee or a shot), the defender's "
        "Dodge / Defend / Fight Back, a sanity check, a daily recovery, a check above the "
        "wound or stress limit. The one reading implemented: the point rerolls all of the "
        "character's own dice of their last roll, once per character and roll; difficulty "
        "dice and the other side's roll are kept. A roll with consequences stays open only "
        "until anything else happens at the table; the reroll then decides it again from "
        "the state before it (hit, damage, stress, the checks that follow) and one "
        "roll_rerolled event corrects the values the first result set. A check the new "
        "result asks for unchanged keeps its dice, one it asks for anew is rolled. A called "
        "check (no consequences in the state) stays open until the next one.",
    ),
    RulesetOption(
        "severe_bleed_interval",
        "round",
        "UAE-A13. A Severely Injured character takes 'one damage every minute (or round?)'. "
        "Default round: the service counts rounds, so each new round bleeds 1 damage (and a "
        "death save when above twice the limit). 'minute' leaves bleeding to the Narrator's "
        "bleed command.",
    ),
    RulesetOption(
        "recovery_at_limit",
        "halved",
        "UAE-A18. Daily recovery and healing exactly at the limit: 'below your limit' "
        "excludes equal, so default halved (the 'above' branch); 'full' counts every success.",
    ),
    RulesetOption(
        "creation_points",
        12,
        "UAE-01. Investigators (player characters) must distribute exactly this many points "
        "between the four characteristics, each 1-5. NPCs and horrors are exempt (the text "
        "is about character creation). null switches the check off.",
    ),
    RulesetOption(
        "rapid_fire_penalty_dice",
        1,
        "UAE-34. Rapid Fire costs '1 penalty dice' to the Firearms pool (the text's number).",
    ),
    RulesetOption(
        "sprint_multiple",
        5,
        "UAE-02. A full-on sprint covers up to 5 x Move Speed in a round (the text's number). "
        "The text is silent on what else a sprinter can do: a sprint here takes the whole "
        "turn (action and move), the Narrator can rule otherwise.",
    ),
    RulesetOption(
        "run_multiple",
        3,
        "UAE-02. 'A sustained run is about 2-3 times their speed per round': a Move with "
        "run: true covers up to run_multiple x Move Speed. Default 3, the top of the text's "
        "'about 2-3' (a move is 'up to' its limit, so a run of twice the speed fits too). "
        "Like a sprint it takes the whole turn, because walking is the pace 'while the "
        "character is also busy fighting / shooting'. The text sets no limit on how long a "
        "sprint lasts; which of the two a chase over many rounds allows is the Narrator's "
        "ruling.",
    ),
    RulesetOption(
        "characteristic_xp_factor",
        50,
        "UAE-13. Raising a characteristic costs factor x current rank xp; the text's '50' is "
        "tentative ('maybe'), so it is an option. Skills cost 10 x rank, a new professional "
        "skill 20 xp and a named source.",
    ),
    RulesetOption(
        "starting_xp",
        0,
        "UAE-13. The text leaves starting xp blank ('___'): 0 by default, the Narrator grants "
        "xp by ruling.",
    ),
)
