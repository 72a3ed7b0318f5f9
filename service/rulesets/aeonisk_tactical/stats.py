"""Aeonisk Tactical events as combat facts (service/combat_facts.py).

An attack is an attack roll against a defence; damage is in Wounds after Soak, dealt by the
attacker. A turn is a declared action beginning to resolve in the Slow Phase. The text
names no critical hits (a natural 1 only sets Initiative to 0), so none are counted.
"""

from __future__ import annotations

from service.combat_facts import Attack, CombatFact, Damage, TurnBegun
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.state import State


def combat_facts(state: State, event: ev.Event) -> tuple[CombatFact, ...]:
    match event:
        case ev.AttackRolled():
            return (
                Attack(attacker=event.attacker, target=event.target, hit=event.outcome == "hit"),
            )
        case ev.DamageRolled() if event.wounds > 0:
            return (Damage(target=event.target, amount=event.wounds, source=event.attacker),)
        case ev.ActionBegan():
            return (TurnBegun(combatant=event.character),)
        case _:
            return ()
