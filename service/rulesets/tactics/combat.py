"""The heart of TACTICS: Maneuvers, Presses declared now and resolved later, the React
choice, and each pending Press's resolution on the defender's turn (TAC-03..TAC-24)."""

from __future__ import annotations

import msgspec

from service.dice.model import Dice, Modifier, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.rules import (
    bonus_labels,
    check_range,
    combatant,
    hits_against,
    name,
    on_turn,
    wound_outcome,
    zone_of,
    zone_steps,
)
from service.rulesets.tactics.state import (
    Bonus,
    BonusStat,
    Combatant,
    HitMode,
    Maneuver,
    PendingHit,
    PendingPress,
    State,
    Weapon,
    pair,
)

replace = msgspec.structs.replace


def _acting(state: State, cid: str, doing: str) -> Combatant:
    """Taking an action: own turn, pending Presses resolved, alive, an action left."""
    phase, who = on_turn(state, cid, doing)
    if who.status != "active":
        raise RuleViolation(f"{who.name} is {who.status} and cannot act", rule="TAC-16")
    if phase.stage != "acting":
        raise RuleViolation(
            f"{who.name} must first resolve the Presses pending against them (React or not, "
            "they resolve at the start of the turn)",
            rule="TAC-07",
        )
    if who.actions_left < 1:
        raise RuleViolation(
            f"{who.name} has no actions left this turn ({_pool(state, who)} per turn)",
            rule="TAC-02",
        )
    return who


def _pool(state: State, who: Combatant) -> int:
    if who.category == "standard":
        return state.options.actions_per_turn
    return state.options.reduced_actions


def _maneuver(who: Combatant, maneuver: str) -> Maneuver:
    found = who.maneuvers.get(maneuver)
    if found is None:
        raise RuleViolation(
            f"{who.name} has no Maneuver '{maneuver}' on their sheet", rule="TAC-04"
        )
    return found


def _bonus(who: Combatant, label: str, m: Maneuver, press: str | None) -> Bonus | None:
    if m.stat is None or not m.amount:
        return None
    until = who.turns_taken + (0 if m.duration == "turn" else 1)
    return Bonus(maneuver=label, stat=m.stat, amount=m.amount, until_turn=until, press=press)


def maneuver(state: State, c: cmd.TakeManeuver) -> tuple[ev.Event, ...]:
    """TAC-04: a Maneuver with its sheet bonus; it may move one zone and enter or leave a
    feature (take cover, step out of a cloud)."""
    who = _acting(state, c.combatant, "a Maneuver")
    m = _maneuver(who, c.maneuver)
    events: list[ev.Event] = [
        ev.ManeuverTaken(
            combatant=who.id,
            maneuver=c.maneuver,
            bonus=_bonus(who, c.maneuver, m, None),
            actions_left=who.actions_left - 1,
        )
    ]
    zone = who.zone
    if c.move_to is not None:
        here = zone_of(state, who)
        if c.move_to not in state.zones:
            raise RuleViolation(f"there is no zone '{c.move_to}'")
        if zone_steps(state, here, c.move_to) != 1:
            raise RuleViolation(
                f"{c.move_to} does not border {here}: one Maneuver repositions one zone",
                rule="TAC-04",
            )
        events.append(ev.Placed(combatant=who.id, zone=c.move_to, by_maneuver=True))
        zone = c.move_to
    left: tuple[str, ...] = ()
    if c.leave is not None:
        feature = state.features.get(c.leave)
        if feature is None or who.id not in feature.users:
            raise RuleViolation(f"{who.name} is not in '{c.leave}'")
        if feature.zone == zone:  # moving out of the zone leaves it anyway
            left = (who.id,)
            events.append(ev.FeatureUsersChanged(feature=feature.id, left=left))
    if c.enter is not None:
        feature = state.features.get(c.enter)
        if feature is None:
            raise RuleViolation(f"there is no feature '{c.enter}'")
        if feature.zone != zone:
            raise RuleViolation(f"the {feature.name} is in {feature.zone}, not where {who.name} is")
        if who.id in feature.users:
            raise RuleViolation(f"{who.name} is already in the {feature.name}")
        events.append(ev.FeatureUsersChanged(feature=feature.id, entered=(who.id,)))
    return tuple(events)


