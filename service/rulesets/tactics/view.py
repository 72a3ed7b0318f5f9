"""What players see: the player view of the state and, per event tag, the fields a
player sees of a secret event (service/secrecy.py).

Health: TACTICS counts wounds up to the limit (20) instead of hit points down to 0, so
``current`` is the wounds a creature can still take (limit - wounds, 0 when dead) and
``maximum`` the limit; ``health_view`` then applies the table's setting.  Pending
Presses are public (declared aloud at the table, TAC-07); the sheets of creatures no
player controls (attributes, armour, weapons, shields) are GM data, shown only when the
table shows exact health.  The state keeps no roll results.
"""

from __future__ import annotations

import msgspec

from service.rulesets.tactics.state import (
    Bonus,
    Combatant,
    PendingPress,
    Phase,
    State,
    Status,
    Weapon,
)
from service.secrecy import Audience, HealthView, health_view


class PlayerSheet(msgspec.Struct, frozen=True, kw_only=True):
    precision: int
    endurance: int
    agility: int
    acumen: int
    armour: int
    shields: int
    max_shields: int
    weapons: dict[str, Weapon]
    maneuvers: tuple[str, ...]


class PlayerCombatant(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    id: str
    name: str
    side: str
    zone: str | None
    health: HealthView
    status: Status | None = None
    sheet: PlayerSheet | None = None
    actions_left: int
    reacted: bool
    bonuses: tuple[Bonus, ...] = ()


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    combatants: dict[str, PlayerCombatant]
    zones: dict[str, tuple[str, ...]]
    features: dict[str, tuple[str, ...]]
    """Feature name -> who is in it."""
    order: tuple[str, ...]
    pending: tuple[PendingPress, ...]
    phase: Phase
    scene: int


def _combatant(state: State, c: Combatant, audience: Audience) -> PlayerCombatant:
    limit = state.options.wound_limit
    left = 0 if c.status == "dead" else max(0, limit - c.wound_total)
    exact = audience.shows_exact_health(c.id)
    sheet = (
        PlayerSheet(
            precision=c.precision,
            endurance=c.endurance,
            agility=c.agility,
            acumen=c.acumen,
            armour=c.armour,
            shields=c.shields,
            max_shields=c.max_shields,
            weapons=c.weapons,
            maneuvers=tuple(c.maneuvers),
        )
        if exact
        else None
    )
    return PlayerCombatant(
        id=c.id,
        name=c.name,
        side=c.side,
        zone=c.zone,
        health=health_view(audience, c.id, left, limit),
        status=None if audience.npc_health == "hidden" and not exact else c.status,
        sheet=sheet,
        actions_left=c.actions_left,
        reacted=c.reacted,
        bonuses=c.bonuses,
    )


def player_state(state: State, audience: Audience) -> PlayerState:
    return PlayerState(
        combatants={k: _combatant(state, c, audience) for k, c in state.combatants.items()},
        zones=state.zones,
        features={f.name: f.users for f in state.features.values()},
        order=state.order,
        pending=state.pending,
        phase=state.phase,
        scene=state.scene,
    )


SHOWN_WHEN_SECRET: dict[str, frozenset[str]] = {
    # Events no rolling command appends: everything was said aloud at the table.  Listed
    # field by field all the same, so a field added later stays hidden until it is listed.
    "tactics.combatant_added": frozenset(
        {
            "id",
            "name",
            "side",
            "category",
            "precision",
            "endurance",
            "agility",
            "acumen",
            "armour",
            "toughness",
            "shields",
            "weapons",
            "maneuvers",
            "zone",
        }
    ),
    "tactics.combatant_removed": frozenset({"id", "voided"}),
    "tactics.zone_added": frozenset({"id", "links"}),
    "tactics.placed": frozenset({"combatant", "zone", "by_maneuver"}),
    "tactics.hindered_set": frozenset({"a", "b", "hindered"}),
    "tactics.sight_set": frozenset({"a", "b", "visible"}),
    "tactics.feature_added": frozenset({"id", "name", "zone", "kind", "users"}),
    "tactics.feature_users_changed": frozenset({"feature", "entered", "left"}),
    "tactics.feature_removed": frozenset({"id"}),
    "tactics.turn_order_set": frozenset({"order"}),
    "tactics.round_started": frozenset({"round"}),
    "tactics.turn_started": frozenset(
        {
            "combatant",
            "round",
            "actions",
            "shields_before",
            "shields_after",
            "cooldown_needed",
            "pending",
        }
    ),
    "tactics.turn_ended": frozenset({"combatant", "expired"}),
    "tactics.maneuver_taken": frozenset(
        {"combatant", "maneuver", "bonus", "actions_left", "as_react"}
    ),
    "tactics.press_declared": frozenset(
        {
            "press",
            "attacker",
            "weapon",
            "damage",
            "precision",
            "penalty",
            "area",
            "hits",
            "zone",
            "feature",
            "cloud_name",
            "actions_left",
        }
    ),
    "tactics.wounds_healed": frozenset({"combatant", "wounds", "total_after", "reason"}),
    "tactics.cooldown_checked": frozenset({"combatant", "passed", "shields_after"}),
    "tactics.value_set": frozenset({"combatant", "field", "value", "previous", "reason"}),
    "tactics.status_set": frozenset({"combatant", "status", "previous", "reason"}),
    "tactics.scene_started": frozenset({"scene", "reason"}),
    "tactics.bonus_granted": frozenset({"combatant", "bonus", "reason"}),
    "tactics.encounter_ended": frozenset(),
    # What ``resolve`` and ``check`` (the commands that roll) append: who and which Press
    # only, never a total, result, damage, soak, wounds, shields or status.
    "tactics.agility_checked": frozenset({"press", "target", "attacker", "precision"}),
    "tactics.soak_rolled": frozenset({"press", "target", "attacker"}),
    "tactics.shields_spent": frozenset({"combatant", "press"}),
    "tactics.wounded": frozenset({"combatant", "source", "press"}),
    "tactics.hit_resolved": frozenset({"press", "target"}),
    "tactics.hit_voided": frozenset({"press", "target"}),
    "tactics.check_rolled": frozenset({"combatant", "label", "attribute", "target"}),
}
"""Per event tag, the fields players see of a secret event (a whitelist)."""
