"""Which fields of Aeonis events tell a unit's hit points (Ruleset.health_fields).

A unit's health is its side's player's when that side is bound to a player token
(``health_owners``): an event that names the side lists it as an owner too."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField
from service.rulesets.aeonis_combat.state import State

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    "aeonis.side_added": (HealthField("sheet.hp", ("side", "lord")),),
    "aeonis.units_added": (HealthField("units[].hp", ("side", "id")),),
    "aeonis.lord_healed": (HealthField("hp", ("lord",)),),
    "aeonis.lord_released": (HealthField("hp", ("lord",)),),
    "aeonis.battle_round_fought": (HealthField("strikes[].target_hp", ("target",)),),
    "aeonis.unit_hp_set": (
        HealthField("hp", ("unit",)),
        HealthField("previous", ("unit",)),
    ),
}


def health_owners(state: State, unit: str) -> tuple[str, ...]:
    """A unit's health is exact for its side's players, and for a token bound to it."""
    found = state.units.get(unit)
    return (unit,) if found is None else (found.side, unit)


def player_characters(state: State, bound: frozenset[str]) -> frozenset[str]:
    """The bound sides and units, and every unit of a bound side, its Lord among them."""
    units = {uid for uid, unit in state.units.items() if unit.side in bound}
    lords = {side.lord for sid, side in state.sides.items() if sid in bound}
    return bound | units | lords
