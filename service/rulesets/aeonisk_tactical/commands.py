"""The commands of the Aeonisk ruleset: what the GM and the players ask for.

Setup and table-wide commands are the GM's (add characters, bands, zones, tokens, moving
from phase to phase, rulings); players declare for their own characters, commit their
Reactions, make Breakaway free strikes, choose Dive or Hunker Down and resolve their
own declared actions (see ``access``).  ``decide`` checks every rule itself.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from service.rulesets.aeonisk_tactical.fields import (
    Band,
    DefenceMode,
    Id,
    Modifiers,
    Rank,
    Stance,
    SuppressChoice,
    Text,
    TokenKind,
    TraitName,
)
from service.rulesets.aeonisk_tactical.plan import MajorAction, MinorAction, Move
from service.rulesets.aeonisk_tactical.state import Pairing, Weapon


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of every Aeonisk command."""


class AddCharacter(_Command, frozen=True, kw_only=True, tag="aeonisk.add_character"):
    """Add a YAGS character. Agility, Strength and Health are required (initiative,
    damage and the Health check use them); Soak, Void and Bonds are core YAGS values."""

    id: Id
    name: Annotated[Text, Meta(examples=["Kaelia"])]
    side: Annotated[Text, Meta(description="Characters of other sides are foes.")]
    pc: Annotated[bool, Meta(description="Player character (false: NPC).")] = True
    attributes: Annotated[
        dict[TraitName, Rank],
        Meta(examples=[{"agility": 3, "strength": 3, "health": 3, "will": 3}]),
    ]
    skills: Annotated[dict[TraitName, Rank], Meta(examples=[{"athletics": 3, "melee": 4}])] = {}
    soak: Annotated[int, Meta(ge=0, le=100)] = 12
    void: Annotated[int, Meta(ge=0, le=10)] = 0
    bonds: Annotated[tuple[Id, ...], Meta(description="Ids of Bonded allies.")] = ()
    weapons: Annotated[
        dict[Text, Weapon],
        Meta(examples=[{"pistol": {"bonus": 4, "rate_of_fire": 1, "ranged": True}}]),
    ] = {}
    defence: Annotated[
        Pairing | None, Meta(description="Attribute x Skill of the active defence roll.")
    ] = None
    static_defence: Annotated[int, Meta(ge=0, le=100)] | None = None
    zone: Annotated[Id | None, Meta(description="Starting zone, with a zone map.")] = None
    parry: Annotated[
        Pairing | None,
        Meta(description="Attribute x Skill of a YAGS Parry (a Reaction against an attack)."),
    ] = None


class RemoveCharacter(_Command, frozen=True, kw_only=True, tag="aeonisk.remove_character"):
    """Take a character out of the encounter (fled, dismissed)."""

    id: Id


class SetBand(_Command, frozen=True, kw_only=True, tag="aeonisk.set_band"):
    """GM: set the range band between two characters (pair-wise, AEK-24, AEK-A20)."""

    a: Id
    b: Id
    band: Band


class PlaceInZone(_Command, frozen=True, kw_only=True, tag="aeonisk.place_in_zone"):
    """GM: put a character in a zone of the encounter's zone map (AEK-29)."""

    character: Id
    zone: Id


class PlaceToken(_Command, frozen=True, kw_only=True, tag="aeonisk.place_token"):
    """GM: put a Tactical Token on the table, where a character could claim it (AEK-50)."""

    id: Id
    kind: TokenKind
    label: Annotated[Text, Meta(examples=["the crate stack by the catwalk"])]


class NextPhase(_Command, frozen=True, kw_only=True, tag="aeonisk.next_phase"):
    """GM: move the round on: Setup or Cleanup -> a new round (Initiative, Declare
    Phase), Declare -> Fast, Fast -> Slow, Slow -> Cleanup.  With ``initiative =
    together`` the new round takes one d20 per character in the order they were added;
    with ``one_at_a_time`` each character rolls with ``roll_initiative`` as the dice land.
    ``close_declarations`` ends the Declare Phase even though some have not declared:
    their declaration lapses, with no Defence Token allocated (section 4)."""

    initiative: Annotated[
        Literal["together", "one_at_a_time"],
        Meta(description="How a new round's Initiative is rolled."),
    ] = "together"
    close_declarations: Annotated[
        bool, Meta(description="End the Declare Phase now; who has not declared lapses.")
    ] = False


