"""Example commands and events of the ``aeonis`` ruleset, for front-end developers.

``EXAMPLES`` holds one realistic instance of every command and event type, shown in the
OpenAPI document and ``GET /rulesets/aeonis``.  They are not written by hand: ``STORY``
plays a short war between House Red and House Blue through ``decide`` with chosen manual
dice when this module is imported, and the examples are the first command and event of
each type in it, so every example is exactly what the ruleset does.

The story:

1. The map, the two Houses and their units; round 1 begins.
2. Red attacks the standard hex 0,0 (2 AP).  Blue commits its Archer from 1,0 and, its
   line full, promotes nobody in Reinforce.  Red's
   Archer and Cavalry bring down Blue's Lord, who is captured (+2 Renown, +1 VP); Blue's
   Infantry wounds Red's Cavalry.  Red stands, Blue retreats to 1,0, Red occupies 0,0.
3. Red moves its Lord and Archer next to Blue's Home City 1,-1 and attacks it; Blue
   Holds the Walls: a siege.  Red's Lord uses her Rally.  One siege round, then Red
   Presses the Attack (+1 AP), Blue adds a reinforcement, a second round, and the Attack
   action ends with the siege on.
4. Cleanup & Checks release Blue's Lord to its Home City; round 2 begins and Red's
   wounded Lord heals.  Red attacks the City again (a new siege round), the GM rules
   that a parley lets the defenders retreat, nothing gets through, and Red lifts the
   siege.  Then a few GM rulings, and Blue's Lord Sheet gets an ability.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.dice import ManualFaces, RollingDice
from service.rulesets.aeonis_combat.commands import (
    AddHexes,
    AddSide,
    AddUnits,
    Adjudicate,
    AllowRetreat,
    Attack,
    Cleanup,
    Command,
    Defend,
    EndAttack,
    Fight,
    HexSpec,
    LiftSiege,
    LordAbilitySpec,
    LordSheetSpec,
    MoveUnits,
    Occupy,
    Press,
    Reinforce,
    RemoveUnit,
    Retreat,
    SetHex,
    SetLordAbilities,
    SetSideValue,
    SetTargets,
    SetUnitHp,
    Stand,
    StartRound,
    UnitSpec,
    UseLordAbility,
)
from service.rulesets.aeonis_combat.decide import decide
from service.rulesets.aeonis_combat.events import Event
from service.rulesets.aeonis_combat.evolve import evolve
from service.rulesets.aeonis_combat.options import AeonisOptions
from service.rulesets.aeonis_combat.state import State, initial_state

RALLY = LordAbilitySpec(
    name="Rally",
    timing="once per round, in a battle she is committed to",
    effect="one Infantry on her Battle Line rerolls its Attack Die",
    requires_committed=True,
    per_round=1,
)
"""Red's Lord's ability, as her Lord Sheet words it."""

TIE = [[1]] * 12
"""Six strikes that all tie: no damage."""

SCRIPT: tuple[tuple[Command, Sequence[Sequence[int]]], ...] = (
    (
        AddHexes(
            hexes=(
                HexSpec(hex="-2,0", kind="city", controller="red"),
                HexSpec(hex="-1,0", controller="red"),
                HexSpec(hex="-1,1", controller="red"),
                HexSpec(hex="0,-1"),
                HexSpec(hex="0,0", controller="blue"),
                HexSpec(hex="1,0", controller="blue"),
                HexSpec(hex="1,-1", kind="city", controller="blue"),
            )
        ),
        (),
    ),
    (
        AddSide(
            id="red",
            name="House Red",
            lord_id="red-lord",
            lord=LordSheetSpec(
                name="Lady Vess",
                attack_die="d8",
                defense_die="d8",
                hp=3,
                movement=2,
                abilities=(RALLY,),
            ),
            lord_hex="-1,0",
            home_city="-2,0",
            ap=6,
        ),
        (),
    ),
    (
        AddSide(
            id="blue",
            name="House Blue",
            lord_id="blue-lord",
            lord=LordSheetSpec(
                name="Lord Aster", attack_die="d8", defense_die="d6", hp=2, movement=2
            ),
            lord_hex="0,0",
            home_city="1,-1",
            ap=6,
        ),
        (),
    ),
    (
        AddUnits(
            side="red",
            hex="-1,0",
            units=(
                UnitSpec(id="red-inf-1", kind="infantry"),
                UnitSpec(id="red-arch", kind="archers"),
            ),
        ),
        (),
    ),
    (
        AddUnits(
            side="red",
            hex="-1,1",
            units=(
                UnitSpec(id="red-cav", kind="cavalry"),
                UnitSpec(id="red-inf-2", kind="infantry"),
            ),
        ),
        (),
    ),
    (AddUnits(side="blue", hex="0,0", units=(UnitSpec(id="blue-inf-1", kind="infantry"),)), ()),
    (
        AddUnits(
            side="blue",
            hex="1,0",
            units=(
                UnitSpec(id="blue-arch", kind="archers"),
                UnitSpec(id="blue-inf-2", kind="infantry"),
            ),
        ),
        (),
    ),
    (
        AddUnits(
            side="blue",
            hex="1,-1",
            units=(
                UnitSpec(id="blue-inf-3", kind="infantry"),
                UnitSpec(id="blue-inf-4", kind="infantry"),
            ),
        ),
        (),
    ),
    (StartRound(), ()),
    (
        Attack(
            side="red",
            hex="0,0",
            commit=("red-cav", "red-inf-1", "red-arch", "red-inf-2"),
            line=("red-cav", "red-arch", "red-inf-1"),
        ),
        (),
    ),
    (Defend(side="blue", hex="0,0", commit=("blue-arch",), targets={"blue-arch": "red-inf-1"}), ()),
    (
        SetTargets(
            side="red",
            hex="0,0",
            targets={"red-arch": "blue-lord", "red-cav": "blue-lord", "red-inf-1": "blue-inf-1"},
        ),
        (),
    ),
    (Reinforce(side="blue", hex="0,0", promote=()), ()),
    (Fight(side="red", hex="0,0"), [[5], [2], [4], [4], [7], [3], [2], [5], [6], [1]]),
    (Stand(side="red", hex="0,0"), ()),
    (Retreat(side="blue", hex="0,0", to="1,0"), ()),
    (Occupy(side="red", hex="0,0", units=("red-inf-1", "red-inf-2")), ()),
    (MoveUnits(side="red", units=("red-lord", "red-arch"), to="0,-1"), ()),
    (
        Attack(side="red", hex="1,-1", commit=("red-inf-1", "red-inf-2", "red-lord", "red-arch")),
        (),
    ),
    (
        Defend(side="blue", hex="1,-1", commit=("blue-inf-1", "blue-arch"), hold_the_walls=True),
        (),
    ),
    (UseLordAbility(side="red", ability="Rally", hex="1,-1", note="for red-inf-1"), ()),
    (Fight(side="red", hex="1,-1"), [[1], [6], [3], [2], [4], [4], [8], [1], [5], [3], [6], [2]]),
    (Stand(side="red", hex="1,-1"), ()),
    (Press(side="red", hex="1,-1"), ()),
    (Defend(side="blue", hex="1,-1", commit=("blue-inf-2",)), ()),
    (Fight(side="red", hex="1,-1"), [[2], [3], [5], [4], [3], [3], [1], [7], [2], [5], [4], [4]]),
    (Stand(side="red", hex="1,-1"), ()),
    (EndAttack(side="red", hex="1,-1"), ()),
    (Cleanup(), ()),
    (StartRound(), ()),
    (Attack(side="red", hex="1,-1"), ()),
    (Defend(side="blue", hex="1,-1"), ()),
    (
        Adjudicate(
            ruling=AllowRetreat(hex="1,-1"),
            reason="Red granted a parley: the garrison may march out",
        ),
        (),
    ),
    (Fight(side="red", hex="1,-1"), TIE),
    (Stand(side="red", hex="1,-1"), ()),
    (Stand(side="blue", hex="1,-1"), ()),
    (LiftSiege(side="red", hex="1,-1"), ()),
    (
        Adjudicate(
            ruling=SetSideValue(side="blue", field="ap", value=4),
            reason="Blue played a Forced March card",
        ),
        (),
    ),
    (
        Adjudicate(
            ruling=SetUnitHp(unit="red-cav", hp=2),
            reason="the Cavalry was tended by a field surgeon",
        ),
        (),
    ),
    (Adjudicate(ruling=RemoveUnit(unit="blue-inf-2"), reason="deserted after the siege"), ()),
    (
        SetLordAbilities(
            side="blue",
            abilities=(
                LordAbilitySpec(
                    name="Stalwart",
                    timing="passive",
                    effect="Blue's Home City defenders roll their Defense Die twice, keep the "
                    "higher",
                    passive=True,
                ),
            ),
        ),
        (),
    ),
    (
        Adjudicate(
            ruling=SetHex(hex="0,-1", controller="red"),
            reason="Red's Lord raised her banner there",
        ),
        (),
    ),
)
"""The story as (command, manual dice) pairs, in order."""


def _play() -> tuple[tuple[Command, ...], tuple[Event, ...], State]:
    state = initial_state(AeonisOptions())
    events: list[Event] = []
    rolls = 1
    for command, faces in SCRIPT:
        dice = RollingDice(ManualFaces(faces), next_roll_number=rolls)
        produced = decide(state, command, dice)
        dice.ensure_all_used()
        rolls += len(faces)
        for event in produced:
            state = evolve(state, event)
        events.extend(produced)
    return tuple(c for c, _ in SCRIPT), tuple(events), state


STORY_COMMANDS, STORY, FINAL_STATE = _play()


def _first_of_each(items: Sequence[msgspec.Struct]) -> tuple[msgspec.Struct, ...]:
    seen: dict[type[msgspec.Struct], msgspec.Struct] = {}
    for item in items:
        seen.setdefault(type(item), item)
    return tuple(seen.values())


COMMANDS = _first_of_each(STORY_COMMANDS)
EVENTS = _first_of_each(STORY)
EXAMPLES: tuple[msgspec.Struct, ...] = (*COMMANDS, *EVENTS)
"""One instance of every command type, then one of every event type (``Ruleset.examples``)."""


def example_stories() -> tuple[tuple[State, tuple[Event, ...]], ...]:
    """Where the event examples happen, for the conformance suite: ``STORY`` folded from
    the initial state with default options."""
    return ((initial_state(AeonisOptions()), STORY),)
