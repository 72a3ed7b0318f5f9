"""Plain-data building blocks for the aeonis tests.

``world()`` is the map of the section 8.1 walkthrough (AEC-31), with a City and the
Lords around it:

    -2,0  City, Red's Home City; Red's Lord (d8/d8, 3 HP, movement 2)
    -1,0  hex A, Red: a-inf-1, a-inf-2 (Infantry), a-arch (Archers)
    -1,1  hex B, Red: b-cav (Cavalry), b-inf (Infantry)
     0,0  the target, standard, Blue: t-inf-1, t-inf-2 (Infantry)
     1,0  hex C, Blue: c-arch (Archers), c-inf (Infantry)
     1,-1 City, Blue's Home City; Blue's Lord (d6/d6, 2 HP, movement 2)
     0,-1 and 0,1  empty, uncontrolled

``play`` runs commands through ``decide`` (setup needs no dice) so tests start from the
events the ruleset itself produces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from service.dice import ManualFaces, RollingDice
from service.rulesets.aeonis_combat import RULESET, AeonisOptions, Command, Event
from service.rulesets.aeonis_combat.commands import (
    AddHexes,
    AddSide,
    AddUnits,
    Attack,
    Defend,
    HexSpec,
    LordSheetSpec,
    StartRound,
    UnitSpec,
)
from service.rulesets.aeonis_combat.events import BattleRoundFought
from service.rulesets.aeonis_combat.state import State
from tests.unit.deciders import fold

__all__ = ["RULESET", "attack_on_target", "faces", "play", "state_after", "strikes", "world"]

TARGET, A, B, C, RED_CITY, BLUE_CITY = "0,0", "-1,0", "-1,1", "1,0", "-2,0", "1,-1"


def _units(*specs: str) -> tuple[UnitSpec, ...]:
    kinds = {"inf": "infantry", "cav": "cavalry", "arch": "archers"}
    return tuple(UnitSpec(id=s, kind=kinds[s.split("-")[1]]) for s in specs)  # type: ignore[arg-type]


def world_commands(**hex_changes: Any) -> tuple[Command, ...]:
    """The setup commands; ``hex_changes`` maps a hex key (with '_' for ',') to HexSpec
    changes, e.g. ``{"0_0": {"kind": "city"}}`` as ``**{"0_0": ...}``."""
    specs = [
        HexSpec(hex=RED_CITY, kind="city", controller="red"),
        HexSpec(hex=A, controller="red"),
        HexSpec(hex=B, controller="red"),
        HexSpec(hex=TARGET, controller="blue"),
        HexSpec(hex=C, controller="blue"),
        HexSpec(hex=BLUE_CITY, kind="city", controller="blue"),
        HexSpec(hex="0,-1"),
        HexSpec(hex="0,1"),
    ]
    specs = [replace(s, **hex_changes.get(s.hex.replace(",", "_"), {})) for s in specs]
    return (
        AddHexes(hexes=tuple(specs)),
        AddSide(
            id="red",
            name="Red",
            lord_id="red-lord",
            lord=LordSheetSpec(name="Vess", attack_die="d8", defense_die="d8", hp=3, movement=2),
            home_city=RED_CITY,
        ),
        AddSide(
            id="blue",
            name="Blue",
            lord_id="blue-lord",
            lord=LordSheetSpec(name="Aster", attack_die="d6", defense_die="d6", hp=2, movement=2),
            home_city=BLUE_CITY,
        ),
        AddUnits(side="red", hex=A, units=_units("a-inf-1", "a-inf-2", "a-arch")),
        AddUnits(side="red", hex=B, units=_units("b-cav", "b-inf")),
        AddUnits(side="blue", hex=TARGET, units=_units("t-inf-1", "t-inf-2")),
        AddUnits(side="blue", hex=C, units=_units("c-arch", "c-inf")),
        StartRound(),
    )


def play(
    commands: Sequence[Command | tuple[Command, Sequence[Sequence[int]]]],
    *,
    history: Sequence[Event] = (),
    options: AeonisOptions | None = None,
) -> list[Event]:
    """The events of ``commands`` (each optionally with manual faces), after ``history``."""
    state = fold(RULESET, history, options)
    events: list[Event] = []
    rolls = 1
    for item in commands:
        command, manual = item if isinstance(item, tuple) else (item, ())
        dice = RollingDice(ManualFaces(manual), next_roll_number=rolls)
        produced = list(RULESET.decide(state, command, dice))
        dice.ensure_all_used()
        rolls += len(manual)
        for event in produced:
            state = RULESET.evolve(state, event)
        events.extend(produced)
    return events


def world(options: AeonisOptions | None = None, **hex_changes: Any) -> list[Event]:
    """The events of the 8.1 map, round 1 started (every side 6 AP)."""
    return play(world_commands(**hex_changes), options=options)


def attack_on_target(
    *,
    line: tuple[str, ...] = ("b-cav", "b-inf", "a-arch"),
    defender_line: tuple[str, ...] = ("t-inf-1", "t-inf-2", "c-arch"),
    options: AeonisOptions | None = None,
    **hex_changes: Any,
) -> list[Event]:
    """Section 8.1 up to the formed lines: Red commits all 5, Blue all 4 (AEC-31)."""
    history = world(options, **hex_changes)
    return history + play(
        [
            Attack(
                side="red",
                hex=TARGET,
                commit=("b-cav", "b-inf", "a-arch", "a-inf-1", "a-inf-2"),
                line=line,
            ),
            Defend(side="blue", hex=TARGET, commit=("c-arch", "c-inf"), line=defender_line),
        ],
        history=history,
        options=options,
    )


def state_after(events: Sequence[Event], options: AeonisOptions | None = None) -> State:
    return fold(RULESET, events, options)


def faces(*values: int) -> list[list[int]]:
    """One single-die roll per value: every roll in a battle round is one die."""
    return [[v] for v in values]


def strikes(events: Sequence[Event]) -> list[tuple[str, str, str, int, int, int, int]]:
    """Each strike of the events: (step, striker, target, attack, defense, damage, hp)."""
    return [
        (s.step, s.striker, s.target, s.attack, s.defense, s.damage, s.target_hp)
        for e in events
        if isinstance(e, BattleRoundFought)
        for s in e.strikes
    ]
