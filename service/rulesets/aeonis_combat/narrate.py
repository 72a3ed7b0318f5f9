"""``narrate``: one line of the replay log per event, the way a GM would say it.

Given the state *before* the event, so lines use names and "2 -> 1 hp".  Rolls are
rendered by ``service.dice.announce``; a secret roll is told only as having happened.
"""

from __future__ import annotations

from typing import assert_never

from service.dice.announce import announce, announce_hidden
from service.dice.model import RollRecord
from service.health_text import health_part, health_words
from service.rulesets.aeonis_combat.events import (
    AttackActionEnded,
    AttackDeclared,
    AttackRenewed,
    BattleEnded,
    BattleRoundFought,
    BattleWon,
    CleanupDone,
    DefenceDeclared,
    Event,
    HexesAdded,
    HexOccupied,
    HexSet,
    LordAbilitiesSet,
    LordAbilityUsed,
    LordCaptured,
    LordHealed,
    LordReleased,
    Pressed,
    ReinforceChosen,
    RetreatAllowed,
    Retreated,
    RoundStarted,
    SideAdded,
    SideValueSet,
    Stood,
    Strike,
    TargetsSet,
    UnitHpSet,
    UnitRemoved,
    UnitsAdded,
    UnitsMoved,
)
from service.rulesets.aeonis_combat.health import health_owners
from service.rulesets.aeonis_combat.rules import short as label
from service.rulesets.aeonis_combat.rules import side_name
from service.rulesets.aeonis_combat.state import State, max_hp

_ENDINGS = {
    "defender_held": "The battle at {hex} ends: the defender holds",
    "dissolved": "The battle at {hex} ends for now: the commitments dissolve",
    "siege_lifted": "The battle at {hex} ends: the siege is lifted",
    "siege_ended": "The battle at {hex} ends, and the siege with it",
    "defender_retreated": "The battle at {hex} ends: the defender has retreated",
    "ruling": "The battle at {hex} ends: the defender holds",
}
"""How each outcome ends the battle's line: the end said once, with what it means."""


