"""The generic ruleset's events as combat facts (service/combat_facts.py)."""

from __future__ import annotations

from service.combat_facts import Attack, CombatFact, Damage, Healing, TurnBegun
from service.rulesets.generic.events import (
    AttackRolled,
    Damaged,
    Event,
    Healed,
    RoundStarted,
    TurnStarted,
)
from service.rulesets.generic.state import State


def combat_facts(state: State, event: Event) -> tuple[CombatFact, ...]:
    match event:
        case AttackRolled():
            return (
                Attack(attacker=event.attacker, target=event.target, hit=event.outcome == "hit"),
            )
        case Damaged():
            # An attack command's damage follows its roll; the GM's damage command has none.
            return (Damage(target=event.target, amount=event.amount, by_attack=True),)
        case Healed():
            return (Healing(target=event.target, amount=event.amount),)
        case RoundStarted() | TurnStarted():
            return (TurnBegun(combatant=event.combatant),)
        case _:
            return ()
