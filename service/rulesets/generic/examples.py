"""Example commands and events of the generic ruleset, for front-end developers.

``EXAMPLES`` holds one realistic instance of every command and event type.  The service
shows them in the OpenAPI document and in ``GET /rulesets/generic``, so whoever builds a
client sees real request bodies and real stored events (roll records included) instead
of bare schemas.  A unit test checks that no type is missing and that they decode.

They tell one small story.  ``STORY_SO_FAR`` is what happened before it: Aria and Borin
joined, Borin's war cry inspired Aria for a round, and they rolled initiative (r1, r2),
which started round 1 with Aria's turn.  Then the events of ``EXAMPLES``, in order:

1. Grak the goblin joins late and rolls initiative (r3), landing between the two.
2. Aria, inspired, hits Grak (r4) and wounds him (r5); the turn passes to Grak.
3. Grak throws sand at Borin: a Dirty trick check opposed by Borin (r6 against r7),
   which succeeds, so Borin is blinded for a round.
4. The GM overrules the check (Borin's visor was down) and the blindness is removed.
5. Grak drinks a potion (r8) and snatches up a shield (GM ruling: ac 13 -> 15).
6. Round 2 begins (Borin's turn in between is not shown), Aria's inspiration runs out,
   Grak flees and the encounter ends.

Each type appears once, so events a full log would repeat (Borin's turn, a second
``combatant_added``) are left out; folding ``STORY_SO_FAR`` and then the event examples
with ``evolve`` still gives a consistent state.  The command examples are requests from
the same table: most of them caused the events above (the burning oil is left untold).

Dice are real ``RollingDice`` rolls of chosen faces, recorded as server dice of fairness
epoch 1 (die index 0, 1, ... in roll order), so faces, modifiers and totals add up.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from service.dice import Modifier, RollingDice, RollRecord
from service.dice.faces import ScriptedFaces
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    Adjudicate,
    Attack,
    Check,
    Command,
    Damage,
    EndEncounter,
    Heal,
    NextTurn,
    OpposedRoll,
    OverrideOutcome,
    RemoveCombatant,
    RemoveCondition,
    RollInitiative,
)
from service.rulesets.generic.events import (
    AttackRolled,
    CheckRolled,
    CombatantAdded,
    CombatantRemoved,
    ConditionAdded,
    ConditionExpired,
    ConditionRemoved,
    Damaged,
    EncounterEnded,
    Event,
    Healed,
    InitiativeRolled,
    OutcomeOverridden,
    RoundStarted,
    TurnStarted,
    ValueSet,
)
from service.rulesets.generic.evolve import evolve
from service.rulesets.generic.options import GenericOptions
from service.rulesets.generic.state import InitiativeEntry, SheetAttack, State, initial_state

__all__ = ["COMMANDS", "EVENTS", "EXAMPLES", "STORY_SO_FAR"]

EPOCH = 1
"""The fairness epoch the example server rolls belong to."""


_FACES = ScriptedFaces(default=None, epoch=EPOCH)
_DICE = RollingDice(_FACES, next_roll_number=1)


def _roll(
    faces: list[int],
    notation: str,
    *,
    purpose: str,
    roller: str | None = None,
    modifiers: tuple[Modifier, ...] = (),
    target: int | None = None,
) -> RollRecord:
    """The next roll of the story (r1, r2 ...), showing ``faces``."""
    _FACES.pending = list(faces)
    record = _DICE.roll(
        notation, purpose=purpose, roller=roller, modifiers=modifiers, target=target
    )
    _FACES.ensure_all_used()
    return record


# Before the examples: Aria and Borin, inspired Aria, initiative and round 1.

_ARIA_INITIATIVE = _roll([14], "1d20", purpose="initiative", roller="aria")
_BORIN_INITIATIVE = _roll([6], "1d20", purpose="initiative", roller="borin")
_ARIA_ENTRY = InitiativeEntry(combatant="aria", total=_ARIA_INITIATIVE.total)
_BORIN_ENTRY = InitiativeEntry(combatant="borin", total=_BORIN_INITIATIVE.total)

STORY_SO_FAR: tuple[Event, ...] = (
    CombatantAdded(
        combatant="aria", name="Aria", hp=22, max_hp=22, stats={"ac": 15, "dex": 3}, side="party"
    ),
    CombatantAdded(
        combatant="borin", name="Borin", hp=28, max_hp=28, stats={"ac": 17, "str": 3}, side="party"
    ),
    ConditionAdded(combatant="aria", condition="inspired", duration_rounds=1, expires_at_round=2),
    InitiativeRolled(
        results=(_ARIA_ENTRY, _BORIN_ENTRY),
        order=(_ARIA_ENTRY, _BORIN_ENTRY),
        rolls=(_ARIA_INITIATIVE, _BORIN_INITIATIVE),
    ),
    RoundStarted(round=1, combatant="aria"),
)
"""The events before ``EXAMPLES``, so that the event examples fold into a real state."""


# The story's rolls, r3 onwards.

_GRAK_INITIATIVE = _roll([11], "1d20", purpose="initiative", roller="grak")
_GRAK_ENTRY = InitiativeEntry(combatant="grak", total=_GRAK_INITIATIVE.total)
_INSPIRED = Modifier("inspired", 2)
_ATTACK = _roll(
    [12], "1d20+5", purpose="attack on Grak", roller="aria", modifiers=(_INSPIRED,), target=13
)
_ATTACK_DAMAGE = _roll([2], "1d8+3", purpose="damage to Grak", roller="aria")
_DIRTY_TRICK = _roll([15], "1d20+2", purpose="Dirty trick check", roller="grak")
_RESISTED = _roll([11], "1d20+3", purpose="Dirty trick check opposing Grak", roller="borin")
_POTION = _roll([1, 2], "2d4+2", purpose="healing for Grak from potion of healing")
_OVERRULED = "Borin's visor was down: the sand never reached his eyes"

COMMANDS: tuple[Command, ...] = (
    AddCombatant(
        id="grak",
        name="Grak",
        hp=7,
        stats={"ac": 13, "dex": 2},
        side="goblins",
        attacks={"scimitar": SheetAttack(notation="1d20+4", damage="1d6+2")},
        checks={"Dirty trick": "1d20+2"},
    ),
    RollInitiative(combatants=("grak",)),
    Attack(
        attacker="aria",
        target="grak",
        notation="1d20+5",
        damage="1d8+3",
        modifiers=(_INSPIRED,),
    ),
    NextTurn(),
    Check(
        combatant="grak",
        notation="1d20+2",
        label="Dirty trick",
        opposed=OpposedRoll(combatant="borin", notation="1d20+3"),
    ),
    AddCondition(target="borin", condition="blinded", duration_rounds=1),
    Adjudicate(
        ruling=OverrideOutcome(roll_id=_DIRTY_TRICK.roll_id, outcome="failure"), reason=_OVERRULED
    ),
    RemoveCondition(target="borin", condition="blinded"),
    Heal(target="grak", notation="2d4+2", source="potion of healing"),
    Damage(target="grak", notation="1d6", source="burning oil"),
    RemoveCombatant(id="grak"),
    EndEncounter(),
)

EVENTS: tuple[Event, ...] = (
    CombatantAdded(
        combatant="grak",
        name="Grak",
        hp=7,
        max_hp=7,
        stats={"ac": 13, "dex": 2},
        side="goblins",
        attacks={"scimitar": SheetAttack(notation="1d20+4", damage="1d6+2")},
        checks={"Dirty trick": "1d20+2"},
    ),
    InitiativeRolled(
        results=(_GRAK_ENTRY,),
        order=(_ARIA_ENTRY, _GRAK_ENTRY, _BORIN_ENTRY),
        rolls=(_GRAK_INITIATIVE,),
    ),
    AttackRolled(
        attacker="aria", target="grak", outcome="hit", rolls=(replace(_ATTACK, outcome="hit"),)
    ),
    Damaged(
        target="grak",
        amount=_ATTACK_DAMAGE.total,
        hp_after=7 - _ATTACK_DAMAGE.total,
        source="Aria's attack",
        rolls=(_ATTACK_DAMAGE,),
    ),
    TurnStarted(combatant="grak"),
    CheckRolled(
        combatant="grak",
        label="Dirty trick",
        opponent="borin",
        outcome="success",
        rolls=(
            replace(_DIRTY_TRICK, opposed_by=_RESISTED.roll_id, outcome="success"),
            replace(_RESISTED, opposed_by=_DIRTY_TRICK.roll_id, outcome="failure"),
        ),
    ),
    ConditionAdded(combatant="borin", condition="blinded", duration_rounds=1, expires_at_round=2),
    OutcomeOverridden(
        roll_id=_DIRTY_TRICK.roll_id,
        kind="check",
        previous="success",
        outcome="failure",
        reason=_OVERRULED,
    ),
    ConditionRemoved(combatant="borin", condition="blinded"),
    Healed(
        target="grak",
        amount=_POTION.total,
        hp_after=min(7, 7 - _ATTACK_DAMAGE.total + _POTION.total),
        source="potion of healing",
        rolls=(_POTION,),
    ),
    ValueSet(
        combatant="grak",
        field="stat:ac",
        value=15,
        previous=13,
        reason="Grak snatched up a fallen guard's shield",
    ),
    RoundStarted(round=2, combatant="aria"),
    ConditionExpired(combatant="aria", condition="inspired", round=2),
    CombatantRemoved(combatant="grak"),
    EncounterEnded(),
)

EXAMPLES: tuple[msgspec.Struct, ...] = (*COMMANDS, *EVENTS)
"""One instance of every command type, then one of every event type (``Ruleset.examples``)."""


def example_stories() -> tuple[tuple[State, tuple[Event, ...]], ...]:
    """Where the event examples happen, for the conformance suite: the state after
    ``STORY_SO_FAR`` and the event examples folded from it, in order."""
    state = initial_state(GenericOptions())
    for event in STORY_SO_FAR:
        state = evolve(state, event)
    return ((state, EVENTS),)
