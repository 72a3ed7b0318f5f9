"""The log line players read for a secret event (service/secrecy.py).

``SHOWN_WHEN_SECRET`` lists, per event tag, the data fields a player sees of an event
whose command made a hidden roll the GM has not revealed: who acts, on whom, which
action, token, label or declaration.  Never a total, an outcome, a defence, damage,
Soak, Wounds, Stun, a tier, an Initiative, a bonus used up by a hit, or a reason (a
failed action's or a GM's reason may quote the roll).

``narrate_secret`` builds its line from those shown fields only (and names from the
state), so two events that differ in hidden fields always read the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from service.ruleset import tag_of
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.plan import Declaration
from service.rulesets.aeonisk_tactical.state import (
    State,
)

_NOTHING: frozenset[str] = frozenset()

SHOWN_WHEN_SECRET: Mapping[str, frozenset[str]] = {
    tag_of(ev.CharacterAdded): frozenset({"character", "name", "side", "pc", "zone"}),
    tag_of(ev.CharacterRemoved): frozenset({"character"}),
    tag_of(ev.BandSet): frozenset({"a", "b", "band"}),
    tag_of(ev.ZoneEntered): frozenset({"character", "zone"}),
    tag_of(ev.TokenPlaced): frozenset({"token", "kind", "label"}),
    tag_of(ev.RoundStarted): frozenset({"round", "awaiting"}),
    tag_of(ev.InitiativeRolled): _NOTHING,
    tag_of(ev.PhaseStarted): frozenset({"phase", "round"}),
    tag_of(ev.Declared): frozenset({"declaration"}),
    tag_of(ev.DeclarationLapsed): frozenset({"character"}),
    tag_of(ev.VoidSurgeDeclared): frozenset({"character"}),
    tag_of(ev.InitiativeRerolled): frozenset({"character"}),
    tag_of(ev.ActionBegan): frozenset({"character", "slot", "action"}),
    tag_of(ev.ActionFailed): frozenset({"character", "slot"}),
    tag_of(ev.TokenClaimed): frozenset({"character", "token"}),
    tag_of(ev.TokenSpent): frozenset({"character", "token", "kind", "target"}),
    tag_of(ev.BondedDefenceGiven): frozenset({"by", "ally", "attacker"}),
    tag_of(ev.ParryCommitted): frozenset({"character", "attacker"}),
    tag_of(ev.HeroicBurnMade): frozenset({"character", "foe"}),
    tag_of(ev.AttackRolled): frozenset({"attacker", "target", "kind"}),
    tag_of(ev.DamageRolled): frozenset({"attacker", "target"}),
    tag_of(ev.FatalCheck): frozenset({"character"}),
    tag_of(ev.CheckRolled): frozenset({"character", "label"}),
    tag_of(ev.Moved): frozenset({"character"}),
    tag_of(ev.ChargeMade): frozenset({"character", "foe"}),
    tag_of(ev.ProneChanged): frozenset({"character"}),
    tag_of(ev.StunChanged): frozenset({"character"}),
    tag_of(ev.ShockSuffered): frozenset({"character"}),
    tag_of(ev.VoidChanged): frozenset({"character"}),
    tag_of(ev.OverwatchSet): frozenset({"character"}),
    tag_of(ev.SuppressionPending): frozenset({"target", "by"}),
    tag_of(ev.SuppressionChosen): frozenset({"character", "choice"}),
    tag_of(ev.BreakawayOpened): frozenset({"mover"}),
    tag_of(ev.BreakawayClosed): frozenset({"mover"}),
    tag_of(ev.EffectsEnded): frozenset({"character"}),
    tag_of(ev.Obscured): frozenset({"by", "label"}),
    tag_of(ev.ObscurementCleared): _NOTHING,
    tag_of(ev.ValueSet): frozenset({"character", "field"}),
    tag_of(ev.OutcomeOverridden): frozenset({"roll_id"}),
    tag_of(ev.EnergyNullified): frozenset({"character"}),
    tag_of(ev.ExtraTokenIgnored): frozenset({"character"}),
    tag_of(ev.EncounterEnded): _NOTHING,
}
"""Per event tag, the fields players see while the event is secret (a whitelist)."""

_Name = Callable[[Any], str]
_Shown = Mapping[str, Any]


def _about(n: _Name, s: _Shown) -> str:
    return f"The GM keeps secret what happens to {n(s['character'])}"


def _declared(n: _Name, s: _Shown) -> str:
    declaration: Declaration = s["declaration"]
    return f"{n(declaration.character)} declares"


def _action_began(n: _Name, s: _Shown) -> str:
    action = s["action"]
    kind = str(getattr(action, "kind", "action")).replace("_", " ")
    return f"{n(s['character'])} resolves their {s['slot'].title()} action ({kind})"


_SECRET_LINES: dict[str, Callable[[_Name, _Shown], str]] = {
    tag_of(ev.CharacterAdded): lambda n, s: f"{s['name']} joins the encounter",
    tag_of(ev.CharacterRemoved): lambda n, s: f"{n(s['character'])} leaves the encounter",
    tag_of(ev.BandSet): lambda n, s: f"GM: {n(s['a'])} and {n(s['b'])} are at {s['band']} range",
    tag_of(ev.ZoneEntered): lambda n, s: f"GM: {n(s['character'])} is in {s['zone']}",
    tag_of(ev.TokenPlaced): lambda n, s: f"GM places a {s['kind']} token: {s['label']}",
    tag_of(ev.RoundStarted): lambda n, s: f"Round {s['round']} begins",
    tag_of(ev.InitiativeRolled): lambda n, s: "The GM rolls Initiative in secret",
    tag_of(ev.PhaseStarted): lambda n, s: f"Round {s['round']}, {s['phase']} phase",
    tag_of(ev.Declared): _declared,
    tag_of(ev.DeclarationLapsed): lambda n, s: f"{n(s['character'])}'s declaration lapses",
    tag_of(ev.VoidSurgeDeclared): lambda n, s: f"{n(s['character'])} declares a Void Surge",
    tag_of(ev.InitiativeRerolled): lambda n, s: (
        f"The GM re-rolls {n(s['character'])}'s Initiative in secret"
    ),
    tag_of(ev.ActionBegan): _action_began,
    tag_of(ev.ActionFailed): lambda n, s: (
        f"The GM keeps secret how {n(s['character'])}'s {s['slot'].title()} action goes"
    ),
    tag_of(ev.TokenClaimed): lambda n, s: f"{n(s['character'])} claims a token ({s['token']})",
    tag_of(ev.TokenSpent): lambda n, s: (
        f"{n(s['character'])} spends a {s['kind']} token"
        + (f" against {n(s['target'])}" if s.get("target") else "")
    ),
    tag_of(ev.BondedDefenceGiven): lambda n, s: (
        f"{n(s['by'])} gives {n(s['ally'])} Bonded Defence against {n(s['attacker'])}"
    ),
    tag_of(ev.ParryCommitted): lambda n, s: (
        f"{n(s['character'])} will parry {n(s['attacker'])}'s attack"
    ),
    tag_of(ev.HeroicBurnMade): lambda n, s: (
        f"{n(s['character'])} burns their Defence Token against {n(s['foe'])}"
    ),
    tag_of(ev.AttackRolled): lambda n, s: (
        f"The GM rolls in secret for {n(s['attacker'])}'s {s['kind'].replace('_', ' ')} "
        f"on {n(s['target'])}"
    ),
    tag_of(ev.DamageRolled): lambda n, s: (
        f"The GM keeps secret what {n(s['attacker'])}'s attack does to {n(s['target'])}"
    ),
    tag_of(ev.FatalCheck): _about,
    tag_of(ev.CheckRolled): lambda n, s: (
        f"The GM rolls in secret for {n(s['character'])}'s {s['label']} check"
    ),
    tag_of(ev.Moved): lambda n, s: f"{n(s['character'])} moves",
    tag_of(ev.ChargeMade): lambda n, s: f"{n(s['character'])} charges {n(s['foe'])}",
    tag_of(ev.ProneChanged): _about,
    tag_of(ev.StunChanged): _about,
    tag_of(ev.ShockSuffered): _about,
    tag_of(ev.VoidChanged): _about,
    tag_of(ev.OverwatchSet): lambda n, s: f"{n(s['character'])} sets up Overwatch",
    tag_of(ev.SuppressionPending): lambda n, s: (
        f"The GM keeps secret what {n(s['by'])}'s suppression does to {n(s['target'])}"
    ),
    tag_of(ev.SuppressionChosen): lambda n, s: (
        f"{n(s['character'])} chooses to {s['choice'].replace('_', ' ')}"
    ),
    tag_of(ev.BreakawayOpened): lambda n, s: f"{n(s['mover'])} breaks away",
    tag_of(ev.BreakawayClosed): lambda n, s: f"{n(s['mover'])}'s breakaway is over",
    tag_of(ev.EffectsEnded): _about,
    tag_of(ev.Obscured): lambda n, s: f"{n(s['by'])} opens the {s['label']}",
    tag_of(ev.ObscurementCleared): lambda n, s: "The GM rules in secret on the obscurement",
    tag_of(ev.ValueSet): lambda n, s: (
        f"The GM changes {n(s['character'])}'s {s['field']} in secret"
    ),
    tag_of(ev.OutcomeOverridden): lambda n, s: f"The GM rules in secret on roll {s['roll_id']}",
    tag_of(ev.EnergyNullified): _about,
    tag_of(ev.ExtraTokenIgnored): _about,
    tag_of(ev.EncounterEnded): lambda n, s: "The encounter ends",
}
assert set(_SECRET_LINES) == set(SHOWN_WHEN_SECRET) == {tag_of(t) for t in ev.EVENT_TYPES}


def shown_fields(event: msgspec.Struct) -> dict[str, Any]:
    """The fields of ``event`` a player sees while it is secret."""
    shown = SHOWN_WHEN_SECRET[tag_of(type(event))]
    return {name: getattr(event, name) for name in event.__struct_fields__ if name in shown}


def narrate_secret(state: State, event: ev.Event) -> str:
    """The log line players read for a secret ``event``: built from its shown fields and
    character names only, so no number or outcome of the roll can reach it."""

    def name(character_id: Any) -> str:
        found = state.characters.get(str(character_id))
        return found.name if found else str(character_id)

    return _SECRET_LINES[tag_of(type(event))](name, shown_fields(event))
