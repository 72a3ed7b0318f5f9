"""Scentfinder events as combat facts (service/combat_facts.py).

An attack is a Strike resolved against a target: a Triumph or a Success hits, a Triumph is
the critical and a Bungle the fumble. Damage is in HP: what a resolved action dealt (its
actor's), what a Save against a danger or a hazard cost and persistent damage at the end
of a turn (nobody's).
"""

from __future__ import annotations

from service.combat_facts import Attack, CombatFact, Damage, TurnBegun
from service.rulesets.scentfinder.events import (
    ActionResolved,
    Event,
    SaveMade,
    TurnEnded,
    TurnStarted,
)
from service.rulesets.scentfinder.state import State


def combat_facts(state: State, event: Event) -> tuple[CombatFact, ...]:
    match event:
        case ActionResolved():
            return _resolved(event)
        case SaveMade() if event.damage > 0:
            return (Damage(target=event.combatant, amount=event.damage),)
        case TurnEnded() if event.persistent_damage > 0:
            return (Damage(target=event.combatant, amount=event.persistent_damage),)
        case TurnStarted():
            return (TurnBegun(combatant=event.combatant),)
        case _:
            return ()


def _resolved(event: ActionResolved) -> tuple[CombatFact, ...]:
    facts: list[CombatFact] = []
    if event.action == "strike" and event.degree is not None:
        facts.append(
            Attack(
                attacker=event.actor,
                target=event.target,
                hit=event.degree in ("triumph", "success"),
                critical=event.degree == "triumph",
                fumble=event.degree == "bungle",
            )
        )
    if event.damage and event.damage > 0 and event.target is not None:
        facts.append(Damage(target=event.target, amount=event.damage, source=event.actor))
    return tuple(facts)
