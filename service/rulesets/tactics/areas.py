"""Who a declared Press hits: one target, or the creatures in an explosion's zones, a
chain, a cloud or a splash (TAC-05, TAC-19..24)."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics.rules import check_range, combatant, zone_of, zone_steps
from service.rulesets.tactics.state import Combatant, HitMode, PendingHit, State, Weapon, pair


def pending_hits(
    state: State, who: Combatant, c: cmd.Press, weapon: Weapon
) -> tuple[tuple[PendingHit, ...], str | None]:
    area = weapon.area
    if area in ("small", "medium", "large"):
        if c.zone is None:
            raise RuleViolation(
                f"an explosion needs a zone: name where the {c.weapon} lands", rule="TAC-20"
            )
        if c.zone not in state.zones:
            raise RuleViolation(f"there is no zone '{c.zone}'")
        check_range(state, who, c.weapon, weapon, c.zone, None)
        zones: dict[str, HitMode]
        if area == "large":  # TAC-22: centre as medium, radius zones as small
            zones = {
                z: ("brace" if z == c.zone else "dodge")
                for z in state.zones
                if (s := zone_steps(state, c.zone, z)) is not None and s <= weapon.radius
            }
        else:
            zones = {c.zone: "brace" if area == "medium" else "dodge"}
        hits = tuple(
            PendingHit(target=x.id, mode=zones[x.zone])
            for x in state.combatants.values()
            if x.zone is not None and x.zone in zones and x.status != "dead"
        )
        if not hits:
            raise RuleViolation(f"nobody is in the blast of the {c.weapon}")
        return hits, c.zone
    names = (
        c.targets if area in ("chain", "cloud") and c.targets else ((c.target,) if c.target else ())
    )
    if not names:
        raise RuleViolation(f"a Press with the {c.weapon} needs a target", rule="TAC-05")
    if area not in ("chain", "cloud") and len(names) > 1:
        raise RuleViolation(f"the {c.weapon} hits one target")
    if area == "chain" and len(names) > weapon.chain:
        raise RuleViolation(
            f"the {c.weapon} chains to at most {weapon.chain} targets", rule="TAC-23"
        )
    if len(set(names)) != len(names):
        raise RuleViolation("a target is named twice")
    targets = [combatant(state, n) for n in names]
    for t in targets:
        if t.id == who.id:
            raise RuleViolation(f"{who.name} cannot Press themselves")
        if t.status == "dead":
            raise RuleViolation(f"{t.name} is dead", rule="TAC-16")
        check_range(state, who, c.weapon, weapon, zone_of(state, t), t)
    if area == "cloud" and len({t.zone for t in targets}) > 1:
        raise RuleViolation("a cloud settles on creatures within one zone", rule="TAC-24")
    ids = [t.id for t in targets]
    if area == "splash":  # TAC-19: same feature, or Immediate range of the target
        primary = targets[0]
        shared = {u for f in state.features.values() if primary.id in f.users for u in f.users}
        for x in state.combatants.values():
            near = x.zone == primary.zone and pair(x.id, primary.id) not in state.hindered
            if (
                x.id not in ids
                and x.id != who.id
                and x.status != "dead"
                and (near or x.id in shared)
            ):
                ids.append(x.id)
    return tuple(PendingHit(target=i) for i in ids), (targets[0].zone if area == "cloud" else None)
