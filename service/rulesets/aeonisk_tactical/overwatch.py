"""Overwatch fire (section 7, AEK-59, AEK-A24): once per round, in the Fast Phase, at
the first foe to enter or act within the watched arc (first = highest in resolution
order), from the round after the setup.

The shot is at the foe where the trigger happens, so its range is measured from the
watcher to that point: on a zone map, the watched zone the foe's declared move enters,
or else the watched zone the foe acts in; a foe watched by name is shot at the band
between the two.  When the zone map leaves that pair of zones without a band, the GM
enters it with the command (``band``): a gap in the map never makes a legal shot
impossible.
"""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.combat import Strike, strike
from service.rulesets.aeonisk_tactical.commands import OverwatchFire
from service.rulesets.aeonisk_tactical.fields import Band, title
from service.rulesets.aeonisk_tactical.plan import AnyAction, Charge, Disengage, Move
from service.rulesets.aeonisk_tactical.rules import (
    are_foes,
    band,
    living,
    pending_action,
    resolution_order,
    zone_band,
)
from service.rulesets.aeonisk_tactical.state import Character, Fast, State


def overwatch_fire(
    state: State, dice: Dice, who: Character, fire: OverwatchFire
) -> tuple[ev.Event, ...]:
    watch = who.watch
    if not isinstance(state.phase, Fast):
        raise RuleViolation("Overwatch fires in the Fast Phase (section 7)")
    if watch is None:
        raise RuleViolation(f"{who.name} has no Overwatch arc set up")
    if watch.set_round >= (state.round or 0):
        raise RuleViolation("an Overwatch set up this round fires from the next round (AEK-A24)")
    qualifying = [c for c in resolution_order(state) if trigger(state, who, c) is not None]
    target = living(state, fire.target)
    if target not in qualifying:
        raise RuleViolation(f"{target.name} is not a foe acting within {who.name}'s arc")
    if qualifying[0].id != target.id:
        raise RuleViolation(
            f"Overwatch fires at the first foe to act within the arc: {qualifying[0].name}"
        )
    reach = _range(state, who, target, fire.band)
    weapon = who.weapons[watch.weapon]
    s = Strike(
        who, target, watch.weapon, weapon, watch.attribute, watch.skill, "overwatch", band=reach
    )
    return strike(state, dice, s)


def _acting(state: State, c: Character) -> list[AnyAction]:
    found = (pending_action(state, c.id, s) for s in ("major", "minor"))
    return [a for a in found if a is not None]


def _entered(state: State, action: AnyAction) -> str | None:
    """The zone a declared move ends in (a Charge ends in its target's zone)."""
    if isinstance(action, Move | Disengage):
        return action.zone
    if isinstance(action, Charge):
        target = state.characters.get(action.target)
        return target.zone if target else None
    return None


def trigger(state: State, watcher: Character, c: Character) -> str | None:
    """Where ``c`` sets the Overwatch off: the watched zone it enters or acts in, or its
    own id when it is watched by name; None when it does not."""
    arc = set(watcher.watch.arc if watcher.watch else ())
    if not are_foes(watcher, c):
        return None
    acting = _acting(state, c)
    if not acting:
        return None
    for action in acting:
        zone = _entered(state, action)
        if zone is not None and zone in arc:
            return zone
    if c.zone is not None and c.zone in arc:
        return c.zone
    return c.id if c.id in arc else None


def _range(state: State, who: Character, target: Character, entered: Band | None) -> Band:
    """The band from the watcher to the trigger point, or the GM's entry where the map
    gives none (AEK-59, AEK-A24)."""
    point = trigger(state, who, target)
    if point is not None and point != target.id and state.options.zone_map:
        if who.zone is None:
            return _gm(entered, f"{who.name} is not on the zone map")
        mapped = zone_band(state.options, who.zone, point)
        if mapped is None:
            return _gm(entered, f"the zone map gives no band between {who.zone} and {point}")
        if entered is not None and entered != mapped:
            raise RuleViolation(
                f"the zone map gives {title(mapped)} between {who.zone} and {point}: the band "
                "is entered only where the map gives none"
            )
        return mapped
    between = band(state, who.id, target.id)
    if between is None:
        return _gm(entered, f"the band between {who.name} and {target.name} is not set")
    if entered is not None and entered != between:
        raise RuleViolation(
            f"{who.name} and {target.name} are at {title(between)}: the band is entered only "
            "where none is set"
        )
    return between


def _gm(entered: Band | None, why: str) -> Band:
    if entered is None:
        raise RuleViolation(f"{why}: the GM enters the band of the shot (band)")
    return entered