class RollInitiative(_Command, frozen=True, kw_only=True, tag="aeonisk.roll_initiative"):
    """One character's Initiative die (Agility x 4 + d20), in a round started with
    ``initiative = one_at_a_time``; any order, declarations wait for the last die."""

    character: Id


class VoidSurge(_Command, frozen=True, kw_only=True, tag="aeonisk.void_surge"):
    """Free Action (section 8): add Void Surge to the character's declared attack, any
    time before its attack roll: +4 damage, Shock on a hit, 1 Stun backlash."""

    character: Id


class Declare(_Command, frozen=True, kw_only=True, tag="aeonisk.declare"):
    """Declare Phase (section 1): intended Major and Minor actions and the Defence Token,
    in ascending Initiative. No rolls are made. Omitting the token means none is active:
    every attacker gains Flanking."""

    character: Id
    major: MajorAction | None = None
    minor: MinorAction | None = None
    minor_first: Annotated[bool, Meta(description="Resolve the Minor before the Major.")] = False
    defence_token: Annotated[Id | None, Meta(description="The foe the token is on.")] = None
    heroic_burn: Annotated[bool, Meta(description="Burn the token now: -4 (section 4).")] = False
    defence: Annotated[
        DefenceMode, Meta(description="active roll, full defence (no Major), or static.")
    ] = "active"
    forfeit: Annotated[
        bool, Meta(description="Forfeit the turn to re-roll Initiative (section 1, Shock).")
    ] = False
    stance: Stance | None = None


class _Reaction(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind"
):
    """Base of the Reactions of the Fast Phase."""


class SpendToken(_Reaction, frozen=True, kw_only=True, tag="spend_token"):
    """Spend the held Tactical Token (section 5). Void Slick needs ``target`` (a foe who
    declared a move); Sprint Lane needs ``move`` (one band); Vent may give ``rounds``."""

    target: Id | None = None
    move: Move | None = None
    rounds: Annotated[int, Meta(ge=1, le=10)] = 1


class BondedDefence(_Reaction, frozen=True, kw_only=True, tag="bonded_defence"):
    """+2 to a Bonded ally's defence against one declared attack; -2 to your own next
    defence roll (section 8)."""

    ally: Id
    attacker: Id


class HeroicBurn(_Reaction, frozen=True, kw_only=True, tag="heroic_burn"):
    """Evade: upgrade the Defence Token to -4 for this round, once per combat."""


class OverwatchFire(_Reaction, frozen=True, kw_only=True, tag="overwatch_fire"):
    """Fire the armed Overwatch at the first foe acting in its arc.  The range is
    measured to the watched zone where the foe enters or acts (AEK-59, AEK-A24); ``band``
    is the GM's entry when the zone map gives no band for that pair of zones."""

    target: Id
    band: Annotated[Band | None, Meta(description="GM entry: the band to the trigger point.")] = (
        None
    )


class Parry(_Reaction, frozen=True, kw_only=True, tag="parry"):
    """YAGS Parry against a foe's declared attack on this character (AEK-14, AEK-21): it
    resolves with that attack in the Slow Phase, the defence roll being Attribute x Skill
    + d20 + ``bonus``.  The numbers are YAGS's, not the tactical text's: the sheet's
    ``parry`` pairing, or ``attribute`` and ``skill`` entered here (the GM's entry)."""

    attacker: Id
    attribute: TraitName | None = None
    skill: TraitName | None = None
    bonus: Annotated[int, Meta(ge=-20, le=20, description="YAGS parry bonus (weapon, shield).")] = 0


Reaction = Parry | SpendToken | BondedDefence | HeroicBurn | OverwatchFire


class React(_Command, frozen=True, kw_only=True, tag="aeonisk.react"):
    """Use the character's one Reaction (Fast Phase, descending Initiative)."""

    character: Id
    reaction: Reaction


class FreeStrike(_Command, frozen=True, kw_only=True, tag="aeonisk.free_strike"):
    """Breakaway (section 3): a free strike, as a Reaction, at a foe who just left Engaged
    without disengaging."""

    character: Id
    weapon: Text
    attribute: TraitName
    skill: TraitName


class Resolve(_Command, frozen=True, kw_only=True, tag="aeonisk.resolve"):
    """Slow Phase: resolve the next declared action (descending Initiative, Normal before
    Slow). Extra modifiers make it a GM command."""

    attack_modifiers: Modifiers = ()
    defence_modifiers: Modifiers = ()


