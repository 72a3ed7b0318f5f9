"""``evolve``: apply one event to the state.  No rules, no dice: events carry the numbers."""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

import msgspec

from service.rulesets.tactics import events as ev
from service.rulesets.tactics.state import (
    Combatant,
    Ended,
    Feature,
    Fighting,
    PendingHit,
    PendingPress,
    Stage,
    State,
    Wound,
    pair,
)

replace = msgspec.structs.replace


def evolve(state: State, event: ev.Event) -> State:
    match event:
        case ev.CombatantAdded():
            c = Combatant(
                id=event.id,
                name=event.name,
                side=event.side,
                category=event.category,
                precision=event.precision,
                endurance=event.endurance,
                agility=event.agility,
                acumen=event.acumen,
                armour=event.armour,
                toughness=event.toughness,
                max_shields=event.shields,
                shields=event.shields,
                weapons=dict(event.weapons),
                maneuvers=dict(event.maneuvers),
                zone=event.zone,
            )
            return replace(state, combatants={**state.combatants, c.id: c})
        case ev.CombatantRemoved():
            combatants = {k: v for k, v in state.combatants.items() if k != event.id}
            features = {
                k: replace(f, users=tuple(u for u in f.users if u != event.id))
                for k, f in state.features.items()
            }
            pending = _drop_hits(state.pending, lambda h: h.target == event.id)
            return replace(
                state,
                combatants=combatants,
                features=features,
                pending=pending,
                order=tuple(c for c in state.order if c != event.id),
            )
        case ev.ZoneAdded():
            zones = dict(state.zones)
            zones[event.id] = tuple(dict.fromkeys((*zones.get(event.id, ()), *event.links)))
            for link in event.links:
                zones[link] = tuple(dict.fromkeys((*zones.get(link, ()), event.id)))
            return replace(state, zones=zones)
        case ev.Placed():
            features = {
                k: replace(f, users=tuple(u for u in f.users if u != event.combatant))
                if f.zone != event.zone
                else f
                for k, f in state.features.items()
            }
            state = replace(state, features=features)
            return _update(state, event.combatant, lambda c: replace(c, zone=event.zone))
        case ev.HinderedSet():
            key = pair(event.a, event.b)
            rest = tuple(p for p in state.hindered if p != key)
            return replace(state, hindered=(*rest, key) if event.hindered else rest)
        case ev.SightSet():
            key = pair(event.a, event.b)
            rest = tuple(p for p in state.sight if p != key)
            return replace(state, sight=(*rest, key) if event.visible else rest)
        case ev.FeatureAdded():
            f = Feature(
                id=event.id, name=event.name, zone=event.zone, kind=event.kind, users=event.users
            )
            return replace(state, features={**state.features, f.id: f})
        case ev.FeatureUsersChanged():
            return _users(state, event.feature, event.entered, event.left)
        case ev.FeatureRemoved():
            features = {k: v for k, v in state.features.items() if k != event.id}
            return replace(state, features=features)
        case ev.TurnOrderSet():
            return replace(state, order=event.order)
        case ev.RoundStarted():
            return replace(state, phase=Fighting(round=event.round, turn="", stage="acting"))
        case ev.TurnStarted():
            state = _update(
                state,
                event.combatant,
                lambda c: replace(
                    c,
                    turns_taken=c.turns_taken + 1,
                    actions_left=event.actions,
                    presses_this_turn=0,
                    reacted=False,
                    rolled_this_turn=False,
                    cooldown_tried=False,
                    shields=event.shields_after,
                ),
            )
            # A creature that cannot act (no action this turn) has no React to choose:
            # its pending Presses go straight to resolution.
            stage: Stage = (
                "acting" if not event.pending else "react" if event.actions else "resolving"
            )
            return replace(
                state, phase=Fighting(round=event.round, turn=event.combatant, stage=stage)
            )
        case ev.TurnEnded():
            return _update(
                state,
                event.combatant,
                lambda c: replace(
                    c, bonuses=tuple(b for b in c.bonuses if b.until_turn > c.turns_taken)
                ),
            )
        case ev.ManeuverTaken():

            def took(c: Combatant) -> Combatant:
                bonuses = (*c.bonuses, event.bonus) if event.bonus else c.bonuses
                return replace(
                    c,
                    actions_left=event.actions_left,
                    bonuses=bonuses,
                    reacted=c.reacted or event.as_react,
                )

            return _update(state, event.combatant, took)
        case ev.PressDeclared():
            press = PendingPress(
                id=event.press,
                attacker=event.attacker,
                weapon=event.weapon,
                damage=event.damage,
                precision=event.precision,
                area=event.area,
                hits=event.hits,
                primary=event.hits[0].target if event.area == "splash" else None,
                feature=event.feature,
            )
            state = _update(
                state,
                event.attacker,
                lambda c: replace(
                    c, actions_left=event.actions_left, presses_this_turn=c.presses_this_turn + 1
                ),
            )
            if event.cloud_name and event.feature and event.zone:
                cloud = Feature(
                    id=event.feature,
                    name=event.cloud_name,
                    zone=event.zone,
                    kind="cloud",
                    users=tuple(h.target for h in event.hits),
                )
                state = replace(state, features={**state.features, cloud.id: cloud})
            return replace(
                state,
                pending=(*state.pending, press),
                presses_declared=state.presses_declared + 1,
            )
        case ev.AgilityChecked() | ev.SoakRolled():
            return _rolled(state, event.target)
        case ev.ShieldsSpent():
            return _update(
                state, event.combatant, lambda c: replace(c, shields=event.shields_after)
            )
        case ev.Wounded():

            def wounded(c: Combatant) -> Combatant:
                added = max(0, event.total_after - c.wound_total)
                wound = Wound(amount=added, source=event.source, scene=event.scene)
                return replace(c, wounds=(*c.wounds, wound), status=event.status_after)

            return _update(state, event.combatant, wounded)
        case ev.WoundsHealed():
            return _update(
                state, event.combatant, lambda c: replace(c, wounds=_heal(c, event.wounds))
            )
        case ev.HitResolved() | ev.HitVoided():
            return _resolve_hit(state, event.press, event.target)
        case ev.CooldownChecked():
            return _update(
                state,
                event.combatant,
                lambda c: replace(c, cooldown_tried=True, shields=event.shields_after),
            )
        case ev.CheckRolled():
            return state
        case ev.ValueSet():
            field = event.field
            return _update(state, event.combatant, lambda c: replace(c, **{field: event.value}))
        case ev.StatusSet():
            return _update(state, event.combatant, lambda c: replace(c, status=event.status))
        case ev.SceneStarted():
            return replace(state, scene=event.scene)
        case ev.BonusGranted():
            return _update(
                state, event.combatant, lambda c: replace(c, bonuses=(*c.bonuses, event.bonus))
            )
        case ev.EncounterEnded():
            return replace(state, phase=Ended(round=state.round()))
        case _:
            assert_never(event)


