"""Attacks, defences, damage and the checks above a limit.

Melee (UAE-28..31, UAE-A4): attacker and defender roll their own pools; Dodge and Defend
win ties for the defender, Fight Back gives ties to the attacker and on a defender's win
the defender hits back; both at 0 successes: nothing happens. Firearms (UAE-32..34):
difficulty dice by range band plus modifiers, a dive adds half Dexterity rounded up,
Rapid Fire trades a penalty die for up to N hits. Damage (UAE-37..40, UAE-A9..A11):
base (doubled on a critical) + successes before cancelling, less max(0, Toughness -
Piercing), never below 0. The checks above a limit (UAE-16, UAE-18, UAE-21, UAE-23,
UAE-A14) follow every damage and every stress gain.
"""

from __future__ import annotations

import math

import msgspec

from service.dice.model import Dice, Modifier, PoolSummary, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import rolls
from service.rulesets.untold_aeons.commands import Attack, Respond
from service.rulesets.untold_aeons.rules import (
    able,
    acting,
    character,
    check_action,
    turn_over_after,
)
from service.rulesets.untold_aeons.state import (
    Character,
    PendingAttack,
    State,
    Status,
    Weapon,
    pair_key,
)

MELEE_RESPONSES = ("dodge", "defend", "fight_back", "none")
RANGED_RESPONSES = ("dive", "none")


