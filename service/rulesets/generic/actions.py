"""Attacks, checks, damage and healing: the commands that roll dice and change hp.

Rules chosen where generic tables differ (also in the command docs):

- A total that meets or beats the target number hits / succeeds.
- Opposed checks: the checking combatant needs a strictly higher total; ties go to the
  opposition, so a tie keeps things as they were.
- A combatant at 0 hp or below cannot attack; checks stay allowed (death saves, resisting
  a grapple while down).  With ``strict_turns``, only the combatant whose turn it is may
  attack once combat started; checks are never limited to one's turn (saves happen on
  anyone's turn).
- Rolled damage or healing below 0 (``1d4-2`` showing 1) counts as 0.
"""

from __future__ import annotations

from msgspec.structs import replace

from service.dice.model import Dice, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.generic.commands import Attack, Check, Damage, Heal
from service.rulesets.generic.events import AttackRolled, CheckRolled, Damaged, Event, Healed
from service.rulesets.generic.rules import (
    check_notation,
    combatant,
    ensure_can_act,
    hp_consequences,
    hp_floor,
    one_amount,
    text,
)
from service.rulesets.generic.state import OUTCOMES, Combatant, Fighting, State


def attack(state: State, command: Attack, dice: Dice) -> tuple[Event, ...]:
    """``generic.attack``: roll to hit, then damage on a hit."""
    attacker = combatant(state, command.attacker)
    target = combatant(state, command.target)
    ensure_can_act(attacker, "attack")
    phase = state.phase
    if state.options.strict_turns and isinstance(phase, Fighting) and phase.turn != attacker.id:
        whose = state.combatants[phase.turn].name
        raise RuleViolation(f"it is {whose}'s turn, not {attacker.name}'s")
    number = _defense(state, command.target_number, target)
    notation, damage_notation = _attack_dice(attacker, command)
    if damage_notation is not None:
        check_notation(damage_notation)
    purpose = f"attack on {target.name}"
    record = dice.roll(
        notation,
        purpose=purpose,
        roller=attacker.id,
        modifiers=command.modifiers,
        target=number,
    )
    hit, miss = OUTCOMES["attack"]
    outcome = hit if record.total >= number else miss
    rolled = AttackRolled(
        attacker=attacker.id,
        target=target.id,
        outcome=outcome,
        rolls=(replace(record, outcome=outcome),),
    )
    if outcome == miss or damage_notation is None:
        return (rolled,)
    damage = dice.roll(damage_notation, purpose=f"damage to {target.name}", roller=attacker.id)
    source = f"{attacker.name}'s attack"
    return (rolled, *_damage(state, target, max(0, damage.total), source, (damage,)))


def check(state: State, command: Check, dice: Dice) -> tuple[Event, ...]:
    """``generic.check``: against a number, opposed, or a plain roll."""
    roller = combatant(state, command.combatant)
    notation = _check_dice(roller, command)
    label = text(command.label or command.using or "", "the check's label")
    number, opposed = command.target_number, command.opposed
    if number is not None and opposed is not None:
        raise RuleViolation("a check has a target number or an opposing roll, not both")
    opponent = combatant(state, opposed.combatant) if opposed is not None else None
    if opposed is not None:
        check_notation(opposed.notation)
    record = dice.roll(
        notation,
        purpose=f"{label} check",
        roller=roller.id,
        modifiers=command.modifiers,
        target=number,
    )
    if opposed is not None and opponent is not None:
        against = dice.roll(
            opposed.notation,
            purpose=f"{label} check opposing {roller.name}",
            roller=opponent.id,
            modifiers=opposed.modifiers,
        )
        return (_opposed(roller, label, record, opponent, against),)
    if number is None:
        return (CheckRolled(combatant=roller.id, label=label, rolls=(record,)),)
    success, failure = OUTCOMES["check"]
    outcome = success if record.total >= number else failure
    rolls = (replace(record, outcome=outcome),)
    return (CheckRolled(combatant=roller.id, label=label, outcome=outcome, rolls=rolls),)


