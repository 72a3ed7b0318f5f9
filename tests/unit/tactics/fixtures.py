"""A small table for TACTICS decider tests, built by playing commands through decide."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from service.dice import ManualFaces, RollingDice
from service.rulesets.tactics import RULESET
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics.events import Event
from service.rulesets.tactics.options import TacticsOptions
from service.rulesets.tactics.state import Maneuver, State, Weapon
from tests.unit.deciders import Given, given

OPTS = TacticsOptions(press_penalty_step=2)

PISTOL = Weapon(damage=14, precision=13, range="close")
KNIFE = Weapon(damage=8, precision=12, range="immediate")
RIFLE = Weapon(damage=12, precision=14, range="far")
LAUNCHER = Weapon(damage=10, precision=13, range="medium", area="medium")
GRENADE = Weapon(damage=10, precision=12, range="medium", area="small")
MORTAR = Weapon(damage=16, precision=14, range="sight", area="large", radius=1)
SHOTGUN = Weapon(damage=9, precision=11, range="close", area="splash")
ARC = Weapon(damage=6, precision=12, range="medium", area="chain", chain=2)
GAS = Weapon(damage=5, precision=10, range="medium", area="cloud")
SCOPE = Weapon(damage=16, precision=15, range="sight")

COVER = Maneuver(stat="soak", amount=2)
DODGE = Maneuver(stat="agility", amount=3, duration="turn")
AIM = Maneuver(stat="precision", amount=1, duration="turn")
BLOCK = Maneuver(stat="agility", amount=5, duration="turn", covers="one")


def fighter(ident: str, **sheet: Any) -> cmd.AddCombatant:
    base: dict[str, Any] = {
        "id": ident,
        "name": ident.title(),
        "side": "crew",
        "zone": "deck",
        "weapons": {
            "pistol": PISTOL,
            "knife": KNIFE,
            "rifle": RIFLE,
            "grenade": GRENADE,
            "launcher": LAUNCHER,
            "mortar": MORTAR,
            "shotgun": SHOTGUN,
            "arc": ARC,
            "gas": GAS,
            "scope": SCOPE,
        },
        "maneuvers": {"take cover": COVER, "dodge roll": DODGE, "aim": AIM, "block": BLOCK},
    }
    base.update(sheet)
    return cmd.AddCombatant(**base)


def play(
    commands: Sequence[cmd.Command | tuple[cmd.Command, Sequence[int]]],
    options: TacticsOptions = OPTS,
    start: Sequence[Event] = (),
) -> list[Event]:
    """Events of ``commands`` played in order (a pair gives manual d20 faces)."""
    state: State = RULESET.initial_state(options)
    events: list[Event] = list(start)
    for event in events:
        state = RULESET.evolve(state, event)
    roll_number = 1
    for item in commands:
        command, faces = item if isinstance(item, tuple) else (item, ())
        dice = RollingDice(ManualFaces([[f] for f in faces]), next_roll_number=roll_number)
        roll_number += len(faces)
        new = RULESET.decide(state, command, dice)
        for event in new:
            state = RULESET.evolve(state, event)
        events.extend(new)
    return events


ZONES: list[cmd.Command | tuple[cmd.Command, Sequence[int]]] = [
    cmd.AddZone(id="deck"),
    cmd.AddZone(id="hall", links=("deck",)),
    cmd.AddZone(id="bay", links=("hall",)),
    cmd.AddZone(id="hold", links=("bay",)),
    cmd.AddZone(id="vent", links=("hold",)),
    cmd.AddZone(id="roof", links=("vent",)),
]


def table(
    *extra: cmd.Command | tuple[cmd.Command, Sequence[int]],
    options: TacticsOptions = OPTS,
    rex: dict[str, Any] | None = None,
    vex: dict[str, Any] | None = None,
) -> list[Event]:
    """Rex (Agility 2, Endurance 1, armour 2) and Vex (the same) on the deck, Rex's turn
    in round 1, then ``extra``."""
    return play(
        [
            *ZONES,
            fighter("rex", agility=2, endurance=1, armour=2, **(rex or {})),
            fighter("vex", side="mercs", agility=2, endurance=1, armour=2, **(vex or {})),
            cmd.SetTurnOrder(order=("rex", "vex")),
            cmd.StartCombat(),
            *extra,
        ],
        options,
    )


def at(events: Sequence[Event], options: TacticsOptions = OPTS) -> Given[Any, Any, Any, Any]:
    return given(RULESET, *events, options=options)


def state_of(events: Sequence[Event], options: TacticsOptions = OPTS) -> State:
    state = RULESET.initial_state(options)
    for event in events:
        state = RULESET.evolve(state, event)
    return state


def of(events: Sequence[msgspec.Struct], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def shot(who: str = "rex", target: str = "vex", weapon: str = "pistol") -> cmd.Press:
    return cmd.Press(combatant=who, weapon=weapon, target=target)


def end(who: str) -> cmd.EndTurn:
    return cmd.EndTurn(combatant=who)


def resolve(who: str) -> cmd.Resolve:
    return cmd.Resolve(combatant=who)


def ruling(r: cmd.Ruling, reason: str = "the GM says so") -> cmd.Adjudicate:
    return cmd.Adjudicate(ruling=r, reason=reason)