class ChooseSuppression(_Command, frozen=True, kw_only=True, tag="aeonisk.choose_suppression"):
    """A suppressed target chooses: Dive (shift 1 band away, lose Cover) or Hunker Down
    (-4 to attack and defence until their next turn)."""

    character: Id
    choice: SuppressChoice
    zone: Annotated[Id | None, Meta(description="Where to Dive to (zone maps only).")] = None


class Check(_Command, frozen=True, kw_only=True, tag="aeonisk.check"):
    """GM: any task roll outside the action economy (morale, a save the GM calls for):
    Attribute x Skill + d20 against 10/20/30, +1 success tier per full +10."""

    character: Id
    label: Annotated[Text, Meta(examples=["Morale"])]
    attribute: TraitName
    skill: TraitName
    dc: Annotated[int, Meta(ge=1, le=100)]
    modifiers: Modifiers = ()


class _Ruling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of the GM's rulings."""


class SetValue(_Ruling, frozen=True, kw_only=True, tag="set_value"):
    """Set wounds, stun, void, soak, initiative, attribute:<key> or skill:<key>."""

    character: Id
    field: Annotated[
        str,
        Meta(
            pattern=r"^(wounds|stun|void|soak|initiative|attribute:[a-z_]+|skill:[a-z_]+)$",
            examples=["initiative"],
        ),
    ]
    value: Annotated[int, Meta(ge=0, le=1000)]


class SetProne(_Ruling, frozen=True, kw_only=True, tag="set_prone"):
    """Knock a character Prone or stand them up (section 5b: 'an opponent's action')."""

    character: Id
    prone: bool


class InflictShock(_Ruling, frozen=True, kw_only=True, tag="shock"):
    """A Shock from any source the GM names (section 1)."""

    character: Id


class OverrideOutcome(_Ruling, frozen=True, kw_only=True, tag="override_outcome"):
    """Change the recorded outcome of a recent roll; its consequences are not redone."""

    roll_id: Annotated[Id, Meta(examples=["r7"])]
    outcome: Text


class NullifyEnergy(_Ruling, frozen=True, kw_only=True, tag="nullify_energy"):
    """End a banked Energy Hub bonus ('persists until nullified', AEK-A15)."""

    character: Id


class VoidSplash(_Ruling, frozen=True, kw_only=True, tag="void_splash"):
    """Void Slick's '+1 Void splash to those in it' (AEK-48, AEK-A17)."""

    characters: Annotated[tuple[Id, ...], Meta(min_length=1, max_length=20)]


class ExtraDefenceToken(_Ruling, frozen=True, kw_only=True, tag="extra_defence_token"):
    """Something grants another Defence Token: it only 'upgrades' the one held, which
    stays capped at -2 (-4 when burned), so nothing changes (AEK-37, AEK-A13)."""

    character: Id


class ClearObscurement(_Ruling, frozen=True, kw_only=True, tag="clear_obscurement"):
    """End every Vent obscurement early."""


Ruling = (
    SetValue
    | SetProne
    | InflictShock
    | OverrideOutcome
    | NullifyEnergy
    | VoidSplash
    | ExtraDefenceToken
    | ClearObscurement
)


class Adjudicate(_Command, frozen=True, kw_only=True, tag="aeonisk.adjudicate"):
    """A GM ruling with its reason; the log shows both. Allowed in every phase."""

    ruling: Ruling
    reason: Annotated[Text, Meta(description="Why the table decided so.")]


class EndEncounter(_Command, frozen=True, kw_only=True, tag="aeonisk.end_encounter"):
    """End the encounter; afterwards only GM rulings are accepted."""


Command = (
    AddCharacter
    | RemoveCharacter
    | SetBand
    | PlaceInZone
    | PlaceToken
    | NextPhase
    | RollInitiative
    | Declare
    | VoidSurge
    | React
    | FreeStrike
    | Resolve
    | ChooseSuppression
    | Check
    | Adjudicate
    | EndEncounter
)

COMMAND_TYPES: tuple[type[Command], ...] = (
    AddCharacter,
    RemoveCharacter,
    SetBand,
    PlaceInZone,
    PlaceToken,
    NextPhase,
    RollInitiative,
    Declare,
    VoidSurge,
    React,
    FreeStrike,
    Resolve,
    ChooseSuppression,
    Check,
    Adjudicate,
    EndEncounter,
)
