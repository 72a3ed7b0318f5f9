"""What the replay log's lines are built from: names, a roll's text, a condition's text,
and the longer lines of an action taken and an action resolved."""

from __future__ import annotations

from service.dice.model import RollRecord
from service.health_text import health_part, health_words
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.fields import ACTIONS, CONDITION_WORD, DEGREE_WORD
from service.rulesets.scentfinder.rules import area_name
from service.rulesets.scentfinder.state import Condition, State


def name_of(state: State, ident: str | None) -> str:
    if ident is None:
        return "nobody"
    who = state.combatants.get(ident)
    return who.name if who else ident


def roll_text(record: RollRecord) -> str:
    faces = ", ".join(str(d.face) for d in record.dice if d.kept)
    mods = "".join(f" {m.value:+d} {m.label}" for m in record.modifiers if m.label != "notation")
    versus = f" vs {record.target}" if record.target is not None else ""
    house = ", house rule" if "house rule" in record.purpose else ""
    return f"{record.notation} [{faces}]{mods} = {record.total}{versus} ({record.source}{house})"


def condition_name(state: State, c: Condition) -> str:
    """A condition named so that a line ticking or ending it says which one it is: the
    spell and its caster, what a Favour or an Impairment is for, whom a Stun is against."""
    word = CONDITION_WORD.get(c.kind, c.kind)
    if c.kind == "spell":
        return f"{name_of(state, c.source)}'s {c.spell}" if c.source else f"{c.spell}"
    if c.kind in ("favoured", "impaired") and c.scope:
        return f"{word} ({c.scope})"
    if c.kind == "affliction" and c.note:
        return f"{word} ({c.note})"
    if c.against and c.kind in ("stunned", "taunted", "bonus_reaction", "spotting"):
        return f"{word} against {name_of(state, c.against)}"
    return word


def condition_text(state: State, bearer: str, c: Condition) -> str:
    word = CONDITION_WORD.get(c.kind, c.kind)
    if c.kind == "sought":
        return (
            f"{name_of(state, bearer)} has Successfully Sought "
            f"{area_name(state, c.area)} this turn."
        )
    if c.kind == "affliction":
        word = (
            ("Intense " if c.intense else "basic ")
            + "affliction"
            + (f" ({c.note})" if c.note else "")
        )
    what = f"{name_of(state, bearer)} is {word}"
    if c.kind == "spell":
        what = f"{name_of(state, bearer)} is under {name_of(state, c.source)}'s {c.spell}"
    if c.kind in ("favoured", "impaired") and c.scope:
        what = f"{name_of(state, bearer)}: {c.scope} {word}"
    elif c.scope and c.kind not in ("spell",):
        what += f" ({c.scope})"
    elif c.against and c.kind in ("stunned", "taunted", "bonus_reaction", "spotting"):
        what += f" against {name_of(state, c.against)}"
    bits = []
    if c.circumstance:
        bits.append("circumstance")
    if c.expiry == "turns" and c.remaining is not None:
        bits.append(f"{c.remaining} turn{'s' if c.remaining != 1 else ''}")
    elif c.expiry == "start_of_turn":
        bits.append("until their next turn")
    elif c.expiry == "attack_or_start_of_turn":
        bits.append("until their next turn or an attack")
    elif c.expiry == "next_action":
        bits.append(f"until {name_of(state, c.against)}'s next action")
    elif c.expiry == "held":
        bits.append(f"while {name_of(state, c.against)} holds them")
    elif c.expiry == "end_of_turn":
        bits.append("this turn" if c.kind != "intimidated" else "on their next turn")
    elif c.expiry == "next_roll":
        bits.append("for one roll")
    if c.sustainable:
        bits.append("can be sustained")
    if c.note and c.kind not in ("affliction",):
        bits.append(c.note)
    return what + (f" ({', '.join(bits)})" if bits else "") + "."


