"""Helping and the rest: the degree lines of Administer First Help, Command a minion,
Rally and Steel Oneself, and of the actions whose line is only recorded (Analyse,
Disable)."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import (
    Resolution,
    _choice,
    _cond,
)
from service.rulesets.scentfinder.commands import Resolve
from service.rulesets.scentfinder.fields import ACTIONS
from service.rulesets.scentfinder.rules import Builder, find_condition
from service.rulesets.scentfinder.state import Combatant

APPLIED = frozenset({"administer_first_help", "command", "rally", "steel_oneself"})
"""The actions whose degree lines ``apply`` applies."""


def apply(r: Resolution) -> None:
    """The degree line of each action above, and of any action no other module applies."""
    b = r.b
    p = r.p
    command = r.command
    actor = r.actor
    target = r.target
    line = r.line
    resolved = r.resolved
    degree = r.command.degree
    top = degree in ("triumph", "success")
    action = r.p.action
    if action == "administer_first_help":
        assert target is not None
        _first_help(b, actor, target, command)
        return
    elif action == "command":
        assert target is not None
        if top:
            granted = 2
            if degree == "triumph" and command.extra_action:
                if b.who(actor.id).actions < 1:
                    raise RuleViolation(f"{actor.name} has no action left to give a third")
                b.emit(
                    ev.ActionTaken(
                        actor=actor.id,
                        action="command",
                        cost=1,
                        target=target.id,
                        note="one more action for a third",
                    )
                )
                granted = 3
            resolved(line)
            b.emit(ev.ActionsGranted(minion=target.id, by=actor.id, actions=granted))
        else:
            resolved(line)
    elif action == "rally":
        assert target is not None
        cond = find_condition(target, p.condition or "")
        resolved(line)
        if degree == "triumph" or (degree == "success" and not cond.intense):
            b.emit(ev.ConditionRemoved(bearer=target.id, condition=cond.id, reason="rallied"))
        elif degree == "success":
            b.emit(
                ev.ConditionChanged(
                    bearer=target.id,
                    condition=cond.id,
                    remaining=cond.remaining,
                    skips=cond.skips,
                    intense=False,
                    reason="downgraded to basic",
                )
            )
        elif degree == "bungle":
            pick = _choice(command, ("sustained", "intense"), "Rally's Bungle")
            if pick == "intense":
                b.emit(
                    ev.ConditionChanged(
                        bearer=target.id,
                        condition=cond.id,
                        remaining=cond.remaining,
                        skips=cond.skips,
                        intense=True,
                        reason="became Intense",
                    )
                )
            else:
                b.condition(
                    target.id,
                    _cond(
                        "sustained",
                        expiry="until_removed",
                        note=cond.id,
                        scope=f"condition {cond.id}",
                    ),
                )
    elif action == "steel_oneself":
        resolved(line)
        if degree == "triumph":
            kinds: tuple[str, ...] = ("faltering", "perturbed")
        elif degree == "success":
            kinds = (_choice(command, ("faltering", "perturbed"), "Steel Oneself's Success"),)
        else:
            kinds = ()
        for c in actor.conditions:
            if c.kind in kinds and c.remaining is not None:
                if c.remaining - 2 <= 0:
                    b.emit(ev.ConditionRemoved(bearer=actor.id, condition=c.id, reason="steeled"))
                else:
                    b.emit(
                        ev.ConditionChanged(
                            bearer=actor.id,
                            condition=c.id,
                            remaining=c.remaining - 2,
                            skips=c.skips,
                            intense=c.intense,
                            reason="steeled",
                        )
                    )
    else:  # analyse, disable
        resolved(line + (f": {command.note}" if command.note else ""))


def _first_help(b: Builder, actor: Combatant, target: Combatant, command: Resolve) -> None:
    """SCF-20: Death's Door first, otherwise the instances of persistent damage."""
    degree = command.degree
    line = ACTIONS["administer_first_help"].lines[
        ("triumph", "success", "failure", "bungle").index(degree)
    ]
    b.emit(
        ev.ActionResolved(
            actor=actor.id,
            action="administer_first_help",
            degree=degree,
            target=target.id,
            effect=line,
        )
    )
    if target.deaths_door:
        if degree in ("triumph", "success"):
            hp = 5 if degree == "triumph" else 1
            b.emit(
                ev.DeathsDoorChanged(
                    combatant=target.id,
                    deaths_door=False,
                    hp_after=hp,
                    dd_action_loss=0,
                    reason="First Help",
                )
            )
        elif degree == "bungle":
            b.emit(
                ev.DeathsDoorChanged(
                    combatant=target.id,
                    deaths_door=True,
                    hp_after=target.hp,
                    dd_action_loss=min(3, target.dd_action_loss + 1),
                    reason="a bungled First Help",
                )
            )
        return
    values = list(target.persistent)
    picks = command.instances or ((0, 1) if command.choice == "halve_two" else (0,))
    for i in picks:
        if i >= len(values):
            raise RuleViolation(f"{target.name} has no persistent damage instance #{i}")
    if degree == "triumph":
        pick = _choice(
            command, ("zero", "halve_two"), "First Help's Triumph: one instance to 0 or two halved"
        )
        if pick == "zero":
            values[picks[0]] = 0
        else:
            if len(picks) != 2:
                raise RuleViolation("Halving two instances needs two instances")
            for i in picks:
                values[i] //= 2
    elif degree == "success":
        values[picks[0]] //= 2
    elif degree == "bungle":
        values[picks[0]] += 1
    else:
        return
    b.emit(
        ev.PersistentChanged(
            combatant=target.id,
            persistent_after=tuple(v for v in values if v > 0),
            reason="First Help",
        )
    )
