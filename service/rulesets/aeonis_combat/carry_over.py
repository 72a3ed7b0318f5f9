"""What an Aeonis side and the map carry from one encounter to the next
(``Ruleset.carry``).

In Aeonis the party is the players' sides: each is a campaign member, its sheet the
side with its Lord Sheet, its condition the army as the encounter left it.  Unit damage
is "a property of the unit and persists" because the text heals no unit but a Lord
(AEC-A1, section 2.1.3), so every surviving unit carries with its hit points and hex;
destroyed units are gone (4.3).  A Lord's damage "persists until the next Round Start"
(AEC-A15), when it "heals to full HP" (2.1.3): it carries, and the next Round Start
heals it as always.  A Lord still captured is released "at Cleanup & Checks of the
current round" to its Home City at full HP (2.1.4): the round ends with the encounter,
so it carries released.  Renown, VP and AP are the side's.

The map is the table's: the hexes with their kind and control (section 5 gives control
to the victor).  A siege's marker "remains ... until the siege is lifted" (6.2), but its
committed units and lines are the encounter's: a siege open at the end is not carried,
the attacker declares it again.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.carry_over import CARRIED_REASON, CarryOver, CarryRules
from service.ruleset import RulesetOption
from service.rulesets.aeonis_combat.commands import (
    AddHexes,
    AddSide,
    AddUnits,
    Adjudicate,
    Command,
    HexSpec,
    LordAbilitySpec,
    LordSheetSpec,
    SetHex,
    SetUnitHp,
    UnitSpec,
)
from service.rulesets.aeonis_combat.fields import HexKind, UnitKind
from service.rulesets.aeonis_combat.state import UNIT_STATS, Hex, State

Count = Annotated[int, Meta(ge=0)]


class CarriedUnit(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    kind: UnitKind
    hex: str
    hp: Annotated[int, Meta(ge=1)]


class AeonisCondition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A side between encounters: its score, its Lord and its surviving units."""

    ap: Count = 0
    renown: Count = 0
    vp: Count = 0
    lord_hex: str | None = None
    """None: off the map (no Home City to return to); the GM places the Lord."""
    lord_hp: Annotated[int, Meta(ge=1)] | None = None
    """None: at full HP."""
    units: tuple[CarriedUnit, ...] = ()