def narrate(state: State, event: Event) -> str:
    """The replay-log line for ``event``; ``state`` is the state before it."""

    def side(side_id: str) -> str:
        return side_name(state, side_id)

    def units(ids: tuple[str, ...]) -> str:
        return ", ".join(label(state, u) for u in ids) or "no units"

    match event:
        case HexesAdded():
            listed = ", ".join(f"{k} ({h.kind})" for k, h in event.hexes.items())
            return f"Hexes added to the map: {listed}"
        case SideAdded():
            hp = health_part((event.side, event.lord), f", {event.sheet.hp} HP")
            return (
                f"{event.name} joins with {event.ap} AP; Lord {event.sheet.name} "
                f"(attack {event.sheet.attack_die}, defence {event.sheet.defense_die}"
                f"{hp}) at {event.lord_hex or 'no hex'}"
            )
        case UnitsAdded():
            kinds = ", ".join(f"{u.kind} {u.id}" for u in event.units)
            return f"{side(event.side)} places {kinds} in {event.hex}"
        case UnitsMoved():
            left = f"; {units(event.left_battle)} leave the battle" if event.left_battle else ""
            return f"{units(event.units)} move to {event.to}{left}"
        case RoundStarted():
            ap = ", ".join(f"{side(k)} {v} AP" for k, v in event.ap.items())
            return f"Round {event.round} begins" + (f": {ap}" if ap else "")
        case LordHealed():
            hp = health_part(health_owners(state, event.lord), f" ({event.hp} HP)")
            return f"{label(state, event.lord)} heals to full{hp} at Round Start"
        case LordReleased():
            where = event.hex or "off the map (the GM places the Lord)"
            hp = health_part(health_owners(state, event.lord), f" at {event.hp} HP", " unhurt")
            return f"{label(state, event.lord)} is released to {where}{hp}"
        case CleanupDone():
            return f"Cleanup & Checks of round {event.round}"
        case AttackDeclared():
            kind = "an Assault on" if event.assault else "an attack on"
            siege = "; the Fortress is besieged (Siege marker placed)" if event.siege else ""
            reserves = f"; Reserves: {units(event.reserves)}" if event.reserves else ""
            return (
                f"{side(event.side)} declares {kind} {event.hex} against {side(event.defender)} "
                f"({event.ap_spent} AP, {event.ap_after} left). Battle Line (cap {event.cap}): "
                f"{units(event.line)}{reserves}{siege}"
            )
        case AttackRenewed():
            added = f"; adds {units(event.reinforcements)}" if event.reinforcements else ""
            return (
                f"{side(event.side)} attacks {event.hex} again ({event.ap_spent} AP, "
                f"{event.ap_after} left){added}"
            )
        case DefenceDeclared():
            if state.battles[event.hex].rounds_fought and not (event.line or event.reserves):
                return f"{side(event.side)} adds no units to the defence of {event.hex}"
            holds = event.siege and not state.battles[event.hex].siege
            walls = "; the walls are held (Siege marker)" if holds else ""
            line = f"Battle Line: {units(event.line)}; " if event.line else ""
            reserves = f"Reserves: {units(event.reserves)}"
            return f"{side(event.side)} defends {event.hex}. {line}{reserves}{walls}"
        case TargetsSet():
            chosen = ", ".join(
                f"{label(state, a)} -> {label(state, t)}" for a, t in event.targets.items()
            )
            return f"{side(event.side)} chooses targets: {chosen}"
        case ReinforceChosen():
            whom = units(event.promote) if event.promote else "nobody"
            return f"{side(event.side)} will promote {whom} in Reinforce at {event.hex}"
        case BattleRoundFought():
            return _round(state, event)
        case LordCaptured():
            return (
                f"{label(state, event.lord)} is captured by {side(event.by)} "
                f"(Renown {event.renown_after}, VP {event.vp_after})"
            )
        case Retreated():
            to = f" to {event.to}" if event.to else ""
            return f"{side(event.side)} retreats from {event.hex}{to}"
        case Stood():
            return f"{side(event.side)} stands at {event.hex}"
        case Pressed():
            added = f"; adds {units(event.reinforcements)}" if event.reinforcements else ""
            return (
                f"{side(event.side)} presses the attack on {event.hex} ({event.ap_spent} AP, "
                f"{event.ap_after} left){added}"
            )
        case AttackActionEnded():
            after = "the siege goes on" if state.battles[event.hex].siege else "the battle pauses"
            return f"The Attack action on {event.hex} ends; {after}"
        case BattleWon():
            line = f"{side(event.side)} wins {event.hex} and takes control"
            if event.siege_removed:
                line += "; the Siege marker is removed"
            return _ruling(line, event.reason)
        case HexOccupied():
            return f"{units(event.units)} occupy {event.hex}"
        case BattleEnded():
            line = _ENDINGS[event.outcome].format(hex=event.hex)
            if event.outcome == "ruling":
                return _ruling(line, event.reason)
            return f"{line} ({event.reason})" if event.reason else line
        case SideValueSet():
            line = f"{side(event.side)}'s {event.field} set to {event.value} (was {event.previous})"
            return _ruling(line, event.reason)
        case UnitHpSet():
            hp = _hp(state, event.unit, event.hp, f": {event.hp} HP (was {event.previous})")
            line = f"{label(state, event.unit)}'s hit points are set{hp}"
            return _ruling(line, event.reason)
        case UnitRemoved():
            return _ruling(f"{label(state, event.unit)} is removed", event.reason)
        case HexSet():
            owner = side(event.controller) if event.controller else "nobody"
            flags = [
                f
                for f, on in (("contested", event.contested), ("attackable", event.attackable))
                if on
            ]
            extra = f" ({', '.join(flags)})" if flags else ""
            return _ruling(f"{event.hex} is controlled by {owner}{extra}", event.reason)
        case RetreatAllowed():
            return _ruling(f"the defenders of {event.hex} may retreat", event.reason)
        case LordAbilityUsed():
            at = f" at {event.hex}" if event.hex else ""
            note = f" ({event.note})" if event.note else ""
            return (
                f"{side(event.side)}'s Lord {label(state, event.lord)} uses {event.ability}"
                f"{at}{note} [{event.timing}]: {event.effect}; the GM applies it"
            )
        case LordAbilitiesSet():
            names = ", ".join(a.name for a in event.abilities) or "no abilities"
            return f"{side(event.side)}'s Lord Sheet now lists {names}"
        case _:
            assert_never(event)


def _round(state: State, event: BattleRoundFought) -> str:
    rolls = {r.roll_id: r for r in event.rolls}
    parts = [f"Battle round {event.number} at {event.hex}"]
    for side, promoted in event.promoted.items():
        parts.append(
            f"{side_name(state, side)} promotes {', '.join(label(state, u) for u in promoted)}"
        )
    parts.extend(_strike(state, s, rolls) for s in event.strikes)
    if event.destroyed:
        parts.append("destroyed: " + ", ".join(label(state, u) for u in event.destroyed))
    return "; ".join(parts)


def _strike(state: State, strike: Strike, rolls: dict[str, RollRecord]) -> str:
    said = [
        _roll(state, rolls[r], rolls.get(other))
        for r, other in (
            (strike.attack_roll, strike.defense_roll),
            (strike.defense_roll, strike.attack_roll),
        )
        if r in rolls
    ]
    left = _hp(state, strike.target, strike.target_hp, f" ({strike.target_hp} HP left)")
    result = f"{label(state, strike.target)} takes 1 damage{left}" if strike.damage else "no damage"
    return f"{' / '.join(said)} -> {result}"


def _roll(state: State, record: RollRecord, opposing: RollRecord | None) -> str:
    """One die of a strike said aloud, naming the total of the die it is opposed by."""
    if record.hidden:
        return announce_hidden(record)
    name = label(state, record.roller) if record.roller else None
    return announce(record, name=name, opposing=opposing)


def _ruling(line: str, reason: str | None) -> str:
    return line if reason is None else f"GM ruling: {line}, because {reason}"


def _hp(state: State, unit_id: str, hp: int, exact: str) -> str:
    """``exact`` (a unit's hit points) for readers who may see the unit's numbers (its
    side's players, or every reader at an ``exact`` table), else the word for ``hp``."""
    unit = state.units.get(unit_id)
    if unit is None:
        return health_part(unit_id, exact)
    return health_words(health_owners(state, unit_id), exact, hp, max_hp(state, unit))
