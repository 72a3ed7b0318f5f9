"""The commands of the ``aeonis`` ruleset: what the GM or a side asks for.

Commands that carry ``side`` are that side's (a player token bound to the side may issue
them); map setup, Round Start, Cleanup & Checks and rulings are the GM's.  One Attack
action is a short conversation: ``attack`` (attacker) -> ``defend`` (defender) ->
``fight`` (attacker; rolls the battle round) -> ``retreat``/``stand`` (attacker, then the
defender where it may retreat) -> ``press``, ``end_attack`` or ``lift_siege`` (attacker),
or ``occupy`` after a victory.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.rulesets.aeonis_combat.fields import (
    Die,
    HexKey,
    HexKind,
    Id,
    LongText,
    SideId,
    Targets,
    Text,
    UnitIds,
    UnitKind,
)


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of every aeonis command: frozen, keyword-only, strict, tagged on ``type``."""


class HexSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One hex of the map in play."""

    hex: HexKey
    kind: Annotated[HexKind, Meta(description="standard (cap 3), city or fortress (cap 5).")] = (
        "standard"
    )
    controller: Annotated[Id | None, Meta(description="Controlling side, if any.")] = None
    contested: bool = False
    attackable: Annotated[
        bool, Meta(description="Attackable by scenario rules whoever controls it (3.1).")
    ] = False


class AddHexes(_Command, frozen=True, kw_only=True, tag="aeonis.add_hexes"):
    """GM: add hexes to the map in play (control comes from the host game, AEC-A18)."""

    hexes: Annotated[tuple[HexSpec, ...], Meta(min_length=1, max_length=500)]


class LordAbilitySpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One ability as the Lord Sheet words it (the sheets are not part of the text, 2.1.1).
    The service records each use; the GM applies the effect by ruling."""

    name: Annotated[Text, Meta(examples=["Rally"])]
    timing: Annotated[
        Text,
        Meta(
            description="When the sheet says it may be used, in its words.",
            examples=["once per round, in a battle she is committed to"],
        ),
    ]
    effect: Annotated[
        LongText,
        Meta(
            description="What it does; the GM applies it by ruling.",
            examples=["one Infantry on her Battle Line rerolls its Attack Die"],
        ),
    ]
    passive: Annotated[
        bool, Meta(description="Always on while the Lord is not captured; never used.")
    ] = False
    requires_committed: Annotated[
        bool,
        Meta(description="The sheet says the Lord must be committed to a battle (2.1.2)."),
    ] = False
    per_round: Annotated[
        Annotated[int, Meta(ge=1, le=20)] | None,
        Meta(description="Uses per game round, when the sheet limits them."),
    ] = None


LordAbilities = Annotated[tuple[LordAbilitySpec, ...], Meta(max_length=20)]


class LordSheetSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Lord unit's stats and abilities from the Lord Sheet (section 2.1.1)."""

    name: Annotated[Text, Meta(examples=["Lady Vess"])]
    attack_die: Die
    defense_die: Die
    hp: Annotated[int, Meta(ge=1, le=20)]
    movement: Annotated[int, Meta(ge=0, le=20, description="Movement Range in hexes.")]
    abilities: LordAbilities = ()


class AddSide(_Command, frozen=True, kw_only=True, tag="aeonis.add_side"):
    """GM: a player with resources, a Home City and a Lord placed on the map."""

    id: Id
    name: Annotated[Text, Meta(examples=["House Red"])]
    lord_id: Annotated[Id, Meta(description="Unit id of the Lord token.")]
    lord: LordSheetSpec
    lord_hex: Annotated[
        HexKey | None, Meta(description="Where the Lord stands (default: Home City).")
    ] = None
    home_city: HexKey | None = None
    ap: Annotated[int, Meta(ge=0)] = 0
    renown: Annotated[int, Meta(ge=0)] = 0
    vp: Annotated[int, Meta(ge=0)] = 0


class UnitSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: Id
    kind: UnitKind


class AddUnits(_Command, frozen=True, kw_only=True, tag="aeonis.add_units"):
    """GM: place a side's units in a hex (recruiting is the host game's business)."""

    side: Id
    hex: HexKey
    units: Annotated[tuple[UnitSpec, ...], Meta(min_length=1, max_length=100)]