def _attack_dice(attacker: Combatant, command: Attack) -> tuple[str, str | None]:
    """The attack roll and damage: a sheet attack's, or the GM's own numbers."""
    if command.using is None:
        if command.notation is None:
            raise RuleViolation("an attack names a sheet attack (using) or its dice (notation)")
        return command.notation, command.damage
    if command.notation is not None:
        raise RuleViolation("an attack uses a sheet attack or gives its dice, not both")
    sheet = attacker.attacks.get(command.using)
    if sheet is None:
        listed = ", ".join(sorted(attacker.attacks)) or "none"
        raise RuleViolation(
            f"{attacker.name}'s sheet has no attack {command.using!r} (attacks: {listed})"
        )
    return sheet.notation, command.damage if command.damage is not None else sheet.damage


def _check_dice(roller: Combatant, command: Check) -> str:
    """The check's dice: a sheet check's, or the GM's own notation."""
    if command.using is None:
        if command.notation is None:
            raise RuleViolation("a check names a sheet check (using) or its dice (notation)")
        return command.notation
    if command.notation is not None:
        raise RuleViolation("a check uses a sheet check or gives its dice, not both")
    notation = roller.checks.get(command.using)
    if notation is None:
        listed = ", ".join(sorted(roller.checks)) or "none"
        raise RuleViolation(f"{roller.name}'s sheet has no check {command.using!r} ({listed})")
    return notation


def _opposed(
    roller: Combatant, label: str, record: RollRecord, opponent: Combatant, against: RollRecord
) -> CheckRolled:
    """Only a strictly higher total succeeds: ties go to the opposition."""
    success, failure = OUTCOMES["check"]
    outcome, other = (success, failure) if record.total > against.total else (failure, success)
    rolls = (
        replace(record, opposed_by=against.roll_id, outcome=outcome),
        replace(against, opposed_by=record.roll_id, outcome=other),
    )
    return CheckRolled(
        combatant=roller.id, label=label, opponent=opponent.id, outcome=outcome, rolls=rolls
    )


def damage(state: State, command: Damage, dice: Dice) -> tuple[Event, ...]:
    """``generic.damage``: a fixed or rolled amount."""
    target = combatant(state, command.target)
    source = None if command.source is None else text(command.source, "the damage source")
    one_amount(command.amount, command.notation, "damage")
    purpose = _purpose(f"damage to {target.name}", source)
    amount, rolls = _amount(command.amount, command.notation, purpose, dice)
    return _damage(state, target, amount, source, rolls)


def heal(state: State, command: Heal, dice: Dice) -> tuple[Event, ...]:
    """``generic.heal``: never above max hp; a combatant at or above it cannot be healed."""
    target = combatant(state, command.target)
    source = None if command.source is None else text(command.source, "the healing source")
    one_amount(command.amount, command.notation, "healing")
    if target.hp >= target.max_hp:
        raise RuleViolation(
            f"{target.name} is already at full hit points ({target.hp}/{target.max_hp})"
        )
    purpose = _purpose(f"healing for {target.name}", source)
    amount, rolls = _amount(command.amount, command.notation, purpose, dice)
    hp_after = min(target.max_hp, target.hp + amount)
    healed = Healed(target=target.id, amount=amount, hp_after=hp_after, source=source, rolls=rolls)
    return (healed, *hp_consequences(state, target, hp_after))


def _purpose(what: str, source: str | None) -> str:
    return what if source is None else f"{what} from {source}"


def _defense(state: State, given: int | None, target: Combatant) -> int:
    """The attack's target number: given, or the target's defense stat."""
    if given is not None:
        return given
    stat = state.options.defense_stat
    if stat is not None and stat in target.stats:
        return target.stats[stat]
    missing = (
        f"{target.name} has no '{stat}' stat" if stat else "this encounter has no defense stat"
    )
    raise RuleViolation(f"the attack needs a target number: {missing}, so give target_number")


def _amount(
    amount: int | None, notation: str | None, purpose: str, dice: Dice
) -> tuple[int, tuple[RollRecord, ...]]:
    """A fixed amount, or a rolled one (at least 0) with its roll."""
    if amount is not None:
        return amount, ()
    assert notation is not None, "one_amount checked that one of them is given"
    record = dice.roll(notation, purpose=purpose)
    return max(0, record.total), (record,)


def _damage(
    state: State,
    target: Combatant,
    amount: int,
    source: str | None,
    rolls: tuple[RollRecord, ...],
) -> tuple[Event, ...]:
    hp_after = hp_floor(state, target.hp - amount)
    damaged = Damaged(
        target=target.id, amount=amount, hp_after=hp_after, source=source, rolls=rolls
    )
    return (damaged, *hp_consequences(state, target, hp_after))