def spent(state: State, ident: str) -> State:
    """The state once ``ident``'s karma boost is used by a roll (evolve does the same
    for every pool roll of an event)."""
    if ident not in state.boosts:
        return state
    return msgspec.structs.replace(
        state, boosts={k: v for k, v in state.boosts.items() if k != ident}
    )


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
        resolved, state = _shot(state, attacker, target, weapon, pending, response, dice)
    else:
        resolved, state = _melee(
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


def _melee(
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
        return _resolved(
            attacker,
            target,
            name,
            response,
            result,
            (_hit(attacker, weapon, a, target),) if won else (),
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
        hits = (_hit(target, back, d, attacker),)
        struck = attacker
        a_out, d_out = "loses", "wins and hits back"
    elif a_score > d_score or (response == "fight_back" and a_score == d_score):
        result = "hit"
        hits = (_hit(attacker, weapon, a, target),)
        struck = target
        a_out, d_out = "wins: hit", "loses"
    else:
        result = "defended"
        a_out, d_out = "loses", "wins: no damage"
    return _resolved(
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


def _shot(
    state: State,
    attacker: Character,
    target: Character,
    weapon: Weapon,
    pending: PendingAttack,
    response: str,
    dice: Dice,
) -> tuple[ev.AttackResolved, State]:
    difficulty = pending.difficulty
    prone: tuple[str, ...] = ()
    if response == "dive":
        difficulty += math.ceil(target.dexterity / 2)
        prone = (target.id,)
    penalties: tuple[tuple[str, int], ...] = ()
    if pending.rapid_fire:
        penalties = (("Rapid Fire", state.options.rapid_fire_penalty_dice),)
    plan = rolls.plan(
        state, attacker, weapon.skill_name, difficulty=difficulty, penalties=penalties
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
        hits = tuple(_hit(attacker, weapon, s, target, critical=i < crits) for i in range(shots))
        outcome = f"{record.outcome}: {len(hits)} hit{'s' if len(hits) > 1 else ''}"
    else:
        outcome = f"{record.outcome}: miss"
    return _resolved(
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


def _hit(
    striker: Character,
    weapon: Weapon,
    summary: PoolSummary,
    victim: Character,
    *,
    critical: bool | None = None,
) -> ev.Hit:
    """UAE-37..40, UAE-A9..A11."""
    crit = summary.net_advantages >= 1 if critical is None else critical
    base = weapon.base + (striker.toughness if weapon.plus else 0)
    if crit:
        base *= 2
    dealt = base + summary.successes
    reduction = max(0, victim.toughness - weapon.piercing)
    return ev.Hit(
        base=base,
        critical=crit,
        successes=summary.successes,
        dealt=dealt,
        reduction=reduction,
        taken=max(0, dealt - reduction),
    )


def _resolved(
    attacker: Character,
    target: Character,
    weapon: str,
    response: str,
    result: str,
    hits: tuple[ev.Hit, ...],
    struck: Character | None,
    records: tuple[RollRecord, ...],
    prone: tuple[str, ...],
) -> ev.AttackResolved:
    taken = sum(h.taken for h in hits)
    return ev.AttackResolved(
        attacker=attacker.id,
        target=target.id,
        weapon=weapon,
        response=response,
        result=result,  # type: ignore[arg-type]
        hits=hits,
        struck=struck.id if struck else None,
        damage_after=struck.damage + taken if struck else None,
        prone=prone,
        rolls=records,
    )


def wound_checks(state: State, who: Character, dice: Dice) -> list[ev.LimitChecked]:
    """After damage (``who.damage`` is the total after it), UAE-A14 order: the Severely
    Injured check above the limit unless already Severely Injured, then the death save
    above twice the limit (again on every further damage)."""
    out: list[ev.LimitChecked] = []
    limit = who.wound_limit
    status: Status = who.status
    if status in ("active", "broken") and rolls.over(state, who.damage, limit):
        record, passed = _limit_roll(
            state,
            who,
            "toughness",
            who.damage - limit,
            dice,
            f"{who.name}'s wound check above the limit",
        )
        state = spent(state, who.id)
        status = status if passed else "severely_injured"
        out.append(
            _checked(who, "wounds", "limit", who.damage, limit, record, passed, status, who.shaken)
        )
    if status != "dead" and rolls.over(state, who.damage, 2 * limit):
        record, passed = _limit_roll(
            state, who, "toughness", who.damage - 2 * limit, dice, f"{who.name}'s save or die"
        )
        status = status if passed else "dead"
        out.append(
            _checked(
                who, "wounds", "twice", who.damage, 2 * limit, record, passed, status, who.shaken
            )
        )
    return out


def stress_checks(state: State, who: Character, dice: Dice) -> list[ev.LimitChecked]:
    """After stress gain (``who.stress`` is the total after it): the Intellect roll above
    the limit unless already Shaken, then the save at twice the limit."""
    out: list[ev.LimitChecked] = []
    limit = who.stress_limit
    shaken = who.shaken
    status: Status = who.status
    if not shaken and rolls.over(state, who.stress, limit):
        record, passed = _limit_roll(
            state,
            who,
            "intellect",
            who.stress - limit,
            dice,
            f"{who.name}'s Intellect roll above the stress limit",
        )
        state = spent(state, who.id)
        shaken = not passed
        who = msgspec.structs.replace(who, shaken=shaken)
        out.append(
            _checked(who, "stress", "limit", who.stress, limit, record, passed, status, shaken)
        )
    if status not in ("broken", "dead") and rolls.over(state, who.stress, 2 * limit):
        record, passed = _limit_roll(
            state,
            who,
            "intellect",
            who.stress - 2 * limit,
            dice,
            f"{who.name}'s Intellect save at twice the stress limit",
        )
        status = status if passed else "broken"
        out.append(
            _checked(who, "stress", "twice", who.stress, 2 * limit, record, passed, status, shaken)
        )
    return out


def _limit_roll(
    state: State, who: Character, trait: str, difficulty: int, dice: Dice, purpose: str
) -> tuple[RollRecord, bool]:
    plan = rolls.plan(state, who, trait, difficulty=difficulty)
    record = rolls.roll(dice, who, plan, purpose=purpose)
    return record, bool(rolls.summary_of(record).succeeded)


def _checked(
    who: Character,
    track: str,
    level: str,
    value: int,
    threshold: int,
    record: RollRecord,
    passed: bool,
    status: Status,
    shaken: bool,
) -> ev.LimitChecked:
    return ev.LimitChecked(
        character=who.id,
        track=track,  # type: ignore[arg-type]
        level=level,  # type: ignore[arg-type]
        value=value,
        threshold=threshold,
        difficulty=value - threshold,
        passed=passed,
        status_after=status,
        shaken_after=shaken,
        rolls=(record,),
    )