class MoveUnits(_Command, frozen=True, kw_only=True, tag="aeonis.move_units"):
    """Move units of a side to a hex, as the host game's movement allowed.

    No AP are charged (Actions.md is not part of the text). Refused: moving into a hex
    with enemy units (units only enter a fight by attacking, 1.1), a captured Lord, a
    Lord beyond its Movement Range, and units in an Attack action still going on.
    Committed units that end up not adjacent to their battle leave it; a siege whose
    attacker has no committed unit left ends (6.3).
    """

    side: SideId
    units: Annotated[UnitIds, Meta(min_length=1)]
    to: HexKey


class StartRound(_Command, frozen=True, kw_only=True, tag="aeonis.start_round"):
    """GM: Round Start of the next game round: AP reset (option ap_per_round), every
    Lord heals to full (2.1.3)."""


class Cleanup(_Command, frozen=True, kw_only=True, tag="aeonis.cleanup"):
    """GM: Cleanup & Checks: every captured Lord is released to its Home City at full HP
    (2.1.4); no AP, not a Move action."""


class Attack(_Command, frozen=True, kw_only=True, tag="aeonis.attack"):
    """The Attack action (2 AP) against a target hex.

    New battle: the target must be enemy-controlled, contested or scenario-attackable and
    the side needs a unit adjacent to it (3.1); ``commit`` names units from adjacent hexes
    (3.2) and ``line`` up to the cap of them for the Battle Line (default: the first ones).
    Against a hex this side already besieges: a new siege round; ``commit`` adds up to 3
    units to the Reserves (6.4).
    """

    side: SideId
    hex: HexKey
    commit: UnitIds = ()
    line: Annotated[
        UnitIds | None,
        Meta(description="Battle Line (default: the first committed up to the cap)."),
    ] = None
    assault: Annotated[
        bool, Meta(description="Assault a City/Fortress instead of a siege (section 7 variant).")
    ] = False


class Defend(_Command, frozen=True, kw_only=True, tag="aeonis.defend"):
    """The defender answers an attack: commits units from adjacent hexes (units in the
    target hex are committed already, AEC-A7), forms its line, and on a City may Hold the
    Walls (6.1). In a later siege round: up to 3 units to the Reserves (6.4)."""

    side: SideId
    hex: HexKey
    commit: UnitIds = ()
    line: UnitIds | None = None
    hold_the_walls: Annotated[
        bool | None,
        Meta(
            description="City: true holds the walls (a siege), false or absent declines. "
            "Fortress: always held (6.1); false is refused."
        ),
    ] = None
    targets: Targets = {}


class SetTargets(_Command, frozen=True, kw_only=True, tag="aeonis.set_targets"):
    """Choose (or change) which enemy Battle Line unit each of the side's strikers targets."""

    side: SideId
    hex: HexKey
    targets: Targets


class Reinforce(_Command, frozen=True, kw_only=True, tag="aeonis.reinforce"):
    """Choose which Reserves to promote onto the Battle Line in the coming battle round's
    Reinforce (4.1), or none (an empty list): at most as many as the line is under its
    cap. Sent before ``aeonis.fight``; the last choice counts. Promoted units are on the
    line for that round's strikes, so they may be targeted (4.2, 4.3)."""

    side: SideId
    hex: HexKey
    promote: UnitIds


class Fight(_Command, frozen=True, kw_only=True, tag="aeonis.fight"):
    """Resolve one battle round (section 4): Reinforce, Archer Pre-Strike, Strike,
    Counterstrike. Dice, in order: for each strike the striker's Attack Die, then the
    target's Defense Die."""

    side: SideId
    hex: HexKey
    targets: Targets = {}
    promote: Annotated[
        UnitIds | None,
        Meta(description="The attacker's Reinforce choice, as aeonis.reinforce (4.1)."),
    ] = None


class Retreat(_Command, frozen=True, kw_only=True, tag="aeonis.retreat"):
    """Retreat at the Retreat Check (4.4). The defender names an adjacent hex it
    controls (standard hexes only)."""

    side: SideId
    hex: HexKey
    to: Annotated[HexKey | None, Meta(description="Defender only: where its line retreats.")] = None


class Stand(_Command, frozen=True, kw_only=True, tag="aeonis.stand"):
    """Do not retreat at the Retreat Check."""

    side: SideId
    hex: HexKey


class Press(_Command, frozen=True, kw_only=True, tag="aeonis.press"):
    """Press the Attack (4.0): +1 AP, one more battle round now; once per Attack action.
    In a siege, ``commit`` adds up to 3 units to the Reserves for that round (6.4)."""

    side: SideId
    hex: HexKey
    commit: UnitIds = ()


