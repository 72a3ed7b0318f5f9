"""What players and spectators see of a generic encounter (service/secrecy.py).

``SHOWN_WHEN_SECRET`` lists, per event tag, the data fields a player sees of an event
whose command made a hidden roll the GM has not revealed: who acted, on whom, which
label.  Never a total, an outcome, an amount, hp after, a condition the roll caused, an
initiative order or a GM's reason (which may quote the roll).

``narrate_secret`` builds its line from those shown fields only (and names from the
state), so two events that differ in hidden fields always read the same.

``player_state`` is the state with health per the table's ``Audience`` setting, the
initiative order without totals, and without ``State.outcomes`` (the remembered roll
outcomes a GM may overrule).  Stats, attacks and checks are the GM's sheet for
non-player combatants: shown only to an audience that sees that combatant's exact
health.  A player character's own sheet is always shown, so its player can pick an
attack or a check by name instead of guessing it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from service.ruleset import tag_of
from service.rulesets.generic.events import (
    EVENT_TYPES,
    AttackRolled,
    CheckRolled,
    CombatantAdded,
    CombatantRemoved,
    ConditionAdded,
    ConditionExpired,
    ConditionRemoved,
    Damaged,
    EncounterEnded,
    Event,
    Healed,
    InitiativeRolled,
    OutcomeOverridden,
    RoundStarted,
    TurnStarted,
    ValueSet,
)
from service.rulesets.generic.options import GenericOptions
from service.rulesets.generic.state import Condition, Phase, SheetAttack, State
from service.secrecy import Audience, HealthView, health_view

SHOWN_WHEN_SECRET: Mapping[str, frozenset[str]] = {
    tag_of(CombatantAdded): frozenset({"combatant", "name", "side"}),
    tag_of(CombatantRemoved): frozenset({"combatant"}),
    tag_of(InitiativeRolled): frozenset(),
    tag_of(RoundStarted): frozenset({"round"}),
    tag_of(TurnStarted): frozenset(),
    tag_of(ConditionAdded): frozenset({"combatant"}),
    tag_of(ConditionRemoved): frozenset({"combatant"}),
    tag_of(ConditionExpired): frozenset({"combatant"}),
    tag_of(AttackRolled): frozenset({"attacker", "target"}),
    tag_of(CheckRolled): frozenset({"combatant", "label", "opponent"}),
    tag_of(Damaged): frozenset({"target", "source"}),
    tag_of(Healed): frozenset({"target", "source"}),
    tag_of(ValueSet): frozenset({"combatant", "field"}),
    tag_of(OutcomeOverridden): frozenset({"roll_id", "kind"}),
    tag_of(EncounterEnded): frozenset(),
}
"""Per event tag, the fields players see while the event is secret (a whitelist)."""

_Shown = Mapping[str, Any]

_SECRET_LINES: dict[str, Callable[[Callable[[Any], str], _Shown], str]] = {
    tag_of(CombatantAdded): lambda n, s: f"{s['name']} joins the encounter",
    tag_of(CombatantRemoved): lambda n, s: f"{n(s['combatant'])} leaves the encounter",
    tag_of(InitiativeRolled): lambda n, s: "The GM rolls initiative in secret",
    tag_of(RoundStarted): lambda n, s: f"Round {s['round']} begins",
    tag_of(TurnStarted): lambda n, s: "The turn passes on",
    tag_of(ConditionAdded): lambda n, s: f"Something happens to {n(s['combatant'])}",
    tag_of(ConditionRemoved): lambda n, s: f"Something changes for {n(s['combatant'])}",
    tag_of(ConditionExpired): lambda n, s: f"Something changes for {n(s['combatant'])}",
    tag_of(AttackRolled): lambda n, s: (
        f"The GM rolls in secret for {n(s['attacker'])}'s attack on {n(s['target'])}"
    ),
    tag_of(CheckRolled): lambda n, s: (
        f"The GM rolls in secret for {n(s['combatant'])}'s {s['label']} check"
        + (f" against {n(s['opponent'])}" if s.get("opponent") else "")
    ),
    tag_of(Damaged): lambda n, s: (
        f"The GM keeps secret what happens to {n(s['target'])}"
        + (f" ({s['source']})" if s.get("source") else "")
    ),
    tag_of(Healed): lambda n, s: (
        f"The GM keeps secret what happens to {n(s['target'])}"
        + (f" ({s['source']})" if s.get("source") else "")
    ),
    tag_of(ValueSet): lambda n, s: f"The GM changes {n(s['combatant'])}'s {s['field']} in secret",
    tag_of(OutcomeOverridden): lambda n, s: f"The GM rules in secret on {s['kind']} {s['roll_id']}",
    tag_of(EncounterEnded): lambda n, s: "The encounter ends",
}
assert set(_SECRET_LINES) == set(SHOWN_WHEN_SECRET) == {tag_of(t) for t in EVENT_TYPES}


def shown_fields(event: msgspec.Struct) -> dict[str, Any]:
    """The fields of ``event`` a player sees while it is secret."""
    shown = SHOWN_WHEN_SECRET[tag_of(type(event))]
    return {name: getattr(event, name) for name in event.__struct_fields__ if name in shown}


def narrate_secret(state: State, event: Event) -> str:
    """The log line players read for a secret ``event``: built from its shown fields and
    combatant names only, so no number or outcome of the roll can reach it."""

    def name(combatant_id: Any) -> str:
        found = state.combatants.get(str(combatant_id))
        return found.name if found else str(combatant_id)

    return _SECRET_LINES[tag_of(type(event))](name, shown_fields(event))


class PlayerCombatant(msgspec.Struct, frozen=True, kw_only=True):
    """A combatant as players see them: health per the table's setting; the sheet (stats,
    attacks, checks) only for an audience that sees this combatant's exact health."""

    id: str
    name: str
    side: str | None = None
    health: HealthView
    stats: dict[str, int] | None = None
    attacks: dict[str, SheetAttack] | None = None
    checks: dict[str, str] | None = None
    conditions: tuple[Condition, ...] = ()


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    """The generic state for players: no initiative totals, no remembered outcomes."""

    options: GenericOptions
    combatants: dict[str, PlayerCombatant] = {}
    order: tuple[str, ...] = ()
    """Combatant ids in initiative order, first to act first (the totals are dropped)."""
    phase: Phase


def player_state(state: State, audience: Audience) -> PlayerState:
    """``state`` for ``audience``: hp/max_hp through ``health_view``; ``order`` as ids;
    ``outcomes`` (recent roll outcomes) dropped."""
    combatants = {
        cid: PlayerCombatant(
            id=c.id,
            name=c.name,
            side=c.side,
            health=health_view(audience, cid, c.hp, c.max_hp),
            stats=dict(c.stats) if audience.shows_exact_health(cid) else None,
            attacks=dict(c.attacks) if audience.shows_exact_health(cid) else None,
            checks=dict(c.checks) if audience.shows_exact_health(cid) else None,
            conditions=c.conditions,
        )
        for cid, c in state.combatants.items()
    }
    return PlayerState(
        options=state.options,
        combatants=combatants,
        order=tuple(entry.combatant for entry in state.order),
        phase=state.phase,
    )
