"""The commands of the generic ruleset: what a GM or player asks for.

Commands are request shapes, documented for OpenAPI through ``Meta`` descriptions; they
are never stored (the events ``decide`` returns are).  Field constraints here reject
malformed JSON early (HTTP 400); ``decide`` still checks every rule itself, because
commands can also be built in code without passing through the decoder.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.rulesets.generic.fields import Duration, Id, Modifiers, Notation, Number, Text
from service.rulesets.generic.state import SheetAttack


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of every generic command: frozen, keyword-only, strict, tagged on ``type``."""


class AddCombatant(_Command, frozen=True, kw_only=True, tag="generic.add_combatant"):
    """Add a combatant. Late joiners get a turn once they roll initiative."""

    id: Annotated[Id, Meta(description="Unique id, used by every later command.")]
    name: Annotated[Text, Meta(description="Name shown in the log.", examples=["Goblin"])]
    hp: Annotated[int, Meta(ge=0, le=1_000_000, description="Current hit points.")]
    max_hp: Annotated[
        Annotated[int, Meta(ge=1, le=1_000_000)] | None,
        Meta(description="Maximum hp (default: hp)."),
    ] = None
    stats: Annotated[
        dict[str, Number],
        Meta(description="Named stats, e.g. ac or dex.", examples=[{"ac": 15, "dex": 2}]),
    ] = {}
    side: Annotated[str | None, Meta(description="Party or faction, for display.")] = None
    attacks: Annotated[
        dict[Text, SheetAttack],
        Meta(
            description="The sheet's attacks by name: players attack only with these.",
            examples=[{"longsword": {"notation": "1d20+5", "damage": "1d8+3"}}],
        ),
    ] = {}
    checks: Annotated[
        dict[Text, Notation],
        Meta(
            description="The sheet's checks by name and their dice: players roll only these.",
            examples=[{"Stealth": "1d20+4"}],
        ),
    ] = {}


class RemoveCombatant(_Command, frozen=True, kw_only=True, tag="generic.remove_combatant"):
    """Take a combatant out (fled, dismissed); a current turn passes on to the next."""

    id: Id


class RollInitiative(_Command, frozen=True, kw_only=True, tag="generic.roll_initiative"):
    """Roll initiative; the first roll starts round 1. Later rolls place late joiners.

    Order: higher total first; ties go to the higher initiative modifier, then to 1d20
    roll-offs among those still tied (up to 10, then the order they were added in).
    A late joiner tied with someone already in the order goes after them.
    """

    combatants: Annotated[
        tuple[Id, ...] | None,
        Meta(description="Who rolls (null: everyone without initiative yet)."),
    ] = None
    notation: Annotated[
        Notation | None, Meta(description="Dice to roll instead of the encounter's default.")
    ] = None
    wait_for_all: Annotated[
        bool,
        Meta(
            description=(
                "Before combat: enter these rolls and wait for the others (the table rolls "
                "one at a time as the dice land). Round 1 starts with the roll that gives "
                "the last combatant initiative; ties across all of them are broken then."
            )
        ),
    ] = False


class NextTurn(_Command, frozen=True, kw_only=True, tag="generic.next_turn"):
    """End the current turn; after the last in the order a new round begins."""


class Attack(_Command, frozen=True, kw_only=True, tag="generic.attack"):
    """Roll an attack; it hits when the total meets or beats the target number.

    On a hit the damage notation (if any) is rolled and applied. A combatant at 0 hp or
    below cannot attack.
    """

    attacker: Annotated[Id, Meta(description="Id of the attacking combatant.")]
    target: Annotated[Id, Meta(description="Id of the combatant attacked.")]
    using: Annotated[
        Text | None,
        Meta(description="An attack of the attacker's sheet (its roll and damage).",
             examples=["longsword"]),
    ] = None  # fmt: skip
    notation: Annotated[
        Notation | None, Meta(description="Attack roll, e.g. 1d20+5 (GM; instead of using).")
    ] = None
    target_number: Annotated[
        Number | None, Meta(description="Number to meet or beat (default: target's defense stat).")
    ] = None
    damage: Annotated[Notation | None, Meta(description="Damage rolled on a hit, e.g. 1d8+3.")] = (
        None
    )
    modifiers: Modifiers = ()


