"""The replay log: one line per event, as a GM would announce it at the table."""

from __future__ import annotations

from typing import assert_never

from service.health_text import health_part, health_words
from service.ruleset import rolls_of
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.fields import CONDITION_WORD, DEGREE_WORD
from service.rulesets.scentfinder.narrate_parts import (
    condition_name,
    condition_text,
    hp_change,
    name_of,
    resolved_line,
    roll_text,
    taken_line,
)
from service.rulesets.scentfinder.rules import area_name
from service.rulesets.scentfinder.sheet import spoken as sheet_spoken
from service.rulesets.scentfinder.state import State
from service.rulesets.scentfinder.view import narrate_secret


def narrate(state: State, event: ev.Event) -> str:
    """The line for ``event``; while one of its rolls is hidden (a secret GM roll not
    yet revealed), the players' line from ``view.narrate_secret``."""
    if any(r.hidden for r in rolls_of(event)):
        return narrate_secret(state, event)

    def n(ident: str | None) -> str:
        return name_of(state, ident)

    match event:
        case ev.AreaDefined():
            traits = []
            if event.difficult:
                traits.append("difficult terrain")
            if event.hazard:
                traits.append(f"hazardous ({event.hazard.save} Save, {event.hazard.die})")
            if event.obstacle:
                mod = (
                    ""
                    if event.obstacle.modifier == "none"
                    else f", {event.obstacle.modifier.title()}"
                )
                traits.append(f"an obstacle ({event.obstacle.skill}{mod})")
            if event.uneven:
                traits.append("uneven ground")
            if event.cover:
                traits.append("potential cover")
            line = f"The battlefield has an area: {event.name}"
            if traits:
                line += ", " + ", ".join(traits)
            if event.adjacent:
                line += "; next to " + ", ".join(area_name(state, a) for a in event.adjacent)
            return line + "."
        case ev.CombatantAdded():
            kind = (
                ""
                if event.pc
                else (" (NPC" + (f", acts in phase {event.phase}" if event.phase else "") + ")")
            )
            if event.minion_of:
                kind = f" ({n(event.minion_of)}'s minion)"
            fp = f", {event.fp} FP" if event.fp or event.max_fp else ""
            if event.max_fp:
                fp += f" (at most {event.max_fp})"
            where = area_name(state, event.area)
            hp = health_words(
                event.combatant, f": {event.hp} HP{fp}", event.hp, event.max_hp, ": {word}"
            )
            return f"{event.name}{kind} takes the field in {where}{hp}."
        case ev.CombatantRemoved():
            return f"{n(event.combatant)} leaves the fight."
        case ev.InitiativeSet():
            if event.degree is None:
                return f"{n(event.combatant)} acts in initiative phase {event.phase}."
            value = f" ({event.value})" if event.value is not None else ""
            line = (
                f"{n(event.combatant)}'s {event.skill or 'Perception'} for initiative: "
                f"{DEGREE_WORD[event.degree]}{value}, acting in phase {event.phase}"
            )
            if event.start_area:
                line += f", starting one area away in {area_name(state, event.start_area)}"
            return line + "."
        case ev.CombatBegan():
            return "Combat begins! Turn order: " + ", ".join(n(i) for i in event.order) + "."
        case ev.RoundStarted():
            return f"Round {event.round} begins."
        case ev.TurnStarted():
            return (
                f"Round {event.round}, phase {event.phase}: {n(event.combatant)}'s turn, "
                f"{event.actions} action{'s' if event.actions != 1 else ''} and "
                f"{event.reaction} reaction."
            )
        case ev.Delayed():
            line = (
                f"{n(event.combatant)} delays from phase {event.from_phase} to phase "
                f"{event.to_phase}, for the rest of the combat: the turn does not happen now, "
                f"and the 3 actions & a reaction come when it does in phase {event.to_phase}"
            )
            if event.first_turn:
                line += "; before that first turn they have no reaction"
            return line + "."
        case ev.PhaseReordered():
            return (
                f"The players of phase {event.phase} agree on their order: "
                + ", ".join(n(i) for i in event.order)
                + "."
            )
        case ev.ActionTaken():
            return taken_line(state, event)
        case ev.ActionResolved():
            return resolved_line(state, event)
        case ev.ConditionAdded():
            return condition_text(state, event.bearer, event.condition)
        case ev.ConditionRemoved():
            who = state.combatants.get(event.bearer)
            found = (
                next((c for c in who.conditions if c.id == event.condition), None) if who else None
            )
            word = CONDITION_WORD.get(found.kind, "affected") if found else event.condition
            if found and found.kind in ("favoured", "impaired") and found.scope:
                return f"{n(event.bearer)}: {found.scope} no longer {word} ({event.reason})."
            return f"{n(event.bearer)} is no longer {word} ({event.reason})."
        case ev.ConditionChanged():
            who = state.combatants.get(event.bearer)
            found = (
                next((c for c in who.conditions if c.id == event.condition), None) if who else None
            )
            word = CONDITION_WORD.get(found.kind, "affected") if found else event.condition
            left = (
                f"{event.remaining} turn{'s' if event.remaining != 1 else ''} left"
                if event.remaining is not None
                else ""
            )
            extra = [
                x
                for x in (
                    left,
                    "Intense" if event.intense else "",
                    f"skips {event.skips} count-down" if event.skips else "",
                )
                if x
            ]
            return (
                f"{n(event.bearer)}'s {word}: "
                + ", ".join(extra or ["changed"])
                + f" ({event.reason})."
            )
        case ev.Moved():
            line = (
                f"{n(event.combatant)} moves from {area_name(state, event.from_area)} to "
                f"{area_name(state, event.to_area)} ({event.reason})"
            )
            area = state.areas.get(event.to_area)
            if area is not None and area.uneven:
                line += ", Staggered on the uneven ground"
            return line + "."
        case ev.HazardTriggered():
            where = area_name(state, event.area)
            return (
                f"{where[:1].upper()}{where[1:]} is hazardous: {n(event.combatant)} must make a "
                f"{event.save} Save against {event.die}."
            )
        case ev.SaveMade():
            roll = f"{roll_text(event.rolls[0])}, " if event.rolls else ""
            howmuch = {
                "triumph": "avoids it all",
                "success": "halves the die" if event.hazard_area else "takes 1 damage",
                "failure": "takes the rolled damage",
                "bungle": "takes maximised damage",
            }[event.degree]
            line = (
                f"{n(event.combatant)}'s {event.save} Save against {event.label}: "
                f"{DEGREE_WORD[event.degree]}, {howmuch}"
            )
            if event.in_force:
                line += " (in force: " + "; ".join(event.in_force) + ")"
            if event.damage or event.rolls:
                change = hp_change(state, event.combatant, event.hp_after, ", {}")
                line += f": {roll}{event.damage} damage{change}"
            return line + "."
        case ev.TurnEnded():
            parts = []
            if event.persistent_damage:
                change = hp_change(state, event.combatant, event.hp_after, " ({})")
                parts.append(f"{event.persistent_damage} persistent damage{change}")
            who = state.combatants.get(event.combatant)
            words = {c.id: condition_name(state, c) for c in who.conditions} if who else {}
            for t in event.ticked:
                parts.append(
                    f"{words.get(t.condition, t.condition)} {t.remaining} "
                    f"turn{'s' if t.remaining != 1 else ''} left"
                )
            for s in event.skipped:
                parts.append(f"{words.get(s, s)} sustained, no count-down")
            for d in event.dissipated:
                parts.append(f"{words.get(d, d)} dissipates")
            line = f"{n(event.combatant)} ends their turn"
            return line + (": " + "; ".join(parts) if parts else "") + "."
        case ev.WeaponDropped():
            where = area_name(state, event.area)
            return f"{n(event.combatant)}'s {event.weapon} falls to the ground in {where}."
        case ev.FpChanged():
            return f"{n(event.combatant)} now has {event.fp_after} FP ({event.reason})."
        case ev.PersistentChanged():
            values = ", ".join(str(v) for v in event.persistent_after) or "none"
            return f"{n(event.combatant)}'s persistent damage is now {values} ({event.reason})."
        case ev.DeathsDoorChanged():
            if event.deaths_door:
                return (
                    f"{n(event.combatant)} stays at Death's Door and will regain "
                    f"{event.dd_action_loss} fewer action(s) per turn ({event.reason})."
                )
            at = health_part(event.combatant, f" at {event.hp_after} HP")
            return f"{n(event.combatant)} is out of Death's Door{at} ({event.reason})."
        case ev.ActionsGranted():
            return (
                f"{n(event.minion)} gains {event.actions} actions to spend during "
                f"{n(event.by)}'s turn."
            )
        case ev.Ruling():
            changes = []
            if event.hp is not None and event.combatant is not None:
                changes.append(health_part(event.combatant, f"HP {event.hp}", "HP changed"))
            if event.fp is not None:
                changes.append(f"FP {event.fp}")
            if event.deaths_door is not None:
                changes.append("at Death's Door" if event.deaths_door else "out of Death's Door")
            if event.dd_action_loss is not None:
                changes.append(f"{event.dd_action_loss} fewer regained action(s)")
            if event.persistent is not None:
                changes.append(
                    "persistent damage " + (", ".join(map(str, event.persistent)) or "none")
                )
            if event.area is not None:
                changes.append(f"now in {area_name(state, event.area)}")
            if event.condition_added is not None:
                changes.append(
                    condition_text(state, event.combatant or "", event.condition_added).rstrip(".")
                )
            if event.condition_removed is not None:
                changes.append(f"condition {event.condition_removed} removed")
            if event.sheet is not None:
                changes.append("sheet: " + sheet_spoken(event.sheet))
            whom = f" {n(event.combatant)}:" if event.combatant else ""
            return f"GM ruling ({event.reason}):{whom} " + ("; ".join(changes) or "so noted") + "."
        case ev.GmRolled():
            return (
                f"The GM rolls for {event.label}: "
                + "; ".join(roll_text(r) for r in event.rolls)
                + "."
            )
        case ev.CombatEnded():
            return f"The fight ends in round {event.round}."
        case _:
            assert_never(event)
