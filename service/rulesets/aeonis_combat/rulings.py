"""GM adjudication: the table's word over the rules, always with a reason.

Rulings fill the text's gaps (a card that lets defenders leave a City, a portal, a hex
whose control the host game changed) and fix mistakes.  Each becomes an event carrying
the reason, so the log reads "GM ruling: ..., because ...".
"""

from __future__ import annotations

from typing import assert_never

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    AllowRetreat,
    DecideBattle,
    RemoveUnit,
    SetHex,
    SetSideValue,
    SetUnitHp,
)
from service.rulesets.aeonis_combat.events import (
    BattleEnded,
    Event,
    HexSet,
    RetreatAllowed,
    SideValueSet,
    UnitHpSet,
    UnitRemoved,
)
from service.rulesets.aeonis_combat.rules import (
    battle_at,
    hex_of,
    label,
    restored,
    side_of,
    unit_of,
    won,
)
from service.rulesets.aeonis_combat.setup import abandoned_battles
from service.rulesets.aeonis_combat.state import State, max_hp


def adjudicate(state: State, command: Adjudicate) -> tuple[Event, ...]:
    reason = command.reason
    ruling = command.ruling
    match ruling:
        case SetSideValue():
            side = side_of(state, ruling.side)
            previous = {"ap": side.ap, "renown": side.renown, "vp": side.vp}[ruling.field]
            if previous == ruling.value:
                raise RuleViolation(f"{side.name}'s {ruling.field} is already {ruling.value}")
            return (
                SideValueSet(
                    side=ruling.side,
                    field=ruling.field,
                    value=ruling.value,
                    previous=previous,
                    reason=reason,
                ),
            )
        case SetUnitHp():
            unit = unit_of(state, ruling.unit)
            if unit.hex is None:
                raise RuleViolation(f"{label(state, ruling.unit)} is not on the map")
            top = max_hp(state, unit)
            if ruling.hp > top:
                raise RuleViolation(f"{label(state, ruling.unit)} has at most {top} hit points")
            return (UnitHpSet(unit=ruling.unit, hp=ruling.hp, previous=unit.hp, reason=reason),)
        case RemoveUnit():
            unit = unit_of(state, ruling.unit)
            if unit.kind == "lord":
                raise RuleViolation("a Lord is never destroyed, only captured (section 2.1.2)")
            removed = UnitRemoved(unit=ruling.unit, reason=reason)
            return (removed, *abandoned_battles(state, (ruling.unit,)))
        case SetHex():
            hex_of(state, ruling.hex)
            return (
                HexSet(
                    hex=ruling.hex,
                    controller=ruling.controller,
                    contested=ruling.contested,
                    attackable=ruling.attackable,
                    reason=reason,
                ),
            )
        case AllowRetreat():
            battle = battle_at(state, ruling.hex)
            if state.hexes[ruling.hex].kind == "standard":
                raise RuleViolation("defenders may retreat from a standard hex anyway (4.4)")
            if battle.retreat_allowed:
                raise RuleViolation(f"the defenders of {ruling.hex} may already retreat")
            return (RetreatAllowed(hex=ruling.hex, reason=reason),)
        case DecideBattle():
            battle = battle_at(state, ruling.hex)
            if battle.step == "occupation":
                raise RuleViolation(f"the battle at {ruling.hex} is already won; occupy it")
            if ruling.winner == "attacker":
                return (won(battle, ruling.hex, reason),)
            return (
                BattleEnded(
                    hex=ruling.hex, outcome="ruling", healed=restored(state, battle), reason=reason
                ),
            )
        case _:
            assert_never(ruling)