def _update(state: State, cid: str, change: Callable[[Combatant], Combatant]) -> State:
    found = state.combatants.get(cid)
    if found is None:
        return state
    return replace(state, combatants={**state.combatants, cid: change(found)})


def _rolled(state: State, cid: str) -> State:
    """The first resolution roll of a turn closes the React window (TAC-06)."""
    state = _update(state, cid, lambda c: replace(c, rolled_this_turn=True))
    phase = state.phase
    if isinstance(phase, Fighting) and phase.turn == cid:
        state = replace(state, phase=replace(phase, stage="resolving"))
    return state


def _resolve_hit(state: State, press_id: str, target: str) -> State:
    pending = _drop_hits(state.pending, lambda h: False, press_id=press_id, target=target)
    state = replace(state, pending=pending)
    phase = state.phase
    if (
        isinstance(phase, Fighting)
        and phase.turn == target
        and not any(h.target == target for p in pending for h in p.hits)
    ):
        state = replace(state, phase=replace(phase, stage="acting"))
    return state


def _drop_hits(
    pending: tuple[PendingPress, ...],
    drop: Callable[[PendingHit], bool],
    *,
    press_id: str | None = None,
    target: str | None = None,
) -> tuple[PendingPress, ...]:
    kept: list[PendingPress] = []
    for p in pending:
        hits = tuple(
            h for h in p.hits if not drop(h) and not (p.id == press_id and h.target == target)
        )
        if hits:
            kept.append(replace(p, hits=hits) if hits != p.hits else p)
    return tuple(kept)


def _users(state: State, fid: str, entered: tuple[str, ...], left: tuple[str, ...]) -> State:
    found = state.features.get(fid)
    if found is None:
        return state
    users = tuple(u for u in found.users if u not in left)
    users = (*users, *(u for u in entered if u not in users))
    return replace(state, features={**state.features, fid: replace(found, users=users)})


def _heal(c: Combatant, amount: int) -> tuple[Wound, ...]:
    """Wounds less ``amount``, taken from the most recent batches first."""
    kept: list[Wound] = []
    for wound in reversed(c.wounds):
        take = min(amount, wound.amount)
        amount -= take
        if wound.amount - take:
            kept.append(replace(wound, amount=wound.amount - take))
    return tuple(reversed(kept))
