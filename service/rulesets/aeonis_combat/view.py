"""What players and spectators see of an Aeonis encounter (service/secrecy.py).

``SHOWN_WHEN_SECRET`` lists, per event tag, the data fields a player sees of an event
whose command made a hidden roll the GM has not revealed: which hex, which side acts,
which units move or are committed.  Never a strike, damage, hp, a destroyed or captured
unit, a battle's winner or outcome, Renown/VP/AP after, or a reason (a GM's reason may
quote the roll).  Only ``aeonis.fight`` rolls, but every tag has its entry.

``narrate_secret`` builds its line from those shown fields only (and names from the
state), so two events that differ in hidden fields always read the same.

``player_state`` is the state with every unit's hit points per the table's ``Audience``
setting; the state remembers nothing else of rolls (strikes live only in events).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec

from service.ruleset import tag_of
from service.rulesets.aeonis_combat import events as ev
from service.rulesets.aeonis_combat.fields import UnitKind
from service.rulesets.aeonis_combat.options import AeonisOptions
from service.rulesets.aeonis_combat.rules import short, side_name
from service.rulesets.aeonis_combat.state import (
    Battle,
    Hex,
    LordAbility,
    LordSheet,
    Side,
    Stage,
    State,
    Unit,
    max_hp,
)
from service.secrecy import Audience, HealthView, health_view

_NOTHING: frozenset[str] = frozenset()

SHOWN_WHEN_SECRET: Mapping[str, frozenset[str]] = {
    tag_of(ev.HexesAdded): frozenset({"hexes"}),
    tag_of(ev.SideAdded): frozenset({"side", "name", "lord", "home_city"}),
    tag_of(ev.UnitsAdded): frozenset({"side", "hex"}),
    tag_of(ev.UnitsMoved): frozenset({"side", "units", "to"}),
    tag_of(ev.RoundStarted): frozenset({"round"}),
    tag_of(ev.LordHealed): frozenset({"lord"}),
    tag_of(ev.LordReleased): frozenset({"lord"}),
    tag_of(ev.CleanupDone): frozenset({"round"}),
    tag_of(ev.AttackDeclared): frozenset({"hex", "side", "defender"}),
    tag_of(ev.AttackRenewed): frozenset({"hex", "side"}),
    tag_of(ev.DefenceDeclared): frozenset({"hex", "side"}),
    tag_of(ev.TargetsSet): frozenset({"hex", "side"}),
    tag_of(ev.BattleRoundFought): frozenset({"hex", "number"}),
    tag_of(ev.LordCaptured): _NOTHING,
    tag_of(ev.Retreated): frozenset({"hex", "side"}),
    tag_of(ev.Stood): frozenset({"hex", "side"}),
    tag_of(ev.Pressed): frozenset({"hex", "side"}),
    tag_of(ev.AttackActionEnded): frozenset({"hex"}),
    tag_of(ev.BattleWon): frozenset({"hex"}),
    tag_of(ev.HexOccupied): frozenset({"hex"}),
    tag_of(ev.BattleEnded): frozenset({"hex"}),
    tag_of(ev.SideValueSet): frozenset({"side", "field"}),
    tag_of(ev.UnitHpSet): frozenset({"unit"}),
    tag_of(ev.UnitRemoved): frozenset({"unit"}),
    tag_of(ev.HexSet): frozenset({"hex"}),
    tag_of(ev.RetreatAllowed): frozenset({"hex"}),
    tag_of(ev.ReinforceChosen): frozenset({"hex", "side", "promote"}),
    tag_of(ev.LordAbilityUsed): frozenset({"side", "lord", "ability", "hex"}),
    tag_of(ev.LordAbilitiesSet): frozenset({"side"}),
}
"""Per event tag, the fields players see while the event is secret (a whitelist)."""

_Names = tuple[Callable[[Any], str], Callable[[Any], str]]
"""(side name, unit name) lookups in the state before the event."""
_Shown = Mapping[str, Any]


def _at(s: _Shown) -> str:
    return f"the battle at {s['hex']}"


_SECRET_LINES: dict[str, Callable[[_Names, _Shown], str]] = {
    tag_of(ev.HexesAdded): lambda n, s: f"GM adds hexes: {', '.join(sorted(s['hexes']))}",
    tag_of(ev.SideAdded): lambda n, s: f"{s['name']} joins the war",
    tag_of(ev.UnitsAdded): lambda n, s: f"{n[0](s['side'])} places units in {s['hex']}",
    tag_of(ev.UnitsMoved): lambda n, s: (
        f"{n[0](s['side'])} moves {', '.join(n[1](u) for u in s['units'])} to {s['to']}"
    ),
    tag_of(ev.RoundStarted): lambda n, s: f"Round {s['round']} begins",
    tag_of(ev.LordHealed): lambda n, s: f"The GM keeps secret what happens to {n[1](s['lord'])}",
    tag_of(ev.LordReleased): lambda n, s: f"{n[1](s['lord'])} is released",
    tag_of(ev.CleanupDone): lambda n, s: f"Cleanup & Checks of round {s['round']}",
    tag_of(ev.AttackDeclared): lambda n, s: (
        f"{n[0](s['side'])} attacks {n[0](s['defender'])} at {s['hex']}"
    ),
    tag_of(ev.AttackRenewed): lambda n, s: f"{n[0](s['side'])} renews the attack on {s['hex']}",
    tag_of(ev.DefenceDeclared): lambda n, s: f"{n[0](s['side'])} defends {s['hex']}",
    tag_of(ev.TargetsSet): lambda n, s: f"{n[0](s['side'])} chooses targets at {s['hex']}",
    tag_of(ev.BattleRoundFought): lambda n, s: (
        f"The GM rolls in secret for battle round {s['number']} of {_at(s)}"
    ),
    tag_of(ev.LordCaptured): lambda n, s: "The GM keeps a result of the battle secret",
    tag_of(ev.Retreated): lambda n, s: f"{n[0](s['side'])} acts at the Retreat Check of {_at(s)}",
    tag_of(ev.Stood): lambda n, s: f"{n[0](s['side'])} acts at the Retreat Check of {_at(s)}",
    tag_of(ev.Pressed): lambda n, s: f"{n[0](s['side'])} presses the attack on {s['hex']}",
    tag_of(ev.AttackActionEnded): lambda n, s: f"The Attack action at {s['hex']} ends",
    tag_of(ev.BattleWon): lambda n, s: f"The GM keeps the end of {_at(s)} secret",
    tag_of(ev.HexOccupied): lambda n, s: f"The GM keeps the end of {_at(s)} secret",
    tag_of(ev.BattleEnded): lambda n, s: f"The GM keeps the end of {_at(s)} secret",
    tag_of(ev.SideValueSet): lambda n, s: (
        f"The GM changes {n[0](s['side'])}'s {s['field']} in secret"
    ),
    tag_of(ev.UnitHpSet): lambda n, s: f"The GM keeps secret what happens to {n[1](s['unit'])}",
    tag_of(ev.UnitRemoved): lambda n, s: f"The GM keeps secret what happens to {n[1](s['unit'])}",
    tag_of(ev.HexSet): lambda n, s: f"The GM rules in secret on hex {s['hex']}",
    tag_of(ev.RetreatAllowed): lambda n, s: f"The GM rules in secret on {_at(s)}",
    tag_of(ev.ReinforceChosen): lambda n, s: (
        f"{n[0](s['side'])} chooses whom to promote at {s['hex']}"
    ),
    tag_of(ev.LordAbilityUsed): lambda n, s: (
        f"{n[0](s['side'])}'s Lord {n[1](s['lord'])} uses {s['ability']}"
    ),
    tag_of(ev.LordAbilitiesSet): lambda n, s: f"The GM changes {n[0](s['side'])}'s Lord Sheet",
}
assert set(_SECRET_LINES) == set(SHOWN_WHEN_SECRET) == {tag_of(t) for t in ev.EVENT_TYPES}


def shown_fields(event: msgspec.Struct) -> dict[str, Any]:
    """The fields of ``event`` a player sees while it is secret."""
    shown = SHOWN_WHEN_SECRET[tag_of(type(event))]
    return {name: getattr(event, name) for name in event.__struct_fields__ if name in shown}


def narrate_secret(state: State, event: ev.Event) -> str:
    """The log line players read for a secret ``event``: built from its shown fields and
    side and unit names only, so no number or outcome of the roll can reach it."""
    names: _Names = (lambda x: side_name(state, str(x)), lambda x: short(state, str(x)))
    return _SECRET_LINES[tag_of(type(event))](names, shown_fields(event))


class PlayerUnit(msgspec.Struct, frozen=True, kw_only=True):
    """A unit as players see it: its hit points through ``health_view``."""

    side: str
    kind: UnitKind | Literal["lord"]
    hex: str | None
    health: HealthView


class PlayerSheet(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A Lord Sheet as players see it: its hit points only where the Lord's health is
    exact for them (docs/secrecy.md, "NPC health"), the rest as written."""

    name: str
    attack_die: str
    defense_die: str
    hp: int | None = None
    movement: int
    abilities: tuple[LordAbility, ...] = ()


