"""Lookups and rules several commands share: who is who, whose turn, zone distance and
range bands (TAC-18, TAC-A13), bonuses that apply, the wound track (TAC-15/16, TAC-A10)."""

from __future__ import annotations

from collections import deque

from service.ruleset import RuleViolation
from service.rulesets.tactics.state import (
    Band,
    BonusStat,
    Combatant,
    Fighting,
    PendingHit,
    PendingPress,
    State,
    Status,
    Weapon,
    pair,
)

BAND_NAMES: dict[Band, str] = {
    "immediate": "Immediate",
    "close": "Close",
    "medium": "Medium",
    "far": "Far",
    "sight": "Sight",
}


def combatant(state: State, cid: str) -> Combatant:
    found = state.combatants.get(cid)
    if found is None:
        raise RuleViolation(f"no creature has id '{cid}'")
    return found


def name(state: State, cid: str | None) -> str:
    if cid is None:
        return "the GM"
    found = state.combatants.get(cid)
    return found.name if found else cid


def fighting(state: State) -> Fighting:
    if not isinstance(state.phase, Fighting):
        raise RuleViolation("combat has not started: the GM starts it once the turn order is set")
    return state.phase


def on_turn(state: State, cid: str, doing: str) -> tuple[Fighting, Combatant]:
    """The creature must be the one whose turn it is (TAC-02, TAC-07)."""
    phase = fighting(state)
    who = combatant(state, cid)
    if phase.turn != cid:
        raise RuleViolation(
            f"it is {name(state, phase.turn)}'s turn, not {who.name}'s: {doing} happens on "
            "one's own turn",
            rule="TAC-07",
        )
    return phase, who


def full_actions(state: State, who: Combatant) -> int:
    """3 actions per turn, 2 for Minions and slow heavies (TAC-02); none while down."""
    if who.status != "active":
        return 0
    if who.category == "standard":
        return state.options.actions_per_turn
    return state.options.reduced_actions


def hits_against(state: State, cid: str) -> list[tuple[PendingPress, PendingHit]]:
    """Pending Presses on ``cid``, in declaration order (TAC-A8)."""
    return [(p, h) for p in state.pending for h in p.hits if h.target == cid]


def zone_steps(state: State, a: str, b: str) -> int | None:
    """Zone steps between two zones, None when no path links them (TAC-A13)."""
    if a == b:
        return 0
    seen = {a}
    queue = deque([(a, 0)])
    while queue:
        zone, steps = queue.popleft()
        for nxt in state.zones.get(zone, ()):
            if nxt == b:
                return steps + 1
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, steps + 1))
    return None


def zone_of(state: State, who: Combatant) -> str:
    if who.zone is None:
        raise RuleViolation(f"{who.name} is not in any zone: the GM places them first")
    return who.zone


def check_range(
    state: State,
    attacker: Combatant,
    weapon_name: str,
    weapon: Weapon,
    zone: str,
    target: Combatant | None,
) -> None:
    """A Press beyond its band is refused (TAC-18, TAC-A13)."""
    here = zone_of(state, attacker)
    what = target.name if target else f"zone {zone}"
    band = weapon.range
    label = BAND_NAMES[band]
    steps = zone_steps(state, here, zone)
    if band == "sight":
        if here != zone and pair(here, zone) not in state.sight:
            raise RuleViolation(
                f"{attacker.name} has no line of sight to {what}: the {weapon_name} reaches "
                "any distance, restricted only by sight (the GM rules on sight lines)",
                rule="TAC-18",
            )
        return
    if steps is None:
        raise RuleViolation(f"no path of zones links {attacker.name} to {what}", rule="TAC-18")
    if band in ("immediate", "close"):
        if steps != 0:
            raise RuleViolation(
                f"{what} is out of the {weapon_name}'s range: {label} is the same zone and "
                f"{what} is {steps} zone{'s' if steps != 1 else ''} away",
                rule="TAC-18",
            )
        if band == "immediate" and target and pair(attacker.id, target.id) in state.hindered:
            raise RuleViolation(
                f"{attacker.name}'s access to {target.name} is hindered: Immediate range "
                "needs the same zone with unhindered access",
                rule="TAC-18",
            )
        return
    limit = state.options.medium_zones if band == "medium" else state.options.far_zones
    if steps > limit:
        raise RuleViolation(
            f"{what} is out of the {weapon_name}'s range: {label} reaches up to {limit} zones "
            f"and {what} is {steps} zones away",
            rule="TAC-18",
        )


def bonus(who: Combatant, stat: BonusStat, press: str | None = None) -> int:
    return sum(
        b.amount for b in who.bonuses if b.stat == stat and (b.press is None or b.press == press)
    )


def bonus_labels(
    who: Combatant, stat: BonusStat, press: str | None = None
) -> list[tuple[str, int]]:
    return [
        (b.maneuver, b.amount)
        for b in who.bonuses
        if b.stat == stat and (b.press is None or b.press == press)
    ]


def wound_outcome(state: State, who: Combatant, wounds: int, source: str) -> tuple[int, Status]:
    """The wound total and status after ``wounds`` from ``source`` (TAC-16, TAC-A10)."""
    limit = state.options.wound_limit
    if who.status == "dead":
        return who.wound_total, "dead"
    if who.status == "incapacitated":
        return min(limit, who.wound_total + wounds), "dead"
    total = min(limit, who.wound_total + wounds)
    if total < limit:
        return total, "active"
    sources = {w.source for w in who.wounds if w.amount} | {source}
    scenes = {w.scene for w in who.wounds if w.amount} | {state.scene}
    if len(sources) == 1:
        return total, "dead"
    if state.options.death_rule == "literal" and scenes == {state.scene}:
        return total, "dead"
    return total, "incapacitated"
