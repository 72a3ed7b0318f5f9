"""Aeonis Combat events as combat facts (service/combat_facts.py).

An attack is one unit's strike (pre-strike, strike or counterstrike) at an enemy Battle
Line unit: it hits when it does damage. Damage is in unit hit points. A turn is an action
a side takes (a move, an attack, a renewed attack, a press): Aeonis has no turns, sides
spend action points in any order, so each action is timed until the next. The text has no
critical results.
"""

from __future__ import annotations

from service.combat_facts import Attack, CombatFact, Damage, TurnBegun
from service.rulesets.aeonis_combat import events as ev
from service.rulesets.aeonis_combat.state import State


def combat_facts(state: State, event: ev.Event) -> tuple[CombatFact, ...]:
    match event:
        case ev.BattleRoundFought():
            facts: list[CombatFact] = []
            for strike in event.strikes:
                facts.append(
                    Attack(attacker=strike.striker, target=strike.target, hit=strike.damage > 0)
                )
                if strike.damage > 0:
                    facts.append(
                        Damage(target=strike.target, amount=strike.damage, source=strike.striker)
                    )
            return tuple(facts)
        case ev.UnitsMoved() | ev.AttackDeclared() | ev.AttackRenewed() | ev.Pressed():
            return (TurnBegun(combatant=event.side),)
        case _:
            return ()
