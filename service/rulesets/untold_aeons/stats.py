"""Untold Aeons events as combat facts (service/combat_facts.py).

An attack hits when its result is a hit; a Fight Back that wins strikes the attacker
instead, which counts as damage the defender dealt. A critical is a hit whose base damage
doubled. Damage is in wound points taken after Toughness (stress is not counted), plus
bleeding (nobody's); healing is the wounds a recovery check took off. Characters of a side
act in any order within their slot, so a turn is counted, and timed, when it ends.
"""

from __future__ import annotations

from service.combat_facts import Attack, CombatFact, Damage, Healing, TurnEnded
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.state import State


def combat_facts(state: State, event: ev.Event) -> tuple[CombatFact, ...]:
    match event:
        case ev.AttackResolved():
            return _attack(event)
        case ev.Bled():
            return (Damage(target=event.character, amount=1),)
        case ev.Recovered() if event.track == "wounds" and event.amount > 0:
            return (Healing(target=event.character, amount=event.amount),)
        case ev.TurnEnded():
            return (TurnEnded(combatant=event.character),)
        case _:
            return ()


def _attack(event: ev.AttackResolved) -> tuple[CombatFact, ...]:
    critical = any(hit.critical for hit in event.hits)
    facts: list[CombatFact] = [
        Attack(
            attacker=event.attacker,
            target=event.target,
            hit=event.result == "hit",
            critical=critical and event.result == "hit",
        )
    ]
    taken = sum(hit.taken for hit in event.hits)
    if event.struck is not None and taken > 0:
        dealer = event.target if event.struck == event.attacker else event.attacker
        facts.append(Damage(target=event.struck, amount=taken, source=dealer))
    return tuple(facts)
