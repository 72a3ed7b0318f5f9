"""GM adjudication: the table's word where the text is silent, always with a reason."""

from __future__ import annotations

from typing import assert_never

from service.ruleset import RuleViolation
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.rules import combatant
from service.rulesets.tactics.state import Bonus, Combatant, State
from service.rulesets.tactics.wounds import take_wounds, void_if_dead


def adjudicate(state: State, c: cmd.Adjudicate) -> tuple[ev.Event, ...]:
    reason = c.reason.strip()
    if not reason:
        raise RuleViolation("a ruling needs a reason")
    ruling = c.ruling
    match ruling:
        case cmd.SetValue():
            who = combatant(state, ruling.combatant)
            previous = int(getattr(who, ruling.field))
            if previous == ruling.value:
                raise RuleViolation(f"{who.name}'s {ruling.field} is already {ruling.value}")
            if ruling.field == "toughness" and ruling.value < 1:
                raise RuleViolation("toughness is at least 1")
            _check_bounds(who, ruling)
            return (
                ev.ValueSet(
                    combatant=who.id,
                    field=ruling.field,
                    value=ruling.value,
                    previous=previous,
                    reason=reason,
                ),
            )
        case cmd.SetStatus():
            who = combatant(state, ruling.combatant)
            if who.status == ruling.status:
                raise RuleViolation(f"{who.name} is already {ruling.status}")
            return (
                ev.StatusSet(
                    combatant=who.id, status=ruling.status, previous=who.status, reason=reason
                ),
            )
        case cmd.InflictWounds():
            who = combatant(state, ruling.combatant)
            if who.status == "dead":
                raise RuleViolation(f"{who.name} is already dead")
            events = take_wounds(state, who, ruling.wounds, ruling.source, reason=reason)
            return (*events, *void_if_dead(state, who, events))
        case cmd.HealWounds():
            who = combatant(state, ruling.combatant)
            if not who.wound_total:
                raise RuleViolation(f"{who.name} has no wounds")
            healed = min(ruling.wounds, who.wound_total)
            return (
                ev.WoundsHealed(
                    combatant=who.id,
                    wounds=healed,
                    total_after=who.wound_total - healed,
                    reason=reason,
                ),
            )
        case cmd.VoidPress():
            found = next((p for p in state.pending if p.id == ruling.press), None)
            if found is None:
                raise RuleViolation(f"no Press '{ruling.press}' is pending")
            hits = [h for h in found.hits if ruling.target in (None, h.target)]
            if not hits:
                raise RuleViolation(f"Press {found.id} is not pending against '{ruling.target}'")
            return tuple(ev.HitVoided(press=found.id, target=h.target, why=reason) for h in hits)
        case cmd.NewScene():
            return (ev.SceneStarted(scene=state.scene + 1, reason=reason),)
        case cmd.GrantBonus():
            who = combatant(state, ruling.combatant)
            bonus = Bonus(
                maneuver=ruling.label,
                stat=ruling.stat,
                amount=ruling.amount,
                until_turn=who.turns_taken + 1,
            )
            return (ev.BonusGranted(combatant=who.id, bonus=bonus, reason=reason),)
        case _:
            assert_never(ruling)


def _check_bounds(who: Combatant, ruling: cmd.SetValue) -> None:
    """Shields live between 0 and the creature's maximum shields score (TAC-17)."""
    if ruling.field in ("shields", "max_shields") and ruling.value < 0:
        raise RuleViolation(f"{who.name}'s {ruling.field} are at least 0", rule="TAC-17")
    if ruling.field == "shields" and ruling.value > who.max_shields:
        raise RuleViolation(
            f"{who.name}'s shields are at most {who.max_shields}, their maximum shields score",
            rule="TAC-17",
        )
    if ruling.field == "max_shields" and ruling.value < who.shields:
        raise RuleViolation(
            f"{who.name} has {who.shields} shields unspent and shields are at most the maximum: "
            f"lower shields to at most {ruling.value} first",
            rule="TAC-17",
        )
