"""The effect of each Scentfinder action that takes no test (Aid, Evade, Shift, Ready,
Sustain Spell, Take Cover and the rest), applied as soon as it is paid for.
"""

from __future__ import annotations

from msgspec.structs import replace

from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import _cond, _move
from service.rulesets.scentfinder.commands import Act
from service.rulesets.scentfinder.fields import ACTIONS
from service.rulesets.scentfinder.rules import Builder, area_name


def _untested(b: Builder, ident: str, command: Act) -> None:
    state = b.state
    who = b.who(ident)
    action = command.action
    name = who.name
    line: str
    if action == "aid" and command.via == "reaction":
        ally = b.who(command.target or "")
        b.emit(
            ev.ConditionRemoved(
                bearer=ident,
                condition=next(c.id for c in who.conditions if c.kind == "aiding"),
                reason="Aid used",
            )
        )
        b.condition(
            ally.id,
            _cond(
                "favoured",
                expiry="next_roll",
                source=ident,
                origin="Aid",
                circumstance=True,
                scope="the aided roll",
            ),
        )
        line = f"{name} Favours {ally.name}'s roll"
    elif action == "aid":
        b.condition(ident, _cond("aiding", expiry="start_of_turn", source=ident, note=command.note))
        line = f"until {name}'s next turn, a reaction can Favour an ally's roll"
    elif action == "avert_gaze":
        b.condition(
            ident,
            _cond(
                "favoured",
                expiry="start_of_turn",
                circumstance=True,
                scope="Saves against visual effects",
                source=ident,
                origin="Avert Gaze",
            ),
        )
        line = "Saves against visual effects Favoured until next turn"
    elif action == "evade":
        if state.options.evade_until_next_turn:
            b.condition(ident, _cond("evaded", expiry="start_of_turn", source=ident))
        else:
            b.condition(ident, _cond("evaded", expiry="turns", remaining=1, source=ident))
        line = "enemies must spend one more action to affect them in mêlée"
        b.emit(ev.ActionResolved(actor=ident, action=action, effect=line))
        _move(b, ident, None, "Evade")
        return
    elif action == "shift":
        b.emit(
            ev.ActionResolved(
                actor=ident, action=action, effect=f"moves to {area_name(state, command.area)}"
            )
        )
        _move(b, ident, command.area, "Shift")
        return
    elif action == "interact":
        line = command.note or "interacts with something in the area"
    elif action == "point_out":
        spotted = [c for c in who.conditions if c.kind == "spotting"]
        allies = [
            x
            for x in state.combatants.values()
            if x.side == who.side and x.id != ident and not x.out
        ]
        for ally in allies:
            for c in spotted:
                if not ally.has("spotting", c.against):
                    b.condition(ally.id, replace(c, id="", source=ident))
        line = "allies gain the benefits of the last Seek"
    elif action == "raise_a_shield":
        b.condition(ident, _cond("shield_raised", expiry="start_of_turn"))
        line = "benefits from the held shield until next turn"
    elif action == "ready":
        readied = command.readied_action or "strike"
        b.condition(
            ident, _cond("ready", expiry="start_of_turn", note=readied, scope=command.trigger)
        )
        line = f"{ACTIONS[readied].title} readied as a reaction: {command.trigger}"
    elif action == "release":
        if command.weapon is not None:
            b.emit(ev.WeaponDropped(combatant=ident, weapon=command.weapon, area=who.area))
            line = f"lets the {command.weapon} fall"
        else:
            for x in state.combatants.values():
                for c in x.conditions:
                    if c.expiry == "held" and c.against == ident:
                        b.emit(
                            ev.ConditionRemoved(
                                bearer=x.id, condition=c.id, reason=f"{name} let go"
                            )
                        )
            line = "frees a hand and lets go"
    elif action == "sustain_spell":
        b.emit(ev.FpChanged(combatant=ident, fp_after=who.fp - 1, reason="Sustain Spell"))
        for x in state.combatants.values():
            for c in x.conditions:
                if (
                    c.kind == "spell"
                    and c.source == ident
                    and c.spell == command.spell
                    and c.sustainable
                ):
                    b.emit(
                        ev.ConditionChanged(
                            bearer=x.id,
                            condition=c.id,
                            remaining=c.remaining,
                            skips=c.skips + 1,
                            intense=c.intense,
                            reason="sustained",
                        )
                    )
        line = f"{command.spell}'s effects do not count down at the end of their next turn"
    elif action == "take_cover":
        b.condition(
            ident,
            _cond(
                "favoured",
                expiry="attack_or_start_of_turn",
                circumstance=True,
                scope="REF Saves & Stealth rolls",
                source=ident,
                origin="Take Cover",
            ),
        )
        line = "REF Saves & Stealth rolls Favoured until next turn or an attack"
    else:
        line = "done"
    b.emit(ev.ActionResolved(actor=ident, action=action, target=command.target, effect=line))
