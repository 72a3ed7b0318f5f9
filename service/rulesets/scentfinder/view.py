"""What players see: the player view of the state, and secret events (service/secrecy.py).

A secret event shows who acted, on whom, with which action and where; never a degree,
damage, HP or FP after, nor a value derived from the roll.
"""

from __future__ import annotations

import msgspec

from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.fields import ACTIONS
from service.rulesets.scentfinder.rules import area_name
from service.rulesets.scentfinder.state import Spell, State, Weapon
from service.secrecy import Audience, HealthView, health_view

SHOWN_WHEN_SECRET: dict[str, frozenset[str]] = {
    "scentfinder.area_defined": frozenset({"area", "name", "adjacent"}),
    "scentfinder.combatant_added": frozenset({"combatant", "name", "pc", "side", "area"}),
    "scentfinder.combatant_removed": frozenset({"combatant"}),
    "scentfinder.initiative_set": frozenset({"combatant", "skill"}),
    "scentfinder.combat_began": frozenset(),
    "scentfinder.round_started": frozenset({"round"}),
    "scentfinder.turn_started": frozenset({"combatant", "round"}),
    "scentfinder.delayed": frozenset({"combatant"}),
    "scentfinder.phase_reordered": frozenset(),
    "scentfinder.action_taken": frozenset({"actor", "action", "target", "weapon", "spell", "via"}),
    "scentfinder.action_resolved": frozenset({"actor", "action", "target"}),
    "scentfinder.condition_added": frozenset({"bearer"}),
    "scentfinder.condition_removed": frozenset({"bearer"}),
    "scentfinder.condition_changed": frozenset({"bearer"}),
    "scentfinder.moved": frozenset({"combatant"}),
    "scentfinder.hazard_triggered": frozenset({"combatant", "area", "save"}),
    "scentfinder.save_made": frozenset({"combatant", "save", "label", "hazard_area"}),
    "scentfinder.turn_ended": frozenset({"combatant"}),
    "scentfinder.weapon_dropped": frozenset({"combatant"}),
    "scentfinder.fp_changed": frozenset({"combatant"}),
    "scentfinder.persistent_changed": frozenset({"combatant"}),
    "scentfinder.deaths_door_changed": frozenset({"combatant"}),
    "scentfinder.actions_granted": frozenset({"minion", "by"}),
    "scentfinder.ruling": frozenset({"combatant"}),
    "scentfinder.gm_rolled": frozenset({"label"}),
    "scentfinder.combat_ended": frozenset(),
}


def _name(state: State, ident: str | None) -> str:
    who = state.combatants.get(ident or "")
    return who.name if who else (ident or "someone")


def narrate_secret(state: State, event: ev.Event) -> str:
    """The players' line for a secret event: who and what, no number or outcome."""
    match event:
        case ev.ActionTaken() | ev.ActionResolved():
            title = ACTIONS[event.action].title if event.action in ACTIONS else event.action
            on = f" on {_name(state, event.target)}" if event.target else ""
            return f"The GM rolls in secret for {_name(state, event.actor)}'s {title}{on}."
        case ev.SaveMade():
            return (
                f"The GM rolls in secret for {_name(state, event.combatant)}'s {event.save} "
                f"Save against {event.label}."
            )
        case ev.HazardTriggered():
            where = area_name(state, event.area)
            return f"{_name(state, event.combatant)} must Save against the hazard of {where}."
        case ev.GmRolled():
            return f"The GM rolls in secret for {event.label}."
        case ev.ConditionAdded() | ev.ConditionRemoved() | ev.ConditionChanged():
            return f"Something changes for {_name(state, event.bearer)}, in secret."
        case ev.RoundStarted():
            return f"Round {event.round} begins."
        case ev.CombatEnded():
            return "The fight ends."
        case _:
            return "The GM resolves something in secret."


class PlayerCondition(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    kind: str
    against: str | None = None
    scope: str | None = None
    remaining: int | None = None
    expiry: str


class PlayerSheet(msgspec.Struct, frozen=True, kw_only=True):
    """What a player acts from: the names their own character's actions take (weapons,
    spells, skills).  Shown for player characters only: an NPC's stat block stays the GM's."""

    skills: tuple[str, ...]
    weapons: dict[str, Weapon]
    held: tuple[str, ...]
    spells: dict[str, Spell]


class PlayerCombatant(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    pc: bool
    side: str
    area: str | None
    phase: int | None
    health: HealthView
    fp: int | None = None
    actions: int
    reaction: int
    conditions: tuple[PlayerCondition, ...] = ()
    staggered_by_terrain: bool = False
    deaths_door: bool = False
    out: bool = False
    sheet: PlayerSheet | None = None


class PlayerArea(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    adjacent: tuple[str, ...]
    difficult: bool
    hazardous: bool
    obstacle: str | None
    uneven: bool
    cover: bool


class PlayerPending(msgspec.Struct, frozen=True, kw_only=True):
    actor: str
    action: str
    target: str | None = None


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    stage: str
    round: int
    current: str | None
    areas: tuple[PlayerArea, ...]
    combatants: tuple[PlayerCombatant, ...]
    pending: PlayerPending | None = None


def player_state(state: State, audience: Audience) -> PlayerState:
    """The state as players see it: HP as the table shows it (health_view; FP only where
    HP is exact), no initiative values, no roll results (none are kept in the state)."""
    areas = tuple(
        PlayerArea(
            id=a.id,
            name=a.name,
            adjacent=tuple(
                sorted({q if p == a.id else p for p, q in state.links if a.id in (p, q)})
            ),
            difficult=a.difficult,
            hazardous=a.hazard is not None,
            obstacle=a.obstacle.skill if a.obstacle else None,
            uneven=a.uneven,
            cover=a.cover,
        )
        for a in state.areas.values()
    )
    people = tuple(
        PlayerCombatant(
            id=c.id,
            name=c.name,
            pc=c.pc,
            side=c.side,
            area=c.area,
            phase=c.phase,
            health=health_view(audience, c.id, c.hp, c.max_hp),
            fp=c.fp if audience.shows_exact_health(c.id) else None,
            sheet=PlayerSheet(skills=c.skills, weapons=c.weapons, held=c.held, spells=c.spells)
            if c.id in audience.player_combatants
            else None,
            actions=c.actions,
            reaction=c.reaction,
            conditions=tuple(
                PlayerCondition(
                    id=x.id,
                    kind=x.kind,
                    against=x.against,
                    scope=x.scope,
                    remaining=x.remaining,
                    expiry=x.expiry,
                )
                for x in c.conditions
            ),
            staggered_by_terrain=bool(
                state.areas.get(c.area or "") and state.areas[c.area or ""].uneven
            ),
            deaths_door=c.deaths_door,
            out=c.out,
        )
        for c in state.combatants.values()
    )
    pending = None
    if state.pending is not None:
        pending = PlayerPending(
            actor=state.pending.actor, action=state.pending.action, target=state.pending.target
        )
    return PlayerState(
        stage=state.stage,
        round=state.round,
        current=state.current,
        areas=areas,
        combatants=people,
        pending=pending,
    )
