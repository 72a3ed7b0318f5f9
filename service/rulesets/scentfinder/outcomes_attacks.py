"""Attacks and combat manoeuvres: the degree lines of Strike, Flank, Disarm, Feint,
Grapple, Intimidate, Knockdown, Predict, Taunt and Shove."""

from __future__ import annotations

from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import (
    Resolution,
    _adjacent_of,
    _choice,
    _cond,
    _damage,
    _displace,
)
from service.rulesets.scentfinder.fields import ACTIONS

APPLIED = frozenset(
    {
        "strike",
        "flank",
        "disarm",
        "feint",
        "grapple",
        "intimidate",
        "knockdown",
        "predict",
        "taunt",
        "shove",
    }
)
"""The actions whose degree lines ``apply`` applies."""


def apply(r: Resolution) -> None:
    """The degree line of each action above."""
    b = r.b
    p = r.p
    command = r.command
    dice = r.dice
    state = r.state
    actor = r.actor
    target = r.target
    line = r.line
    resolved = r.resolved
    degree = r.command.degree
    spec = ACTIONS[r.p.action]
    top = degree in ("triumph", "success")
    action = r.p.action
    if action == "strike":
        assert target is not None
        weapon = actor.weapons[p.weapon or ""]
        dmg, rolls = _damage(
            dice, weapon.damage, degree, f"{spec.title} on {target.name} with {p.weapon}", actor.id
        )
        resolved(line, dmg, target.hp - dmg if dmg else None, rolls)
    elif action == "flank":
        assert target is not None
        resolved(line)
        if top:
            b.condition(
                actor.id,
                _cond(
                    "favoured",
                    remaining=1,
                    against=target.id,
                    source=actor.id,
                    origin="Flank",
                    circumstance=True,
                    scope=f"attacks against {target.name}",
                    note="ignores 1 Impairment" if degree == "triumph" else None,
                ),
            )
    elif action == "disarm":
        assert target is not None
        resolved(line)
        theirs = target.held[0] if target.held else None
        mine = p.weapon or (actor.held[0] if actor.held else None)
        drop_to = command.area or _adjacent_of(state, actor.area)
        if degree == "triumph" and theirs:
            b.emit(ev.WeaponDropped(combatant=target.id, weapon=theirs, area=drop_to))
        elif degree == "success" and theirs:
            b.condition(
                target.id,
                _cond(
                    "impaired",
                    remaining=1,
                    source=actor.id,
                    origin="Disarm",
                    scope=f"attacks with the {theirs}",
                ),
            )
        elif degree == "failure" and mine:
            b.condition(
                actor.id,
                _cond(
                    "impaired",
                    remaining=1,
                    source=actor.id,
                    origin="Disarm",
                    scope=f"attacks with the {mine}",
                ),
            )
        elif degree == "bungle" and mine:
            b.emit(ev.WeaponDropped(combatant=actor.id, weapon=mine, area=drop_to))
    elif action == "feint":
        assert target is not None
        resolved(line)
        if degree == "triumph":
            b.condition(
                target.id,
                _cond("stunned", remaining=1, against=actor.id, scope=f"{actor.name}'s actions"),
            )
        elif degree == "success":
            b.condition(
                target.id,
                _cond(
                    "stunned",
                    expiry="next_action",
                    against=actor.id,
                ),
            )
        elif degree == "bungle":
            b.condition(
                target.id,
                _cond(
                    "bonus_reaction",
                    remaining=1,
                    against=actor.id,
                    scope=f"only against {actor.name}",
                ),
            )
    elif action == "grapple":
        assert target is not None
        resolved(line)
        if degree == "triumph":
            kinds: tuple[str, ...] = ("immobilised", "restrained")
        elif degree == "success":
            kinds = (_choice(command, ("immobilised", "restrained"), "Grapple's Success"),)
        else:
            kinds = ()
        for kind in kinds:
            b.condition(
                target.id,
                _cond(
                    kind,
                    expiry="held",
                    against=actor.id,
                    source=actor.id,
                    scope=f"held by {actor.name}",
                ),
            )
    elif action == "intimidate":
        assert target is not None
        resolved(line)
        if top:
            b.condition(
                target.id,
                _cond(
                    "intimidated",
                    expiry="end_of_turn",
                    against=actor.id,
                    note="the Strike is Impaired (circumstance)" if degree == "triumph" else None,
                ),
            )
        elif degree == "bungle":
            b.condition(actor.id, _cond("impaired", remaining=2, scope="Intimidate"))
    elif action == "knockdown":
        assert target is not None
        resolved(line)
        if degree in ("triumph", "success"):
            kind = _choice(
                command, ("immobilised", "staggered"), "Knockdown: Immobilised or Staggered"
            )
            b.condition(target.id, _cond(kind, remaining=2, source=actor.id))
        elif degree == "bungle":
            kind = _choice(
                command,
                ("immobilised", "staggered"),
                "Knockdown's Bungle: Immobilised or Staggered",
            )
            b.condition(actor.id, _cond(kind, remaining=2))
    elif action == "predict":
        assert target is not None
        resolved(line + (f": {command.note}" if command.note else ""))
        if top:
            b.condition(
                target.id, _cond("predicted", remaining=1, against=actor.id, note=command.note)
            )
        elif degree == "bungle":
            b.condition(
                actor.id,
                _cond("stunned", remaining=2, against=target.id, scope=f"{target.name}'s actions"),
            )
    elif action == "taunt":
        assert target is not None
        resolved(line)
        if top:
            if degree == "triumph":
                b.condition(target.id, _cond("perturbed", remaining=1, source=actor.id))
            b.condition(
                target.id,
                _cond(
                    "taunted",
                    remaining=1,
                    against=actor.id,
                    circumstance=True,
                    scope=f"attacks against anyone but {actor.name} Impaired",
                ),
            )
        elif degree == "bungle":
            b.condition(actor.id, _cond("impaired", remaining=2, circumstance=True, scope="Taunt"))
    elif action == "shove":
        assert target is not None
        resolved(line)
        if degree == "triumph":
            b.condition(target.id, _cond("staggered", remaining=2, source=actor.id))
            pick = _choice(
                command, ("perturbed", "displaced"), "Shove's Triumph: Perturbed or displaced"
            )
            if pick == "perturbed":
                b.condition(target.id, _cond("perturbed", remaining=2, source=actor.id))
            else:
                _displace(b, target, command)
        elif degree == "success":
            pick = _choice(
                command,
                ("staggered", "displaced"),
                "Shove's Success: the target chooses Staggered or displaced",
            )
            if pick == "staggered":
                b.condition(target.id, _cond("staggered", remaining=2, source=actor.id))
            else:
                _displace(b, target, command)
        elif degree == "bungle":
            b.condition(actor.id, _cond("staggered", remaining=2))
