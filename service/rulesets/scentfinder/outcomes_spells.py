"""Spells and focus: the degree lines of Cast a Spell (its damage, then the spell as a
condition on its target, SCF-25) and Refocus (SCF-42)."""

from __future__ import annotations

from service.dice.model import RollRecord
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import (
    Resolution,
    _cond,
    _damage,
)

APPLIED = frozenset({"cast_spell", "refocus"})
"""The actions whose degree lines ``apply`` applies."""


def apply(r: Resolution) -> None:
    """The degree line of each action above."""
    b = r.b
    p = r.p
    dice = r.dice
    actor = r.actor
    target = r.target
    line = r.line
    resolved = r.resolved
    degree = r.command.degree
    top = degree in ("triumph", "success")
    action = r.p.action
    if action == "cast_spell":
        spell = actor.spells[p.spell or ""]
        bearer = target or actor
        if degree == "bungle":
            resolved(line)
            return
        rolls: tuple[RollRecord, ...]
        dmg, rolls = 0, ()
        if spell.damage is not None:
            dmg, rolls = _damage(
                dice, spell.damage, degree, f"{p.spell} on {bearer.name}", actor.id
            )
        resolved(line, dmg if spell.damage else None, bearer.hp - dmg if dmg else None, rolls)
        turns = {"triumph": 3, "success": 2, "failure": 1}[degree]
        b.condition(
            bearer.id,
            _cond(
                "spell",
                remaining=turns,
                source=actor.id,
                spell=p.spell,
                sustainable=top,
                note=spell.effect,
            ),
        )
    elif action == "refocus":
        resolved(line)
        gain = {"triumph": 2, "success": 1}.get(degree, 0)
        if gain:
            after = actor.fp + gain
            reason = "Refocus"
            if actor.max_fp > 0 and after > actor.max_fp:
                after = actor.max_fp
                reason = f"Refocus, capped at {actor.name}'s maximum of {actor.max_fp} FP"
            b.emit(ev.FpChanged(combatant=actor.id, fp_after=after, reason=reason))
        elif degree == "bungle":
            b.condition(actor.id, _cond("refocus_costly", expiry="end_of_turn"))