class EndAttack(_Command, frozen=True, kw_only=True, tag="aeonis.end_attack"):
    """End the Attack action: the battle pauses (a siege keeps its marker; a standard
    battle dissolves unless standard_battle_persistence is 'paused')."""

    side: SideId
    hex: HexKey


class LiftSiege(_Command, frozen=True, kw_only=True, tag="aeonis.lift_siege"):
    """At the end of a siege round: remove the Siege marker; units stay where they are."""

    side: SideId
    hex: HexKey


class Occupy(_Command, frozen=True, kw_only=True, tag="aeonis.occupy"):
    """After a victory: move up to the Battle Line Cap surviving committed units into the
    hex (5.1); the others stay in their origin hexes."""

    side: SideId
    hex: HexKey
    units: UnitIds = ()


class UseLordAbility(_Command, frozen=True, kw_only=True, tag="aeonis.use_ability"):
    """Use an ability of the side's Lord Sheet. Refused while the Lord is captured
    (2.1.2, 2.1.4), for a passive ability, without the battle the ability says the Lord
    must be committed to, and beyond its uses per round. The GM applies the effect."""

    side: SideId
    ability: Annotated[Text, Meta(examples=["Rally"])]
    hex: Annotated[
        HexKey | None,
        Meta(
            description="The battle it is used in, if any (required when "
            "the ability needs the Lord committed)."
        ),
    ] = None
    note: Annotated[Text | None, Meta(description="What the player says: a target, a choice.")] = (
        None
    )


class SetLordAbilities(_Command, frozen=True, kw_only=True, tag="aeonis.set_lord_abilities"):
    """GM: replace the abilities of a side's Lord Sheet (a sheet entered late, or changed
    by a card)."""

    side: Id
    abilities: LordAbilities


class _Ruling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of the rulings a GM can make with ``aeonis.adjudicate``."""


class SetSideValue(_Ruling, frozen=True, kw_only=True, tag="set_side_value"):
    side: Id
    field: Annotated[str, Meta(pattern=r"^(ap|renown|vp)$", examples=["ap"])]
    value: Annotated[int, Meta(ge=0)]


class SetUnitHp(_Ruling, frozen=True, kw_only=True, tag="set_unit_hp"):
    """Set a unit's hit points (1 up to its maximum; remove_unit destroys)."""

    unit: Id
    hp: Annotated[int, Meta(ge=1)]


class RemoveUnit(_Ruling, frozen=True, kw_only=True, tag="remove_unit"):
    """Take a unit off the board (and out of any battle). Not for Lords."""

    unit: Id


class SetHex(_Ruling, frozen=True, kw_only=True, tag="set_hex"):
    """Set a hex's control, contested and scenario-attackable flags."""

    hex: HexKey
    controller: Id | None = None
    contested: bool = False
    attackable: bool = False


class AllowRetreat(_Ruling, frozen=True, kw_only=True, tag="allow_retreat"):
    """A card, spell or motion lets the defender retreat from a City/Fortress (4.4)."""

    hex: HexKey


class DecideBattle(_Ruling, frozen=True, kw_only=True, tag="decide_battle"):
    """Override a battle's outcome: the attacker won (control passes, occupation
    follows) or the defender holds (the battle ends)."""

    hex: HexKey
    winner: Annotated[str, Meta(pattern=r"^(attacker|defender)$", examples=["defender"])]


Ruling = SetSideValue | SetUnitHp | RemoveUnit | SetHex | AllowRetreat | DecideBattle


class Adjudicate(_Command, frozen=True, kw_only=True, tag="aeonis.adjudicate"):
    """A GM ruling with its reason; the log shows both."""

    ruling: Ruling
    reason: Annotated[Text, Meta(description="Why the table decided so.")]


Command = (
    AddHexes
    | AddSide
    | AddUnits
    | MoveUnits
    | StartRound
    | Cleanup
    | Attack
    | Defend
    | SetTargets
    | Reinforce
    | Fight
    | Retreat
    | Stand
    | Press
    | EndAttack
    | LiftSiege
    | Occupy
    | UseLordAbility
    | SetLordAbilities
    | Adjudicate
)

COMMAND_TYPES: tuple[type[Command], ...] = (
    AddHexes,
    AddSide,
    AddUnits,
    MoveUnits,
    StartRound,
    Cleanup,
    Attack,
    Defend,
    SetTargets,
    Reinforce,
    Fight,
    Retreat,
    Stand,
    Press,
    EndAttack,
    LiftSiege,
    Occupy,
    UseLordAbility,
    SetLordAbilities,
    Adjudicate,
)