def taken_line(state: State, event: ev.ActionTaken) -> str:
    def n(ident: str | None) -> str:
        return name_of(state, ident)

    spec = ACTIONS.get(event.action)
    title = spec.title if spec else event.action
    if event.action == "command" and not event.pending and event.note:
        return (
            f"{n(event.actor)} spends one more action on Command: {n(event.target)} will "
            "get a third action."
        )
    what = title
    if event.action == "cast_spell":
        what = f"Cast Spell: {event.spell}"
    line = f"{n(event.actor)}"
    if event.via == "reaction":
        line += " uses their reaction for"
    elif event.via == "bonus_reaction":
        line += " uses the bonus reaction for"
    elif event.via == "minion":
        line += " on command,"
    line += f" {what}" if event.via != "turn" else f" uses {what}"
    if event.target:
        line += f" on {n(event.target)}"
    if event.weapon:
        line += f" with the {event.weapon}"
    if event.area and event.action in ("shift", "sneak", "seek"):
        line += f" {'into' if event.action != 'seek' else 'in'} {area_name(state, event.area)}"
    if event.pending and event.skill:
        vs = spec.vs if spec and spec.vs else None
        modified = ""
        if event.action == "shift":
            who = state.combatants.get(event.actor)
            for ident in (event.area, who.area if who else None):
                area = state.areas.get(ident or "")
                if area is not None and area.obstacle is not None:
                    if area.obstacle.modifier != "none":
                        modified = f", {area.obstacle.modifier.title()}"
                    break
        line += f" ({event.skill}{' vs ' + vs if vs else ''}{modified})"
    if event.via in ("turn", "minion"):
        line += f", spending {event.cost} action{'s' if event.cost != 1 else ''}"
    if event.surcharges:
        line += " (+1: " + ", ".join(event.surcharges) + ")"
    if event.lost_action:
        line += "; Intimidated, they lose 1 action for not Striking or Shifting first"
    if event.fp_spent:
        line += f" and {event.fp_spent} FP"
    if event.note and event.action not in ("command",):
        line += f" [{event.note}]"
    if event.in_force:
        line += "; in force: " + "; ".join(event.in_force)
    line += _ended(state, event)
    return line + "."


def _ended(state: State, event: ev.ActionTaken) -> str:
    """What taking the action ended on the actor (leaving Hiding, a Taken Cover)."""
    who = state.combatants.get(event.actor)
    if who is None or not event.ended:
        return ""
    parts = []
    for c in who.conditions:
        if c.id not in event.ended:
            continue
        if c.kind == "hiding":
            parts.append("they stop Hiding")
        elif c.kind == "ready":
            parts.append(f"the Readied {c.note or 'action'} is used")
        elif c.kind == "bonus_reaction":
            parts.append("the bonus reaction is used")
        else:
            parts.append(f"{condition_name(state, c)} ends")
    return "; " + ", ".join(parts) if parts else ""


def resolved_line(state: State, event: ev.ActionResolved) -> str:
    def n(ident: str | None) -> str:
        return name_of(state, ident)

    spec = ACTIONS.get(event.action)
    title = spec.title if spec else event.action
    if event.degree is None:
        return f"{n(event.actor)}'s {title}: {event.effect}."
    line = f"{DEGREE_WORD[event.degree]} for {n(event.actor)}'s {title}"
    if event.in_force:
        line += " (in force: " + "; ".join(event.in_force) + ")"
    line += f": {event.effect}"
    if event.rolls:
        line += " - " + "; ".join(roll_text(r) for r in event.rolls)
    if event.damage:
        hurt = event.target or event.actor
        if event.effect != f"{event.damage} damage":
            line += f", {event.damage} damage"
        if event.hp_after is not None:
            line += hp_change(state, hurt, event.hp_after, f" ({n(hurt)} {{}})")
    return line + "."


def hp_change(state: State, combatant: str, hp_after: int, template: str) -> str:
    """``40 -> 36 HP`` in ``template`` for readers who may see ``combatant``'s numbers,
    else its word; nothing under ``npc_health = "hidden"`` (service/health_text.py)."""
    who = state.combatants.get(combatant)
    if who is None:  # not in the fight any more: no word to give, the numbers stay the GM's
        return health_part(combatant, template.format(f"{hp_after} HP"))
    exact = template.format(f"{who.hp} -> {hp_after} HP")
    return health_words(combatant, exact, hp_after, who.max_hp, template.format("{word}"))