def press(state: State, c: cmd.Press) -> tuple[ev.Event, ...]:
    """TAC-05/TAC-12: declare a Press; it stays pending until each target's next turn."""
    who = _acting(state, c.combatant, "a Press")
    weapon = who.weapons.get(c.weapon)
    if weapon is None:
        raise RuleViolation(f"{who.name} has no '{c.weapon}' on their sheet", rule="TAC-12")
    press_id = f"p{state.presses_declared + 1}"
    hits, zone = _hits(state, who, c, weapon)
    penalty = who.presses_this_turn * state.options.penalty_step
    attribute = who.precision if state.options.precision_source == "weapon_plus_attribute" else 0
    precision_bonus = sum(a for _, a in bonus_labels(who, "precision"))
    damage_bonus = sum(a for _, a in bonus_labels(who, "damage"))
    cloud = weapon.area == "cloud"
    return (
        ev.PressDeclared(
            press=press_id,
            attacker=who.id,
            weapon=c.weapon,
            damage=weapon.damage + damage_bonus,
            precision=weapon.precision + attribute + precision_bonus - penalty,
            penalty=penalty,
            area=weapon.area,
            hits=hits,
            zone=zone,
            feature=f"cloud-{press_id}" if cloud else None,
            cloud_name=f"{c.weapon} cloud" if cloud else None,
            actions_left=who.actions_left - 1,
        ),
    )


