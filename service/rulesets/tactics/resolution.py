"""Resolving a pending Press on the defender's turn (Agility check, the fail-by margin,
soak, then wounds from ``wounds``; TAC-13/TAC-14), and the GM's Check (TAC-A14)."""

from __future__ import annotations

import msgspec

from service.dice.model import Dice, Modifier, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.rules import bonus_labels, combatant, hits_against, name, on_turn
from service.rulesets.tactics.state import BonusStat, Combatant, Fighting, State
from service.rulesets.tactics.wounds import take_wounds, void_if_dead

replace = msgspec.structs.replace


def resolve(state: State, c: cmd.Resolve, dice: Dice) -> tuple[ev.Event, ...]:
    """TAC-13/TAC-14: the first pending Press against the defender, in declaration order:
    Agility check, fail-by added to damage, soak subtracted, wounds, shields."""
    _, who = on_turn(state, c.combatant, "resolving Presses")
    waiting = hits_against(state, who.id)
    if not waiting:
        raise RuleViolation(f"no Press is pending against {who.name}", rule="TAC-07")
    press, hit = waiting[0]
    attacker = name(state, press.attacker)
    events: list[ev.Event] = []
    damage = press.damage
    if hit.mode == "dodge":
        mods = (Modifier("Agility", who.agility), *_mods(who, "agility", press.id))
        record = dice.roll(
            "1d20",
            purpose=f"Agility against {attacker}'s {press.weapon} (Precision {press.precision})",
            roller=who.id,
            modifiers=mods,
            target=press.precision,
        )
        total = record.total
        tie_dodges = state.options.dodge_tie == "defender"
        dodged = total >= press.precision if tie_dodges else total > press.precision
        fail_by = 0 if dodged else press.precision - total
        graze = state.options.graze_band_width
        result: ev.AgilityResult = (
            "dodged" if dodged else "grazed" if 0 < fail_by <= graze else "failed"
        )
        damage = 0 if dodged else press.damage + (0 if result == "grazed" else fail_by)
        outcome = {"dodged": "dodged", "grazed": "grazed", "failed": f"fails by {fail_by}"}[result]
        events.append(
            ev.AgilityChecked(
                press=press.id,
                target=who.id,
                attacker=press.attacker,
                precision=press.precision,
                total=total,
                result=result,
                fail_by=fail_by,
                damage=damage,
                rolls=(_outcome(record, outcome),),
            )
        )
        if dodged:
            events.append(ev.HitResolved(press=press.id, target=who.id, wounds=0))
            return tuple(events)
    mods = (
        Modifier("Endurance", who.endurance),
        Modifier("armour", who.armour),
        *_mods(who, "soak", press.id),
    )
    record = dice.roll(
        "1d20", purpose=f"soak against {damage} damage", roller=who.id, modifiers=mods
    )
    through = max(0, damage - record.total)
    wounds = through * state.options.wounds_per_damage // who.toughness
    events.append(
        ev.SoakRolled(
            press=press.id,
            target=who.id,
            attacker=press.attacker,
            damage=damage,
            braced=hit.mode == "brace",
            soak=record.total,
            through=through,
            wounds=wounds,
            rolls=(_outcome(record, f"{through} through" if through else "all absorbed"),),
        )
    )
    taken = take_wounds(state, who, wounds, press.attacker, press=press)
    events.extend(taken)
    absorbed = sum(e.negated for e in taken if isinstance(e, ev.ShieldsSpent))
    events.append(ev.HitResolved(press=press.id, target=who.id, wounds=wounds, absorbed=absorbed))
    events.extend(void_if_dead(state, who, taken, press.id))
    return tuple(events)


def check(state: State, c: cmd.Check, dice: Dice) -> tuple[ev.Event, ...]:
    """TAC-A14: a GM-adjudicated roll for what the text leaves open (Acumen)."""
    who = combatant(state, c.combatant)
    value = {
        "agility": who.agility,
        "endurance": who.endurance,
        "acumen": who.acumen,
        "precision": who.precision,
    }[c.attribute]
    record = dice.roll(
        "1d20",
        purpose=c.label,
        roller=who.id,
        modifiers=(Modifier(c.attribute.title(), value),),
        target=c.target,
    )
    success = record.total >= c.target
    return (
        ev.CheckRolled(
            combatant=who.id,
            label=c.label,
            attribute=c.attribute,
            target=c.target,
            rolls=(_outcome(record, "success" if success else "failure"),),
            react_open=isinstance(state.phase, Fighting)
            and state.phase.turn == who.id
            and state.phase.stage == "react",
        ),
    )


def _mods(who: Combatant, stat: BonusStat, press: str) -> tuple[Modifier, ...]:
    return tuple(Modifier(label, amount) for label, amount in bonus_labels(who, stat, press))


def _outcome(record: RollRecord, outcome: str) -> RollRecord:
    return replace(record, outcome=outcome)