class OpposedRoll(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The roll that opposes a check."""

    combatant: Id
    notation: Notation
    modifiers: Modifiers = ()


class Check(_Command, frozen=True, kw_only=True, tag="generic.check"):
    """Roll a check: against a target number (meet or beat), opposed, or neither.

    Opposed: the checking combatant succeeds only with a strictly higher total, so a tie
    goes to the opposition (the status quo holds). With neither, it is a plain roll whose
    outcome the table judges.
    """

    combatant: Annotated[Id, Meta(description="Id of the combatant making the check.")]
    using: Annotated[
        Text | None, Meta(description="A check of the combatant's sheet.", examples=["Stealth"])
    ] = None
    notation: Annotated[Notation | None, Meta(description="Dice (GM; instead of using).")] = None
    label: Annotated[
        Text | None,
        Meta(description="What is checked (default: the sheet check's name).",
             examples=["Stealth"]),
    ] = None  # fmt: skip
    target_number: Annotated[Number | None, Meta(description="Number to meet or beat.")] = None
    opposed: Annotated[OpposedRoll | None, Meta(description="Roll to beat instead.")] = None
    modifiers: Modifiers = ()


class Damage(_Command, frozen=True, kw_only=True, tag="generic.damage"):
    """Deal damage: give amount or a notation to roll. hp stops at 0 unless negative hp
    is allowed; reaching 0 adds the down condition."""

    target: Id
    amount: Annotated[int, Meta(ge=0, le=1_000_000)] | None = None
    notation: Notation | None = None
    source: Annotated[
        Text | None, Meta(description="What deals it, for the log.", examples=["fire"])
    ] = None


class Heal(_Command, frozen=True, kw_only=True, tag="generic.heal"):
    """Restore hp (amount or notation), never above max hp; above 0 removes down."""

    target: Id
    amount: Annotated[int, Meta(ge=0, le=1_000_000)] | None = None
    notation: Notation | None = None
    source: Annotated[
        Text | None, Meta(description="What heals, for the log.", examples=["potion"])
    ] = None


class AddCondition(_Command, frozen=True, kw_only=True, tag="generic.add_condition"):
    """Add a condition; adding one the combatant has restarts its duration."""

    target: Id
    condition: Annotated[Text, Meta(examples=["prone"])]
    duration_rounds: Duration = None


class RemoveCondition(_Command, frozen=True, kw_only=True, tag="generic.remove_condition"):
    """Remove a condition before it expires."""

    target: Id
    condition: Text


class _Ruling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of the rulings a GM can make with ``generic.adjudicate``."""


class SetValue(_Ruling, frozen=True, kw_only=True, tag="set_value"):
    """Set hp, max_hp, initiative or a stat to an exact value. hp at 0 still adds the down
    condition; hp above max_hp is allowed (temporary hit points). Initiative places the
    combatant in the order by the new total (after those already at it); whose turn it
    is does not change."""

    combatant: Id
    field: Annotated[
        str,
        Meta(
            pattern=r"^(hp|max_hp|initiative|stat:[^\s:]+)$",
            examples=["hp", "initiative", "stat:dex"],
        ),
    ]
    value: Number


class AddConditionRuling(_Ruling, frozen=True, kw_only=True, tag="add_condition"):
    """Add a condition, as ``generic.add_condition`` does."""

    target: Id
    condition: Text
    duration_rounds: Duration = None


class RemoveConditionRuling(_Ruling, frozen=True, kw_only=True, tag="remove_condition"):
    """Remove a condition, as ``generic.remove_condition`` does."""

    target: Id
    condition: Text


class OverrideOutcome(_Ruling, frozen=True, kw_only=True, tag="override_outcome"):
    """Change the outcome of a recent attack (hit/miss) or check (success/failure).

    Only the record changes: follow it with damage or another ruling for its effects.
    """

    roll_id: Annotated[Id, Meta(examples=["r12"])]
    outcome: Annotated[Text, Meta(examples=["hit"])]


Ruling = SetValue | AddConditionRuling | RemoveConditionRuling | OverrideOutcome


class Adjudicate(_Command, frozen=True, kw_only=True, tag="generic.adjudicate"):
    """A GM ruling with its reason; the log shows both. Allowed after the encounter ends."""

    ruling: Ruling
    reason: Annotated[Text, Meta(description="Why the table decided so.")]


class EndEncounter(_Command, frozen=True, kw_only=True, tag="generic.end_encounter"):
    """End the encounter; afterwards only GM rulings are accepted."""


Command = (
    AddCombatant
    | RemoveCombatant
    | RollInitiative
    | NextTurn
    | Attack
    | Check
    | Damage
    | Heal
    | AddCondition
    | RemoveCondition
    | Adjudicate
    | EndEncounter
)

COMMAND_TYPES: tuple[type[Command], ...] = (
    AddCombatant,
    RemoveCombatant,
    RollInitiative,
    NextTurn,
    Attack,
    Check,
    Damage,
    Heal,
    AddCondition,
    RemoveCondition,
    Adjudicate,
    EndEncounter,
)