class CarriedHex(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    kind: HexKind = "standard"
    controller: str | None = None
    contested: bool = False
    attackable: bool = False


class AeonisTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The map: every hex by its ``q,r`` key."""

    hexes: dict[str, CarriedHex] = {}


class AeonisCarryOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    carry_ap: bool = True


OPTION_NOTES = (
    RulesetOption(
        "carry_ap",
        True,
        "Whether unspent AP carry into the next encounter. AP budgets come from Actions.md, "
        "which the combat text does not contain; with the encounter option ap_per_round, "
        "Round Start resets them anyway. Default true: nothing in the text spends or "
        "resets them between encounters. False: AP start at 0.",
    ),
)


def carry_over(
    state: State, options: AeonisCarryOptions
) -> CarryOver[AeonisCondition, AeonisTable]:
    sides = {}
    for side_id, side in state.sides.items():
        lord = state.units[side.lord]
        captured = side.lord_captured_by is not None or lord.hp < 1
        hurt = not captured and lord.hp < side.sheet.hp
        sides[side_id] = AeonisCondition(
            ap=side.ap if options.carry_ap else 0,
            renown=side.renown,
            vp=side.vp,
            lord_hex=_release_hex(state, side_id) if captured else lord.hex,
            lord_hp=lord.hp if hurt else None,
            units=tuple(
                CarriedUnit(id=unit_id, kind=unit.kind, hex=unit.hex, hp=unit.hp)
                for unit_id, unit in sorted(state.units.items())
                if unit.side == side_id and unit.kind != "lord" and unit.hex is not None
            ),
        )
    hexes = {key: _carried_hex(h) for key, h in state.hexes.items()}
    return CarryOver(characters=sides, table=AeonisTable(hexes=hexes))


def _release_hex(state: State, side_id: str) -> str | None:
    """Where Cleanup & Checks releases a captured Lord: its Home City while the side
    still holds it, else off the map for the GM to place (2.1.4, AEC-A15)."""
    home = state.sides[side_id].home_city
    if home is None or state.hexes[home].controller not in (side_id, None):
        return None
    occupied = any(u.hex == home and u.side != side_id for u in state.units.values())
    return None if occupied else home


def _carried_hex(h: Hex) -> CarriedHex:
    return CarriedHex(
        kind=h.kind, controller=h.controller, contested=h.contested, attackable=h.attackable
    )


def sheet_of(state: State, side_id: str) -> AddSide:
    """The side with its Lord Sheet; score, Lord's place and army are the condition's."""
    side = state.sides[side_id]
    sheet = side.sheet
    return AddSide(
        id=side_id,
        name=side.name,
        lord_id=side.lord,
        lord=LordSheetSpec(
            name=sheet.name,
            attack_die=sheet.attack_die,
            defense_die=sheet.defense_die,
            hp=sheet.hp,
            movement=sheet.movement,
            abilities=tuple(
                msgspec.convert(msgspec.to_builtins(a), LordAbilitySpec) for a in sheet.abilities
            ),
        ),
        home_city=side.home_city,
    )


def seed(state: State, sheet: AddSide, condition: AeonisCondition) -> tuple[Command, ...]:
    """The side with its score and its Lord where the condition has it; the units hex
    by hex; rulings for the hit points lost by the Lord and the units."""
    side = msgspec.structs.replace(
        sheet,
        lord_hex=condition.lord_hex,
        ap=condition.ap,
        renown=condition.renown,
        vp=condition.vp,
    )
    commands: list[Command] = [side]
    by_hex: dict[str, list[UnitSpec]] = {}
    for unit in condition.units:
        by_hex.setdefault(unit.hex, []).append(UnitSpec(id=unit.id, kind=unit.kind))
    commands.extend(
        AddUnits(side=sheet.id, hex=key, units=tuple(units)) for key, units in by_hex.items()
    )
    hurt = [(u.id, u.hp) for u in condition.units if u.hp < UNIT_STATS[u.kind].hp]
    if condition.lord_hp is not None:
        hurt.insert(0, (sheet.lord_id, condition.lord_hp))
    commands.extend(
        Adjudicate(ruling=SetUnitHp(unit=unit, hp=hp), reason=CARRIED_REASON) for unit, hp in hurt
    )
    return tuple(commands)


def prepare_table(state: State, table: AeonisTable) -> tuple[Command, ...]:
    """The hexes the encounter's map lacks, before the sides stand on them."""
    missing = tuple(
        HexSpec(
            hex=key,
            kind=h.kind,
            controller=h.controller,
            contested=h.contested,
            attackable=h.attackable,
        )
        for key, h in table.hexes.items()
        if key not in state.hexes
    )
    return (AddHexes(hexes=missing),) if missing else ()


def settle_table(state: State, table: AeonisTable) -> tuple[Command, ...]:
    """Control and flags of the hexes the encounter already had, where they differ."""
    return tuple(
        Adjudicate(
            ruling=SetHex(
                hex=key, controller=h.controller, contested=h.contested, attackable=h.attackable
            ),
            reason=CARRIED_REASON,
        )
        for key, h in table.hexes.items()
        if key in state.hexes and _carried_hex(state.hexes[key]) != h
    )


def renamed(sheet: AddSide, id: str, name: str) -> AddSide:
    """A side under another id has its Lord under an id of its own, and no Home City
    until the GM places it: two sides never stand in one hex outside a fight (1.1)."""
    return msgspec.structs.replace(
        sheet, id=id, name=name, lord_id=f"{id}-lord", lord_hex=None, home_city=None
    )


def ended(state: State) -> bool:
    """Never: an Aeonis encounter is a game of rounds with no end of its own; the GM
    carries it over when the table stops for the session."""
    return False


CARRY: CarryRules[State, Command, AddSide, AeonisCondition, AeonisTable, AeonisCarryOptions] = (
    CarryRules(
        sheet_type=AddSide,
        condition_type=AeonisCondition,
        table_type=AeonisTable,
        options_type=AeonisCarryOptions,
        option_notes=OPTION_NOTES,
        carry_over=carry_over,
        sheet_of=sheet_of,
        seed=seed,
        prepare_table=prepare_table,
        settle_table=settle_table,
        ended=ended,
        fresh_table=AeonisTable(),
        no_hit_points=(
            "unit hit points are the text's (Infantry 1, Cavalry 2, Archers 1) and a Lord's "
            "are on its Lord Sheet (section 2, 2.1.1): a side has none of its own"
        ),
        renamed=renamed,
    )
)