class PlayerSide(msgspec.Struct, frozen=True, kw_only=True):
    """A side as players see it: as it is, with its Lord Sheet through ``PlayerSheet``."""

    name: str
    ap: int = 0
    renown: int = 0
    vp: int = 0
    home_city: str | None = None
    lord: str
    sheet: PlayerSheet
    lord_captured_by: str | None = None
    abilities_used: dict[str, int] = {}


assert set(PlayerSide.__struct_fields__) == set(Side.__struct_fields__)
assert set(PlayerSheet.__struct_fields__) == set(LordSheet.__struct_fields__)


def _side(audience: Audience, side_id: str, side: Side) -> PlayerSide:
    sheet = side.sheet
    exact = any(audience.shows_exact_health(o) for o in (side_id, side.lord))
    return PlayerSide(
        name=side.name,
        ap=side.ap,
        renown=side.renown,
        vp=side.vp,
        home_city=side.home_city,
        lord=side.lord,
        sheet=PlayerSheet(
            name=sheet.name,
            attack_die=sheet.attack_die,
            defense_die=sheet.defense_die,
            hp=sheet.hp if exact else None,
            movement=sheet.movement,
            abilities=sheet.abilities,
        ),
        lord_captured_by=side.lord_captured_by,
        abilities_used=dict(side.abilities_used),
    )


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    """The Aeonis state for players: the map, sides and battles as they are, and units
    with health per the table's setting."""

    options: AeonisOptions
    round: int = 0
    stage: Stage = "setup"
    hexes: dict[str, Hex] = {}
    sides: dict[str, PlayerSide] = {}
    units: dict[str, PlayerUnit] = {}
    battles: dict[str, Battle] = {}


