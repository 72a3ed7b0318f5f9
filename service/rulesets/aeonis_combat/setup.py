"""The map in play, the sides and their units, and movement.

Movement and recruiting belong to the host game's other chapters; these commands record
their results and enforce only what the combat text says: units enter a fight by
attacking, never by walking in (1.1); a captured Lord cannot move (2.1.4); a Lord moves
at most its Movement Range (2.1.1); defenders leave a battle only by retreating (4.4).
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat import hexes, lords
from service.rulesets.aeonis_combat.commands import AddHexes, AddSide, AddUnits, MoveUnits
from service.rulesets.aeonis_combat.events import (
    BattleEnded,
    BattleOutcome,
    Event,
    HexesAdded,
    SideAdded,
    UnitPlaced,
    UnitsAdded,
    UnitsMoved,
)
from service.rulesets.aeonis_combat.rules import (
    battle_of_unit,
    hex_of,
    label,
    no_duplicates,
    restored,
    side_name,
    side_of,
    unit_of,
    units_in,
)
from service.rulesets.aeonis_combat.state import OPEN_STEPS, UNIT_STATS, Hex, LordSheet, State


def add_hexes(state: State, command: AddHexes) -> tuple[Event, ...]:
    added: dict[str, Hex] = {}
    for spec in command.hexes:
        if spec.hex in state.hexes or spec.hex in added:
            raise RuleViolation(
                f"hex {spec.hex} is already on the map; a set_hex ruling changes it"
            )
        added[spec.hex] = Hex(
            kind=spec.kind,
            controller=spec.controller,
            contested=spec.contested,
            attackable=spec.attackable,
        )
    return (HexesAdded(hexes=added),)


def add_side(state: State, command: AddSide) -> tuple[Event, ...]:
    if command.id in state.sides:
        raise RuleViolation(f"there already is a side '{command.id}'")
    if command.lord_id in state.units:
        raise RuleViolation(f"there already is a unit '{command.lord_id}'")
    if command.home_city is not None and hex_of(state, command.home_city).kind != "city":
        raise RuleViolation(f"the Home City must be a City hex; {command.home_city} is not one")
    lord_hex = command.lord_hex if command.lord_hex is not None else command.home_city
    if lord_hex is not None:
        hex_of(state, lord_hex)
        _no_enemies(state, command.id, lord_hex)
    sheet = command.lord
    return (
        SideAdded(
            side=command.id,
            name=command.name,
            lord=command.lord_id,
            sheet=LordSheet(
                name=sheet.name,
                attack_die=sheet.attack_die,
                defense_die=sheet.defense_die,
                hp=sheet.hp,
                movement=sheet.movement,
                abilities=lords.abilities(sheet.abilities),
            ),
            lord_hex=lord_hex,
            home_city=command.home_city,
            ap=command.ap,
            renown=command.renown,
            vp=command.vp,
        ),
    )


def add_units(state: State, command: AddUnits) -> tuple[Event, ...]:
    side_of(state, command.side)
    hex_of(state, command.hex)
    no_duplicates((u.id for u in command.units), "the units to add")
    for spec in command.units:
        if spec.id in state.units:
            raise RuleViolation(f"there already is a unit '{spec.id}'")
    _no_enemies(state, command.side, command.hex)
    placed = tuple(
        UnitPlaced(id=u.id, kind=u.kind, hp=UNIT_STATS[u.kind].hp) for u in command.units
    )
    return (UnitsAdded(side=command.side, hex=command.hex, units=placed),)


def move_units(state: State, command: MoveUnits) -> tuple[Event, ...]:
    side = side_of(state, command.side)
    to = command.to
    hex_of(state, to)
    no_duplicates(command.units, "the units to move")
    _no_enemies(state, command.side, to)
    left: list[str] = []
    for unit_id in command.units:
        unit = unit_of(state, unit_id)
        if unit.side != command.side:
            raise RuleViolation(f"{label(state, unit_id)} is not {side.name}'s to move")
        if unit.kind == "lord":
            if side.lord_captured_by is not None:
                raise RuleViolation(
                    f"{label(state, unit_id)} is captured and cannot be part of movement "
                    "groups (section 2.1.4)"
                )
            if unit.hex is not None and hexes.distance(unit.hex, to) > side.sheet.movement:
                raise RuleViolation(
                    f"{to} is {hexes.distance(unit.hex, to)} hexes from {unit.hex}, beyond "
                    f"{label(state, unit_id)}'s Movement Range of {side.sheet.movement} "
                    "(section 2.1.1)"
                )
        battle_hex = battle_of_unit(state, unit_id)
        if battle_hex is None:
            continue
        battle = state.battles[battle_hex]
        if battle.step in OPEN_STEPS:
            raise RuleViolation(
                f"{label(state, unit_id)} is in the Attack action at {battle_hex}; it ends first"
            )
        if to == battle_hex:
            raise RuleViolation(
                f"units do not move into a hex to fight; they occupy {battle_hex} only after a "
                "successful attack (sections 1.1, 5.1)"
            )
        if unit.hex == battle_hex:
            raise RuleViolation(
                f"{label(state, unit_id)} defends {battle_hex} and leaves it only by retreating "
                "(section 4.4)"
            )
        if not hexes.adjacent(to, battle_hex):
            left.append(unit_id)
    moved = UnitsMoved(side=command.side, units=command.units, to=to, left_battle=tuple(left))
    return (moved, *abandoned_battles(state, tuple(left)))


def abandoned_battles(state: State, left: tuple[str, ...]) -> tuple[Event, ...]:
    """Section 6.3: a siege whose attacker has no committed unit adjacent ends (AEC-A17).
    The same holds for a battle kept between Attack actions by the 'paused' option."""
    ended: list[Event] = []
    for hex_key, battle in state.battles.items():
        committed = battle.committed(battle.attacker)
        if committed and all(u in left for u in committed):
            why = (
                f"{side_name(state, battle.attacker)} has no committed units adjacent to "
                f"{hex_key} any more (section 6.3)"
            )
            outcome: BattleOutcome = "siege_ended" if battle.siege else "dissolved"
            ended.append(
                BattleEnded(
                    hex=hex_key, outcome=outcome, healed=restored(state, battle), reason=why
                )
            )
    return tuple(ended)


def _no_enemies(state: State, side: str, hex_key: str) -> None:
    enemies = [u for u in units_in(state, hex_key) if state.units[u].side != side]
    if enemies:
        owner = side_name(state, state.units[enemies[0]].side)
        raise RuleViolation(
            f"{hex_key} holds {owner}'s units; units only enter a fight by declaring an attack "
            "(section 1.1)"
        )
