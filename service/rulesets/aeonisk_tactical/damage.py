"""Damage, Wounds, Shock and the Health check (section 8, cheat-sheet): Strength + weapon
+ d20 against Soak (plus Cover), 1 Wound at or over it and one more per full +5, the
Shock a Void Surge deals, and the Health check at 5 Wounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from service.dice.model import Dice, Modifier
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.fields import FATAL_WOUNDS
from service.rulesets.aeonisk_tactical.rolls import roll
from service.rulesets.aeonisk_tactical.state import Character, State

if TYPE_CHECKING:
    from service.rulesets.aeonisk_tactical.combat import Strike


def damage(state: State, dice: Dice, s: Strike) -> tuple[ev.Event, ...]:
    """Strength + Weapon Bonus + d20 minus Soak: 1 Wound at or over Soak, +1 per full +5
    over it (AEK-65..67, AEK-A28), then the Health check at 5 Wounds (AEK-68)."""
    a, t = s.attacker, s.target
    used: list[str] = []
    mods: list[Modifier] = []
    if a.charge_foe == t.id and not s.weapon.ranged:
        mods.append(Modifier("Charge", 2))
        used.append("charge")
    if s.void_surge:
        mods.append(Modifier("Void Surge", 4))
    if a.energy_bonus:
        mods.append(Modifier("Energy Hub", a.energy_bonus))
        used.append("energy_hub")
    base = (
        Modifier(f"Strength {a.attribute('strength')}", a.attribute("strength")),
        Modifier(s.weapon_name, s.weapon.bonus),
    )
    record = roll(
        state, dice, a, purpose=f"damage to {t.name}", base=base, situational=mods, kind="damage"
    )
    soak = t.soak + t.cover_mod
    if t.cover_mod:
        used.append("cover")
    margin = record.total - soak
    wounds = 1 + margin // 5 if margin >= 0 else 0
    after = t.wounds + wounds
    events: list[ev.Event] = [
        ev.DamageRolled(
            attacker=a.id,
            target=t.id,
            damage=record.total,
            soak=soak,
            wounds=wounds,
            wounds_after=after,
            used=tuple(used),
            rolls=(replace(record, target=soak),),
        )
    ]
    if s.void_surge:
        events.append(shock(state, t, f"{a.name}'s Void Surge"))
    if after >= FATAL_WOUNDS and wounds and state.options.fatal_check_timing == "on_hit":
        events.append(fatal_check(state, dice, t, after))
    return tuple(events)


def shock(state: State, t: Character, reason: str) -> ev.ShockSuffered:
    """A Shock lowers Initiative by ``shock_init_penalty`` (never below 0); unset, the
    GM sets the new Initiative (AEK-11, AEK-A7)."""
    penalty = state.options.shock_init_penalty
    initiative = None
    if penalty is not None and t.initiative is not None:
        initiative = max(0, t.initiative - penalty)
    return ev.ShockSuffered(character=t.id, initiative=initiative, reason=reason)


def fatal_check(state: State, dice: Dice, t: Character, wounds: int) -> ev.FatalCheck:
    """Health x 2 + d20 against 20 + 5 per Wound over 5 (AEK-68, AEK-A29)."""
    dc = 20 + 5 * (wounds - FATAL_WOUNDS)
    health = t.attribute("health")
    record = roll(
        state,
        dice,
        t,
        purpose=f"Health check at {wounds} Wounds",
        base=(Modifier(f"Health {health} x 2", health * 2),),
        kind="plain",
        target=dc,
    )
    ok = record.total >= dc
    dead = not ok and state.options.fatal_failure_status == "dead"
    return ev.FatalCheck(
        character=t.id,
        outcome="success" if ok else "failure",
        dead=dead,
        rolls=(replace(record, outcome="survives" if ok else "fails"),),
    )