def _hits(
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


def react(state: State, c: cmd.React) -> tuple[ev.Event, ...]:
    """TAC-06/TAC-A6/TAC-A7: one React per turn, a Maneuver chosen at the start of the
    defender's turn before any roll, paid from that turn's pool."""
    _, who = on_turn(state, c.combatant, "a React")
    if who.reacted:
        raise RuleViolation(f"{who.name} already reacted this turn", rule="TAC-06")
    if who.rolled_this_turn:
        raise RuleViolation("a React must be chosen before any roll is made", rule="TAC-06")
    waiting = hits_against(state, who.id)
    if not waiting:
        raise RuleViolation(
            f"a React answers a Press, and no Press is pending against {who.name}", rule="TAC-06"
        )
    if who.status != "active" or who.actions_left < 1:
        raise RuleViolation(f"{who.name} has no action left to React with", rule="TAC-A7")
    m = _maneuver(who, c.maneuver)
    target_press: str | None = None
    if m.covers == "one":
        if c.press is None or c.press not in {p.id for p, _ in waiting}:
            raise RuleViolation(
                f"the {c.maneuver} React covers one Press: name one pending against {who.name}",
                rule="TAC-A6",
            )
        target_press = c.press
    return (
        ev.ManeuverTaken(
            combatant=who.id,
            maneuver=c.maneuver,
            bonus=_bonus(who, c.maneuver, m, target_press),
            actions_left=who.actions_left - 1,
            as_react=True,
        ),
    )


def resolve(state: State, c: cmd.Resolve, dice: Dice) -> tuple[ev.Event, ...]:
    """TAC-13/TAC-14: the first pending Press against the defender, in declaration order:
    Agility check, fail-by added to damage, soak subtracted, wounds, shields."""
    _, who = on_turn(state, c.combatant, "resolving Presses")
    waiting = hits_against(state, who.id)
    if not waiting:
        raise RuleViolation(f"no Press is pending against {who.name}", rule="TAC-07")
    press, hit = waiting[0]
    attacker = name(state, press.attacker)
    events: list[ev.Event] = []
    damage = press.damage
    if hit.mode == "dodge":
        mods = (Modifier("Agility", who.agility), *_mods(who, "agility", press.id))
        record = dice.roll(
            "1d20",
            purpose=f"Agility against {attacker}'s {press.weapon} (Precision {press.precision})",
            roller=who.id,
            modifiers=mods,
            target=press.precision,
        )
        total = record.total
        tie_dodges = state.options.dodge_tie == "defender"
        dodged = total >= press.precision if tie_dodges else total > press.precision
        fail_by = 0 if dodged else press.precision - total
        graze = state.options.graze_band_width
        result: ev.AgilityResult = (
            "dodged" if dodged else "grazed" if 0 < fail_by <= graze else "failed"
        )
        damage = 0 if dodged else press.damage + (0 if result == "grazed" else fail_by)
        outcome = {"dodged": "dodged", "grazed": "grazed", "failed": f"fails by {fail_by}"}[result]
        events.append(
            ev.AgilityChecked(
                press=press.id,
                target=who.id,
                attacker=press.attacker,
                precision=press.precision,
                total=total,
                result=result,
                fail_by=fail_by,
                damage=damage,
                rolls=(_outcome(record, outcome),),
            )
        )
        if dodged:
            events.append(ev.HitResolved(press=press.id, target=who.id, wounds=0))
            return tuple(events)
    mods = (
        Modifier("Endurance", who.endurance),
        Modifier("armour", who.armour),
        *_mods(who, "soak", press.id),
    )
    record = dice.roll(
        "1d20", purpose=f"soak against {damage} damage", roller=who.id, modifiers=mods
    )
    through = max(0, damage - record.total)
    wounds = through * state.options.wounds_per_damage // who.toughness
    events.append(
        ev.SoakRolled(
            press=press.id,
            target=who.id,
            attacker=press.attacker,
            damage=damage,
            braced=hit.mode == "brace",
            soak=record.total,
            through=through,
            wounds=wounds,
            rolls=(_outcome(record, f"{through} through" if through else "all absorbed"),),
        )
    )
    taken = take_wounds(state, who, wounds, press.attacker, press=press)
    events.extend(taken)
    events.append(ev.HitResolved(press=press.id, target=who.id, wounds=wounds))
    events.extend(void_if_dead(state, who, taken, press.id))
    return tuple(events)


def take_wounds(
    state: State,
    who: Combatant,
    wounds: int,
    source: str,
    *,
    press: PendingPress | None = None,
    reason: str | None = None,
) -> list[ev.Event]:
    """Shields first (TAC-17, TAC-A1), then the wound track (TAC-16, TAC-A10); a death
    voids every other Press pending against the creature (TAC-A11)."""
    events: list[ev.Event] = []
    if wounds <= 0:
        return events
    if who.shields >= 1:
        spent = min(who.shields, wounds)
        negated = wounds if state.options.shield_mode == "gate" else spent
        events.append(
            ev.ShieldsSpent(
                combatant=who.id,
                press=press.id if press else None,
                spent=spent,
                negated=negated,
                shields_after=who.shields - spent,
            )
        )
        wounds -= negated
        if wounds <= 0:
            return events
    total, status = wound_outcome(state, who, wounds, source)
    events.append(
        ev.Wounded(
            combatant=who.id,
            wounds=wounds,
            source=source,
            scene=state.scene,
            total_after=total,
            status_after=status,
            press=press.id if press else None,
            reason=reason,
        )
    )
    return events


def void_if_dead(
    state: State, who: Combatant, events: list[ev.Event], resolved: str | None = None
) -> list[ev.Event]:
    """A death voids every other Press still pending against the creature (TAC-A11)."""
    if not any(isinstance(e, ev.Wounded) and e.status_after == "dead" for e in events):
        return []
    return [
        ev.HitVoided(press=p.id, target=h.target, why=f"{who.name} is dead")
        for p, h in hits_against(state, who.id)
        if p.id != resolved
    ]


def check(state: State, c: cmd.Check, dice: Dice) -> tuple[ev.Event, ...]:
    """TAC-A14: a GM-adjudicated roll for what the text leaves open (Acumen)."""
    who = combatant(state, c.combatant)
    value = {
        "agility": who.agility,
        "endurance": who.endurance,
        "acumen": who.acumen,
        "precision": who.precision,
    }[c.attribute]
    record = dice.roll(
        "1d20",
        purpose=c.label,
        roller=who.id,
        modifiers=(Modifier(c.attribute.title(), value),),
        target=c.target,
    )
    success = record.total >= c.target
    return (
        ev.CheckRolled(
            combatant=who.id,
            label=c.label,
            attribute=c.attribute,
            target=c.target,
            rolls=(_outcome(record, "success" if success else "failure"),),
        ),
    )


def _mods(who: Combatant, stat: BonusStat, press: str) -> tuple[Modifier, ...]:
    return tuple(Modifier(label, amount) for label, amount in bonus_labels(who, stat, press))


def _outcome(record: RollRecord, outcome: str) -> RollRecord:
    return replace(record, outcome=outcome)
