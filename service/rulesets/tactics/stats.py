"""TACTICS events as combat facts (service/combat_facts.py).

An attack is a Press meeting one defender: it hits unless the defender's Agility check
dodged it (a braced target never rolls Agility, so it is hit). Damage is in Wounds, as
taken after soak and shields. TACTICS has no critical results.
"""

from __future__ import annotations

from service.combat_facts import Attack, CombatFact, Damage, Healing, TurnBegun
from service.rulesets.tactics.events import (
    AgilityChecked,
    Event,
    SoakRolled,
    TurnStarted,
    Wounded,
    WoundsHealed,
)
from service.rulesets.tactics.state import State


def combat_facts(state: State, event: Event) -> tuple[CombatFact, ...]:
    match event:
        case AgilityChecked():
            hit = event.result != "dodged"
            return (Attack(attacker=event.attacker, target=event.target, hit=hit),)
        case SoakRolled() if event.braced:
            return (Attack(attacker=event.attacker, target=event.target, hit=True),)
        case Wounded():
            # From a Press: the attacker of the Agility check or soak before it; from a
            # GM ruling (no press): nobody's.
            return (
                Damage(
                    target=event.combatant, amount=event.wounds, by_attack=event.press is not None
                ),
            )
        case WoundsHealed():
            return (Healing(target=event.combatant, amount=event.wounds),)
        case TurnStarted():
            return (TurnBegun(combatant=event.combatant),)
        case _:
            return ()
