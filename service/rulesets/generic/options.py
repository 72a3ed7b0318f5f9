"""Encounter options of the generic ruleset: the places where rule systems differ.

Each option has a default chosen so that an encounter created with ``{}`` behaves the way
most d20-style tables expect, and a note (``OPTION_NOTES``) that ``GET /rulesets/generic``
shows, saying what the option does and why the default is what it is.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.options import NotationOption
from service.ruleset import RulesetOption
from service.rulesets.generic.fields import StatName


class GenericOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the encounter is created; they never change afterwards."""

    initiative_notation: Annotated[
        NotationOption, Meta(description="Dice rolled for initiative, e.g. 1d20 or 2d6.")
    ] = "1d20"
    initiative_stat: Annotated[
        StatName | None,
        Meta(description="Stat added to the initiative roll and used first to break ties."),
    ] = None
    defense_stat: Annotated[
        StatName | None,
        Meta(description="Target's stat used as the attack target number when none is given."),
    ] = "ac"
    allow_negative_hp: Annotated[
        bool, Meta(description="Let hit points go below 0 instead of stopping at 0.")
    ] = False
    down_condition: Annotated[
        Annotated[str, Meta(min_length=1, max_length=40)] | None,
        Meta(description="Condition added when hp drops to 0 or below (null: none)."),
    ] = "down"
    skip_down_turns: Annotated[
        bool, Meta(description="next_turn skips combatants at 0 hp or below.")
    ] = True
    strict_turns: Annotated[
        bool,
        Meta(description="Once combat started, only the combatant whose turn it is may attack."),
    ] = False


OPTION_NOTES: tuple[RulesetOption, ...] = (
    RulesetOption(
        "initiative_notation",
        "1d20",
        "Dice rolled for initiative. 1d20 is what most tables of unknown systems use; any "
        "notation works (2d6, 1d10, 3d6kh1).",
    ),
    RulesetOption(
        "initiative_stat",
        None,
        "Stat added to initiative as a labelled modifier (e.g. 'dex'); combatants without "
        "it add 0. Ties on the total go to the higher modifier, then to 1d20 roll-offs. "
        "Default none: a generic system cannot know which stat its rules use.",
    ),
    RulesetOption(
        "defense_stat",
        "ac",
        "Stat of the target used as the attack's target number when the attack gives none. "
        "'ac' because most d20 systems call it that; an attack with neither is refused.",
    ),
    RulesetOption(
        "allow_negative_hp",
        False,
        "Whether hp can go below 0. Off by default: most systems treat 0 as the floor and "
        "a log of '-7 hp' confuses more tables than it helps.",
    ),
    RulesetOption(
        "down_condition",
        "down",
        "Condition added when hp reaches 0 (removed when healed above 0); null adds none. "
        "A named condition makes 'out of the fight' visible in state and log.",
    ),
    RulesetOption(
        "skip_down_turns",
        True,
        "next_turn passes over combatants at 0 hp or below. On by default since downed "
        "combatants rarely act; turn it off for systems with death saves on one's turn.",
    ),
    RulesetOption(
        "strict_turns",
        False,
        "Once combat started, only the combatant whose turn it is may attack. Off by default: "
        "generic tables have reactions and opportunity attacks the ruleset cannot know.",
    ),
)
