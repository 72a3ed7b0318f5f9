"""Moving, hiding and looking: the degree lines of Sneak, Shift through an obstacle,
Interact unnoticed, Arrest a Fall, Create a Diversion, Escape, Hide and Seek."""

from __future__ import annotations

from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import (
    Resolution,
    _choice,
    _cond,
    _move,
)
from service.rulesets.scentfinder.rules import area_name

APPLIED = frozenset(
    {"sneak", "shift", "interact", "arrest_fall", "create_a_diversion", "escape", "hide", "seek"}
)
"""The actions whose degree lines ``apply`` applies."""


def apply(r: Resolution) -> None:
    """The degree line of each action above."""
    b = r.b
    p = r.p
    command = r.command
    state = r.state
    actor = r.actor
    line = r.line
    resolved = r.resolved
    degree = r.command.degree
    top = degree in ("triumph", "success")
    action = r.p.action
    if action == "sneak":
        hiding = [c.id for c in actor.conditions if c.kind == "hiding"]
        moves = True
        stop = degree == "bungle"
        if degree == "failure":
            pick = _choice(
                command,
                ("lose_movement", "stop_hiding"),
                "Sneak's Failure: lose the movement or stop Hiding",
            )
            moves = pick == "stop_hiding"
            stop = moves
        resolved(
            line if degree != "failure" else ("stops Hiding" if stop else "loses the movement")
        )
        for hid in hiding if stop else ():
            b.emit(ev.ConditionRemoved(bearer=actor.id, condition=hid, reason="stopped Hiding"))
        if moves:
            for x in state.combatants.values():
                for c in x.conditions:
                    if c.kind == "spotting" and c.against == actor.id:
                        b.emit(
                            ev.ConditionRemoved(
                                bearer=x.id, condition=c.id, reason=f"{actor.name} sneaked away"
                            )
                        )
            if degree == "triumph":
                b.condition(
                    actor.id,
                    _cond(
                        "favoured",
                        remaining=1,
                        circumstance=True,
                        scope="attacks",
                        source=actor.id,
                        origin="Sneak",
                    ),
                )
            _move(b, actor.id, p.area, "Sneak")
    elif action == "shift":
        if top:
            resolved(f"gets through the obstacle to {area_name(state, p.area)}")
            _move(b, actor.id, p.area, "Shift")
        else:
            resolved(
                "fails to get through the obstacle: the Shift does not happen and the action "
                "is spent (SCF-A13)"
            )
    elif action == "interact":
        resolved("unnoticed" if top else "noticed")
    elif action == "arrest_fall":
        stops = degree == "success" or (
            degree == "triumph" and state.options.arrest_fall_triumph_as_success
        )
        resolved("stops falling, for as long as the method works" if stops else "¤")
    elif action == "create_a_diversion":
        resolved(line)
        if top:
            b.condition(
                actor.id,
                _cond("obscured", remaining=2 if degree == "triumph" else 1, scope="all senses"),
            )
        elif degree == "bungle":
            b.condition(
                actor.id,
                _cond("impaired", remaining=2, circumstance=True, scope="Create a Diversion"),
            )
    elif action == "escape":
        resolved(line)
        if degree == "triumph":
            kinds: tuple[str, ...] = ("restrained", "immobilised")
        elif degree == "success":
            kinds = (_choice(command, ("restrained", "immobilised"), "Escape's Success ends one"),)
        else:
            kinds = ()
        for c in actor.conditions:
            if c.kind in kinds:
                b.emit(ev.ConditionRemoved(bearer=actor.id, condition=c.id, reason="escaped"))
    elif action == "hide":
        resolved(line)
        if top:
            b.condition(actor.id, _cond("hiding", expiry="while_hiding"))
            if degree == "triumph":
                b.condition(actor.id, _cond("stealth_strike", remaining=1))
        elif degree == "bungle":
            b.condition(actor.id, _cond("impaired", remaining=2, circumstance=True, scope="Hiding"))
    elif action == "seek":
        resolved(line)
        if top:
            b.condition(actor.id, _cond("sought", expiry="end_of_turn", area=p.area))
            for x in state.combatants.values():
                if (
                    x.area == p.area
                    and x.has("hiding")
                    and x.side != actor.side
                    and not actor.has("spotting", x.id)
                ):
                    b.condition(
                        actor.id,
                        _cond(
                            "spotting",
                            expiry="until_removed",
                            against=x.id,
                            area=p.area,
                            scope=f"can target {x.name}",
                        ),
                    )
        elif degree == "bungle":
            b.condition(
                actor.id,
                _cond(
                    "impaired",
                    remaining=1,
                    circumstance=True,
                    area=p.area,
                    scope=f"Seeking in {area_name(state, p.area)}",
                ),
            )
