"""Setting the table: creatures and their sheets, zones, features, sight and access."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.rules import combatant, hits_against, name
from service.rulesets.tactics.state import Fighting, State


def add_combatant(state: State, c: cmd.AddCombatant) -> tuple[ev.Event, ...]:
    if c.id in state.combatants:
        raise RuleViolation(f"a creature with id '{c.id}' is already in the encounter")
    if c.zone is not None and c.zone not in state.zones:
        raise RuleViolation(f"there is no zone '{c.zone}': the GM adds it first")
    for wname, weapon in c.weapons.items():
        if weapon.area == "chain" and weapon.chain < 1:
            raise RuleViolation(f"the chain weapon '{wname}' needs chain >= 1 (how many targets)")
    return (
        ev.CombatantAdded(
            id=c.id,
            name=c.name,
            side=c.side,
            category=c.category,
            precision=c.precision,
            endurance=c.endurance,
            agility=c.agility,
            acumen=c.acumen,
            armour=c.armour,
            toughness=c.toughness,
            shields=c.shields,
            weapons=dict(c.weapons),
            maneuvers=dict(c.maneuvers),
            zone=c.zone,
        ),
    )


def remove_combatant(state: State, c: cmd.RemoveCombatant) -> tuple[ev.Event, ...]:
    who = combatant(state, c.id)
    if isinstance(state.phase, Fighting) and state.phase.turn == who.id:
        raise RuleViolation(f"it is {who.name}'s turn: end it before removing them")
    voided = tuple(p.id for p in state.pending if all(h.target == who.id for h in p.hits))
    return (ev.CombatantRemoved(id=who.id, voided=voided),)


def add_zone(state: State, c: cmd.AddZone) -> tuple[ev.Event, ...]:
    if c.id in state.zones:
        raise RuleViolation(f"zone '{c.id}' already exists")
    for link in c.links:
        if link not in state.zones:
            raise RuleViolation(f"zone '{c.id}' cannot link to '{link}': no such zone yet")
    return (ev.ZoneAdded(id=c.id, links=c.links),)


def place(state: State, c: cmd.PlaceCombatant) -> tuple[ev.Event, ...]:
    who = combatant(state, c.combatant)
    if c.zone not in state.zones:
        raise RuleViolation(f"there is no zone '{c.zone}'")
    if who.zone == c.zone:
        raise RuleViolation(f"{who.name} is already in {c.zone}")
    return (ev.Placed(combatant=who.id, zone=c.zone),)


def set_hindered(state: State, c: cmd.SetHindered) -> tuple[ev.Event, ...]:
    a, b = combatant(state, c.a), combatant(state, c.b)
    if a.id == b.id:
        raise RuleViolation("access is between two different creatures")
    return (ev.HinderedSet(a=a.id, b=b.id, hindered=c.hindered),)


def set_sight(state: State, c: cmd.SetSight) -> tuple[ev.Event, ...]:
    for zone in (c.a, c.b):
        if zone not in state.zones:
            raise RuleViolation(f"there is no zone '{zone}'")
    return (ev.SightSet(a=c.a, b=c.b, visible=c.visible),)


def add_feature(state: State, c: cmd.AddFeature) -> tuple[ev.Event, ...]:
    if c.id in state.features:
        raise RuleViolation(f"a feature with id '{c.id}' already exists")
    if c.zone not in state.zones:
        raise RuleViolation(f"there is no zone '{c.zone}'")
    for user in c.users:
        _in_zone(state, user, c.zone, c.name)
    return (ev.FeatureAdded(id=c.id, name=c.name, zone=c.zone, kind=c.kind, users=c.users),)


def feature_users(state: State, c: cmd.MoveInFeature) -> tuple[ev.Event, ...]:
    feature = state.features.get(c.feature)
    if feature is None:
        raise RuleViolation(f"there is no feature '{c.feature}'")
    for user in c.enter:
        _in_zone(state, user, feature.zone, feature.name)
        if user in feature.users:
            raise RuleViolation(f"{name(state, user)} is already in the {feature.name}")
    for user in c.leave:
        if user not in feature.users:
            raise RuleViolation(f"{name(state, user)} is not in the {feature.name}")
    if not c.enter and not c.leave:
        raise RuleViolation("name creatures to move into or out of the feature")
    return (ev.FeatureUsersChanged(feature=feature.id, entered=c.enter, left=c.leave),)


def remove_feature(state: State, c: cmd.RemoveFeature) -> tuple[ev.Event, ...]:
    if c.id not in state.features:
        raise RuleViolation(f"there is no feature '{c.id}'")
    return (ev.FeatureRemoved(id=c.id),)


def set_turn_order(state: State, c: cmd.SetTurnOrder) -> tuple[ev.Event, ...]:
    """TAC-A8: the GM's ordered list, whole or one creature after another (``append``)."""
    order = (*state.order, *c.order) if c.append else c.order
    if len(set(order)) != len(order):
        twice = next(cid for cid in order if order.count(cid) > 1)
        raise RuleViolation(
            f"{combatant(state, twice).name} appears twice in the turn order", rule="TAC-A8"
        )
    for cid in c.order:
        combatant(state, cid)
    if not c.order:
        raise RuleViolation("the turn order needs at least one creature")
    return (ev.TurnOrderSet(order=order),)


def _in_zone(state: State, cid: str, zone: str, what: str) -> None:
    who = combatant(state, cid)
    if who.zone != zone:
        raise RuleViolation(f"{who.name} is not in {zone}, where the {what} is")


__all__ = ["hits_against"]
