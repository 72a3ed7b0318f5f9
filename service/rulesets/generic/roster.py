"""Who is in the encounter and what conditions they have.

The condition helpers are shared with GM rulings, which pass their reason along so the
log can show "GM ruling: ... because ...".
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.generic.commands import AddCombatant
from service.rulesets.generic.events import CombatantAdded, ConditionAdded, ConditionRemoved, Event
from service.rulesets.generic.rules import (
    check_notation,
    combatant,
    expires_at,
    hp_consequences,
    text,
)
from service.rulesets.generic.state import Combatant, State


def add_combatant(state: State, command: AddCombatant) -> tuple[Event, ...]:
    """``generic.add_combatant``: a unique id without spaces (ids end up in URLs and player
    tokens, so they are refused rather than trimmed), a name, 0 <= hp <= max_hp."""
    combatant_id = command.id
    if not combatant_id or any(ch.isspace() for ch in combatant_id):
        raise RuleViolation(f"'{combatant_id}' is not a valid id: use letters, digits, - or _")
    existing = state.combatants.get(combatant_id)
    if existing is not None:
        raise RuleViolation(f"the id '{combatant_id}' is already used by {existing.name}")
    name = text(command.name, "a combatant's name")
    max_hp = command.hp if command.max_hp is None else command.max_hp
    if command.hp < 0:
        raise RuleViolation(f"{name} cannot start with negative hit points ({command.hp})")
    if max_hp < 1:
        raise RuleViolation(f"{name}'s maximum hit points must be at least 1, not {max_hp}")
    if command.hp > max_hp:
        raise RuleViolation(f"{name} cannot start with {command.hp} hp, above max hp {max_hp}")
    for stat in command.stats:
        check_stat_name(stat)
    sheet_dice = [
        *command.checks.values(),
        *(a.notation for a in command.attacks.values()),
        *(a.damage for a in command.attacks.values() if a.damage is not None),
    ]
    for notation in sheet_dice:
        check_notation(notation)
    side = None if command.side is None else text(command.side, f"{name}'s side")
    added = CombatantAdded(
        combatant=combatant_id,
        name=name,
        hp=command.hp,
        max_hp=max_hp,
        stats=dict(command.stats),
        side=side,
        attacks=dict(command.attacks),
        checks=dict(command.checks),
    )
    newcomer = Combatant(id=combatant_id, name=name, hp=command.hp, max_hp=max_hp)
    return (added, *hp_consequences(state, newcomer, command.hp))


def check_stat_name(stat: str) -> None:
    """Stat names are single words: "stat:<name>" in set_value must stay unambiguous."""
    if not stat or stat != stat.strip() or any(ch.isspace() or ch == ":" for ch in stat):
        raise RuleViolation(f"'{stat}' is not a valid stat name: use one word without ':'")


def condition_added(
    state: State,
    target_id: str,
    condition: str,
    duration_rounds: int | None,
    reason: str | None = None,
) -> tuple[Event, ...]:
    """Add (or restart) a condition; its expiry round is fixed now, see ``expires_at``."""
    target = combatant(state, target_id)
    name = text(condition, "a condition's name")
    added = ConditionAdded(
        combatant=target.id,
        condition=name,
        duration_rounds=duration_rounds,
        expires_at_round=expires_at(state, duration_rounds),
        reason=reason,
    )
    return (added,)


def condition_removed(
    state: State, target_id: str, condition: str, reason: str | None = None
) -> tuple[Event, ...]:
    """Remove a condition the combatant has."""
    target = combatant(state, target_id)
    name = text(condition, "a condition's name")
    if target.condition(name) is None:
        raise RuleViolation(f"{target.name} is not {name}")
    return (ConditionRemoved(combatant=target.id, condition=name, reason=reason),)
