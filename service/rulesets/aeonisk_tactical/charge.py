"""A Charge arriving in Engaged (section 7, AEK-58, AEK-A22): the +2 to the first melee
damage on the foe and the -2 to the charger's defences, then, with
``charge_includes_attack``, the melee attack.  Shared by the Slow Phase step and by a
Breakaway that held the Charge's move back until the free strikes were made."""

from __future__ import annotations

from service.dice.model import Dice, Modifier
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.combat import Strike, strike
from service.rulesets.aeonisk_tactical.evolve import fold
from service.rulesets.aeonisk_tactical.plan import Charge
from service.rulesets.aeonisk_tactical.state import Character, State


def surge_backlash(actor: Character) -> ev.StunChanged:
    """Void Surge backlash: "you immediately suffer 1 Stun", as the surge is declared, so
    an attack that never resolves costs it all the same (AEK-63, AEK-A26)."""
    return ev.StunChanged(character=actor.id, stun=actor.stun + 1, reason="Void Surge backlash")


def arrive(
    state: State,
    dice: Dice,
    actor: Character,
    action: Charge,
    attack_modifiers: tuple[Modifier, ...] = (),
    defence_modifiers: tuple[Modifier, ...] = (),
) -> tuple[ev.Event, ...]:
    """``state`` has the charger Engaged with the foe already."""
    events: list[ev.Event] = [ev.ChargeMade(character=actor.id, foe=action.target)]
    target = state.characters.get(action.target)
    if not state.options.charge_includes_attack or target is None or not target.alive:
        return tuple(events)
    after = fold(state, events)
    charger = after.characters[actor.id]
    s = Strike(
        charger,
        after.characters[target.id],
        action.weapon,
        charger.weapons[action.weapon],
        action.attribute,
        action.skill,
        "charge",
        void_surge=action.void_surge,
        extra_attack=attack_modifiers,
        extra_defence=defence_modifiers,
    )
    events.extend(strike(after, dice, s))
    return tuple(events)
