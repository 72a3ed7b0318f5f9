"""Wounds taken: shields first, then the wound track, and the Presses a death voids
(TAC-16, TAC-17, TAC-A1, TAC-A10, TAC-A11)."""

from __future__ import annotations

from service.rulesets.tactics import events as ev
from service.rulesets.tactics.rules import hits_against, wound_outcome
from service.rulesets.tactics.state import Combatant, PendingPress, State


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
