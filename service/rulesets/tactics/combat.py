"""Acting on one's turn: Maneuvers, declaring a Press (pending until each target's next
turn), and the React a defender chooses at the start of their turn (TAC-02..06, TAC-12)."""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.areas import pending_hits
from service.rulesets.tactics.rules import bonus_labels, hits_against, on_turn, zone_of, zone_steps
from service.rulesets.tactics.state import Bonus, Combatant, Maneuver, State


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


def press(state: State, c: cmd.Press, dice: Dice) -> tuple[ev.Event, ...]:
    """TAC-05/TAC-12: declare a Press; it stays pending until each target's next turn."""
    dice.no_roll(
        'attackers "do not roll": a Press is resolved by the defender\'s rolls on their turn',
        rule="TAC-01",
    )
    who = _acting(state, c.combatant, "a Press")
    weapon = who.weapons.get(c.weapon)
    if weapon is None:
        raise RuleViolation(f"{who.name} has no '{c.weapon}' on their sheet", rule="TAC-12")
    press_id = f"p{state.presses_declared + 1}"
    hits, zone = pending_hits(state, who, c, weapon)
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


def react(state: State, c: cmd.React) -> tuple[ev.Event, ...]:
    """TAC-06/TAC-A6/TAC-A7: one React per turn, a Maneuver chosen at the start of the
    defender's turn before any roll, paid from that turn's pool."""
    _, who = on_turn(state, c.combatant, "a React")
    if who.status != "active":
        raise RuleViolation(
            f"{who.name} is {who.status} and cannot act, so has no React to take", rule="TAC-16"
        )
    if who.reacted:
        raise RuleViolation(f"{who.name} already reacted this turn", rule="TAC-06")
    if who.rolled_this_turn:
        raise RuleViolation("a React must be chosen before any roll is made", rule="TAC-06")
    waiting = hits_against(state, who.id)
    if not waiting:
        raise RuleViolation(
            f"a React answers a Press, and no Press is pending against {who.name}", rule="TAC-06"
        )
    if who.actions_left < 1:
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
