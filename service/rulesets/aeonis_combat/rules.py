"""Lookups and checks several commands share, each refusing in the rules' words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat.events import BattleWon
from service.rulesets.aeonis_combat.state import (
    OPEN_STEPS,
    UNIT_STATS,
    Battle,
    Hex,
    Side,
    State,
    Unit,
    max_hp,
)


def side_of(state: State, side_id: str) -> Side:
    found = state.sides.get(side_id)
    if found is None:
        raise RuleViolation(f"there is no side '{side_id}' in this encounter")
    return found


def unit_of(state: State, unit_id: str) -> Unit:
    found = state.units.get(unit_id)
    if found is None:
        raise RuleViolation(f"there is no unit '{unit_id}' on the board")
    return found


def hex_of(state: State, hex_key: str) -> Hex:
    found = state.hexes.get(hex_key)
    if found is None:
        raise RuleViolation(f"hex {hex_key} is not on the map in play")
    return found


def battle_at(state: State, hex_key: str) -> Battle:
    found = state.battles.get(hex_key)
    if found is None:
        raise RuleViolation(f"there is no battle at {hex_key}")
    return found


def label(state: State, unit_id: str) -> str:
    """ "House Red's cavalry red-cav" for messages and the log; the id if unknown."""
    unit = state.units.get(unit_id)
    if unit is None:
        return unit_id
    side = state.sides.get(unit.side)
    owner = side.name if side else unit.side
    if unit.kind == "lord" and side is not None:
        return f"{owner}'s Lord {side.sheet.name}"
    return f"{owner}'s {unit.kind} {unit_id}"


def short(state: State, unit_id: str) -> str:
    """A unit as the log names it: its id, or a Lord's name."""
    unit = state.units.get(unit_id)
    if unit is not None and unit.kind == "lord" and unit.side in state.sides:
        return state.sides[unit.side].sheet.name
    return unit_id


def side_name(state: State, side_id: str) -> str:
    side = state.sides.get(side_id)
    return side.name if side else side_id


def open_action(state: State) -> tuple[str, Battle] | None:
    """The battle whose Attack action is going on, if any (one at a time)."""
    return next(((k, b) for k, b in state.battles.items() if b.step in OPEN_STEPS), None)


def battle_of_unit(state: State, unit_id: str) -> str | None:
    """The hex of the battle ``unit_id`` is committed to, if any."""
    return next((k for k, b in state.battles.items() if unit_id in b.all_units()), None)


def units_in(state: State, hex_key: str, side: str | None = None) -> tuple[str, ...]:
    return tuple(
        k for k, u in state.units.items() if u.hex == hex_key and (side is None or u.side == side)
    )


def ensure_action_phase(state: State, what: str) -> None:
    if state.stage != "action":
        when = (
            "before round 1" if state.stage == "setup" else f"after Cleanup of round {state.round}"
        )
        raise RuleViolation(
            f"{what} happens in the Action Phase of a game round, not {when}: start the "
            "next round first (AEC-01)"
        )


def ensure_side_in_battle(state: State, battle: Battle, side: str, hex_key: str) -> None:
    side_of(state, side)
    if side not in (battle.attacker, battle.defender):
        raise RuleViolation(f"{side_name(state, side)} takes no part in the battle at {hex_key}")


def ensure_attacker(state: State, battle: Battle, side: str, hex_key: str, what: str) -> None:
    ensure_side_in_battle(state, battle, side, hex_key)
    if side != battle.attacker:
        raise RuleViolation(
            f"only the attacker ({side_name(state, battle.attacker)}) may {what} at {hex_key}"
        )


def no_duplicates(ids: Iterable[str], what: str) -> None:
    seen: set[str] = set()
    for unit_id in ids:
        if unit_id in seen:
            raise RuleViolation(f"{unit_id} is named twice in {what}")
        seen.add(unit_id)


def restored(state: State, battle: Battle, hp: Mapping[str, int] | None = None) -> tuple[str, ...]:
    """Surviving non-Lord units to restore to full hp when the battle ends, if the
    encounter does not keep unit damage (AEC-A1).  ``hp`` gives hit points that differ
    from the state's (a battle round still being resolved)."""
    if state.options.unit_damage_persists:
        return ()
    return tuple(
        u
        for u in battle.all_units()
        if (unit := state.units.get(u)) is not None
        and unit.kind in UNIT_STATS
        and (unit.hp if hp is None else hp[u]) < max_hp(state, unit)
    )


def won(battle: Battle, hex_key: str, reason: str | None = None) -> BattleWon:
    """The attacker wins ``battle``: it takes the hex, and a siege's marker goes with the
    capture at once (6.5), not when the occupying units move in."""
    return BattleWon(hex=hex_key, side=battle.attacker, reason=reason, siege_removed=battle.siege)