def _unit(state: State, audience: Audience, unit_id: str, unit: Unit) -> PlayerUnit:
    # A unit's strength is its hp against its kind's (or its Lord Sheet's) maximum.  The
    # players' combatants in Aeonis are sides: a unit is shown exactly when its side is
    # a player's (or the unit id itself is listed, or the table shows every number).
    combatant = unit.side if unit.side in audience.player_combatants else unit_id
    return PlayerUnit(
        side=unit.side,
        kind=unit.kind,
        hex=unit.hex,
        health=health_view(audience, combatant, unit.hp, max_hp(state, unit)),
    )


def player_state(state: State, audience: Audience) -> PlayerState:
    """``state`` for ``audience``: each unit's ``hp`` becomes ``health`` (current hp of
    ``max_hp``: 1 for Infantry and Archers, 2 for Cavalry, the Lord Sheet's for a Lord);
    a side's units are exact for that side's players, other sides' per ``npc_health``."""
    return PlayerState(
        options=state.options,
        round=state.round,
        stage=state.stage,
        hexes=dict(state.hexes),
        sides={sid: _side(audience, sid, side) for sid, side in state.sides.items()},
        units={uid: _unit(state, audience, uid, u) for uid, u in state.units.items()},
        battles=dict(state.battles),
    )
