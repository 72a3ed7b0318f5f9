"""How the dice of one attack fall: the melee exchange and the shot.

Melee (UAE-28..31, UAE-A4): attacker and defender roll their own pools; Dodge and Defend
win ties for the defender, Fight Back gives ties to the attacker and on a defender's win
the defender hits back; both at 0 successes: nothing happens. Firearms (UAE-32..34): the
declared difficulty dice, a dive adds half Dexterity rounded up, Rapid Fire trades a
penalty die for up to N hits. Each returns the ``AttackResolved`` (hits from ``damage``)
and the state with the karma boosts its rolls used.
"""

from __future__ import annotations

import math

import msgspec

from service.dice.model import Dice, RollRecord
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import rolls
from service.rulesets.untold_aeons.damage import hit, resolved
from service.rulesets.untold_aeons.limits import spent
from service.rulesets.untold_aeons.state import Character, PendingAttack, State, Weapon


def melee(
    state: State,
    attacker: Character,
    target: Character,
    name: str,
    weapon: Weapon,
    response: str,
    back_weapon: str,
    dice: Dice,
) -> tuple[ev.AttackResolved, State]:
    plan = rolls.plan(state, attacker, weapon.skill_name)
    a_record = rolls.roll(dice, attacker, plan, purpose=pending_words(target.name), opposed=True)
    state = spent(state, attacker.id)
    a = rolls.summary_of(a_record)
    a_score = rolls.score(a)
    prone: tuple[str, ...] = ()
    if response == "none":
        won = a_score > 0
        a_record = _outcome(a_record, "hit" if won else "miss")
        result = "hit" if won else "nothing"
        return resolved(
            attacker,
            target,
            name,
            response,
            result,
            (hit(attacker, weapon, a, target),) if won else (),
            target if won else None,
            (a_record,),
            prone,
        ), state
    trait = "dexterity" if response == "dodge" else "brawl"
    d_plan = rolls.plan(state, target, trait)
    words = {"dodge": "Dodge", "defend": "Defend", "fight_back": "Fight Back"}[response]
    d_record = rolls.roll(
        dice, target, d_plan, purpose=f"{words} against {attacker.name}", opposed=True
    )
    state = spent(state, target.id)
    d = rolls.summary_of(d_record)
    d_score = rolls.score(d)
    a_record = msgspec.structs.replace(a_record, opposed_by=d_record.roll_id)
    d_record = msgspec.structs.replace(d_record, opposed_by=a_record.roll_id)
    if response == "dodge":
        prone = (target.id,)
    hits: tuple[ev.Hit, ...] = ()
    struck: Character | None = None
    if a_score == 0 and d_score == 0:
        result = "nothing"
        a_out, d_out = "0 successes each: nothing happens", "0 successes each: nothing happens"
    elif response == "fight_back" and d_score > a_score:
        result = "fought_back"
        back = target.weapon(back_weapon) or Weapon(plus=True)
        hits = (hit(target, back, d, attacker),)
        struck = attacker
        a_out, d_out = "loses", "wins and hits back"
    elif a_score > d_score or (response == "fight_back" and a_score == d_score):
        result = "hit"
        hits = (hit(attacker, weapon, a, target),)
        struck = target
        a_out, d_out = "wins: hit", "loses"
    else:
        result = "defended"
        a_out, d_out = "loses", "wins: no damage"
    return resolved(
        attacker,
        target,
        name,
        response,
        result,
        hits,
        struck,
        (_outcome(a_record, a_out), _outcome(d_record, d_out)),
        prone,
    ), state


def shot(
    state: State,
    attacker: Character,
    target: Character,
    weapon: Weapon,
    pending: PendingAttack,
    response: str,
    dice: Dice,
) -> tuple[ev.AttackResolved, State]:
    difficulty = pending.difficulty
    parts = tuple((m.label, m.value) for m in pending.modifiers)
    prone: tuple[str, ...] = ()
    if response == "dive":
        dive = math.ceil(target.dexterity / 2)
        difficulty += dive
        parts += ((f"dive for cover (half of Dexterity {target.dexterity}, rounded up)", dive),)
        prone = (target.id,)
    penalties: tuple[tuple[str, int], ...] = ()
    if pending.rapid_fire:
        penalties = (("Rapid Fire", state.options.rapid_fire_penalty_dice),)
    plan = rolls.plan(
        state,
        attacker,
        weapon.skill_name,
        difficulty=difficulty,
        difficulty_parts=parts,
        penalties=penalties,
    )
    record = rolls.roll(dice, attacker, plan, purpose=pending_words(target.name))
    state = spent(state, attacker.id)
    s = rolls.summary_of(record)
    hits: tuple[ev.Hit, ...] = ()
    if s.succeeded:
        shots = 1
        if pending.rapid_fire:
            assert weapon.rapid_fire is not None
            shots = min(s.successes - s.failures, weapon.rapid_fire)
        crits = min(s.net_advantages, shots)
        hits = tuple(hit(attacker, weapon, s, target, critical=i < crits) for i in range(shots))
        outcome = f"{record.outcome}: {len(hits)} hit{'s' if len(hits) > 1 else ''}"
    else:
        outcome = f"{record.outcome}: miss"
    return resolved(
        attacker,
        target,
        pending.weapon,
        response,
        "hit" if hits else "miss",
        hits,
        target if hits else None,
        (msgspec.structs.replace(record, outcome=outcome),),
        prone,
    ), state


def pending_words(target_name: str) -> str:
    return f"the attack on {target_name}"


def _outcome(record: RollRecord, outcome: str) -> RollRecord:
    return msgspec.structs.replace(record, outcome=outcome)
