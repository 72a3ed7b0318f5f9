"""Declaring and answering an attack, and resolving it once answered.

An attack (UAE-28, UAE-32..34, UAE-A4, UAE-A19) names a weapon on the sheet; a shot's
difficulty dice come from the range band plus modifiers. The target answers (melee:
Dodge, Defend, Fight Back or nothing; a shot: dive for cover or not) unless it cannot
act or is unaware of a shot. ``resolve`` rolls the exchange (``exchange``), then the
checks above the wound limit (``limits``) and ends the attacker's turn when it is over.
"""

from __future__ import annotations

import math

import msgspec

from service.dice.model import Dice, Modifier
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.commands import Attack, Respond
from service.rulesets.untold_aeons.exchange import melee, shot
from service.rulesets.untold_aeons.limits import wound_checks
from service.rulesets.untold_aeons.rules import (
    able,
    acting,
    character,
    check_action,
    turn_over_after,
)
from service.rulesets.untold_aeons.state import PendingAttack, State, Weapon, pair_key

MELEE_RESPONSES = ("dodge", "defend", "fight_back", "none")
RANGED_RESPONSES = ("dive", "none")


def band_difficulty(yards: int, weapon_range: int, point_blank: bool) -> int:
    """UAE-32, UAE-A19: point blank 1; up to the range 2; up to twice the range 3; ..."""
    if point_blank:
        return 1
    return 1 + max(1, math.ceil(yards / weapon_range))


def attack(state: State, command: Attack, dice: Dice) -> tuple[ev.Event, ...]:
    attacker = acting(state, command.attacker, "action")
    check_action(state, attacker)
    weapon = attacker.weapon(command.weapon)
    if weapon is None:
        raise RuleViolation(f"{attacker.name} has no '{command.weapon}' on the sheet")
    target = character(state, command.target)
    if target.id == attacker.id:
        raise RuleViolation(f"{attacker.name} cannot attack themselves")
    if target.status == "dead":
        raise RuleViolation(f"{target.name} is dead")
    if command.rapid_fire and not weapon.rapid_fire:
        raise RuleViolation(
            f"the {command.weapon} has no Rapid Fire: only a Rapid Fire weapon can fire a burst",
            rule="UAE-34",
        )
    if command.modifiers and not weapon.ranged:
        raise RuleViolation(
            "difficulty modifiers are for shots; a melee attack is an opposed roll",
            rule="UAE-A4",
        )
    difficulty = 0
    modifiers: tuple[Modifier, ...] = ()
    if weapon.ranged:
        assert weapon.range is not None
        distance = state.distances.get(pair_key(attacker.id, target.id))
        if distance is None:
            raise RuleViolation(
                f"the Narrator has not set the distance between {attacker.name} and {target.name}",
                rule="UAE-32",
            )
        band = band_difficulty(distance.yards, weapon.range, distance.point_blank)
        label = "point blank" if distance.point_blank else f"{distance.yards} yards"
        modifiers = (Modifier(f"range ({label}, weapon range {weapon.range})", band),)
        if target.has("moving"):
            modifiers += (Modifier("moving target", 1),)
        if target.has("partial_cover"):
            modifiers += (Modifier("partial cover", 1),)
        modifiers += command.modifiers
        difficulty = max(0, sum(m.value for m in modifiers))
    declared = ev.AttackDeclared(
        attacker=attacker.id,
        target=target.id,
        weapon=command.weapon,
        ranged=weapon.ranged,
        rapid_fire=command.rapid_fire,
        difficulty=difficulty,
        modifiers=modifiers,
    )
    pending = PendingAttack(
        attacker=attacker.id,
        target=target.id,
        weapon=command.weapon,
        ranged=weapon.ranged,
        rapid_fire=command.rapid_fire,
        difficulty=difficulty,
        modifiers=modifiers,
    )
    if target.can_act and not (weapon.ranged and target.has("unaware")):
        return (declared,)
    after = msgspec.structs.replace(
        state, used_action=(*state.used_action, attacker.id), pending=pending
    )
    return (declared, *resolve(after, pending, "none", "unarmed", dice))


def respond(state: State, command: Respond, dice: Dice) -> tuple[ev.Event, ...]:
    pending = state.pending
    if pending is None or pending.target != command.character:
        who = character(state, command.character)
        raise RuleViolation(f"no attack is waiting for {who.name}'s answer")
    target = able(state, command.character)
    attacker = character(state, pending.attacker)
    if pending.ranged and command.response not in RANGED_RESPONSES:
        raise RuleViolation(
            f"{attacker.name} is shooting: {target.name} can dive for cover or not "
            "(Dodge, Defend and Fight Back answer melee attacks)",
            rule="UAE-33",
        )
    if not pending.ranged and command.response not in MELEE_RESPONSES:
        raise RuleViolation(
            "diving for cover answers gunfire; against a melee attack choose Dodge, Defend "
            "or Fight Back",
            rule="UAE-28",
        )
    if command.response == "dive" and target.has("unaware"):
        raise RuleViolation(
            f"{target.name} is unaware of the shot: a target may dive for cover only if "
            "they are aware they are being shot at",
            rule="UAE-33",
        )
    if command.response == "fight_back" and target.weapon(command.weapon) is None:
        raise RuleViolation(f"{target.name} has no '{command.weapon}' on the sheet")
    if command.response == "fight_back" and (target.weapon(command.weapon) or Weapon()).ranged:
        raise RuleViolation(
            f"Fight Back is a Brawl roll: {target.name} fights back with a melee weapon",
            rule="UAE-30",
        )
    return resolve(state, pending, command.response, command.weapon, dice)


def resolve(
    state: State, pending: PendingAttack, response: str, back_weapon: str, dice: Dice
) -> tuple[ev.Event, ...]:
    attacker = character(state, pending.attacker)
    target = character(state, pending.target)
    weapon = attacker.weapon(pending.weapon)
    assert weapon is not None
    if pending.ranged:
        resolved, state = shot(state, attacker, target, weapon, pending, response, dice)
    else:
        resolved, state = melee(
            state, attacker, target, pending.weapon, weapon, response, back_weapon, dice
        )
    if response == "fight_back":
        resolved = msgspec.structs.replace(resolved, back_weapon=back_weapon)
    events: list[ev.Event] = [resolved]
    if resolved.struck is not None and resolved.damage_after is not None:
        struck = character(state, resolved.struck)
        if sum(h.taken for h in resolved.hits) > 0:
            struck = msgspec.structs.replace(struck, damage=resolved.damage_after)
            events.extend(wound_checks(state, struck, dice))
    if turn_over_after(state, attacker.id, action=True, move=False):
        events.append(ev.TurnEnded(character=attacker.id))
    return tuple(events)
