"""Attacks, defences, damage, Wounds and the Health check (sections 4, 6, 8, cheat-sheet).

An attack is an attack roll against the defender's active defence roll (or static
Defence); the hit rule is the ``hit_rule`` option (AEK-A5).  Modifiers, each labelled:

- attack: range (section 3), the target's Defence Token (-2, -4 burned: section 4),
  Flanking (+2: no token active, an un-allocated attacker against static Defence, or a
  second foe Engaged: one Flanking unless ``flanking_stacks``), Prone target (+2 melee,
  -4 ranged), running while shooting (-2), High-Ground (+2, Near ignored), Hunker Down;
- defence: Flanking (-2, un-allocated attacker), Bonded Defence (+2), its backlash (-2),
  Charge (-2), Hunker Down (-4), full defence;
- damage: Strength + weapon + d20, Charge (+2, first melee damage on that foe), Void Surge
  (+4), Energy Hub (+2); Soak plus Cover (+2) is subtracted.

This module rolls the attack and the defence; ``damage`` the damage, Wounds, Shock and
the Health check that follow a hit.
"""

from __future__ import annotations

from typing import Literal

from msgspec.structs import replace

from service.dice.model import Dice, Modifier, RollRecord
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.damage import damage
from service.rulesets.aeonisk_tactical.fields import RANGE_MODIFIER, Band, title
from service.rulesets.aeonisk_tactical.rolls import pairing, roll
from service.rulesets.aeonisk_tactical.rules import are_foes, band, known_band
from service.rulesets.aeonisk_tactical.state import Character, State, Weapon


class Strike:
    """One attack about to be rolled: who, on whom, with what, and how."""

    def __init__(
        self,
        attacker: Character,
        target: Character,
        weapon_name: str,
        weapon: Weapon,
        attribute: str,
        skill: str,
        kind: ev.AttackKind,
        *,
        running: bool = False,
        void_surge: bool = False,
        extra_attack: tuple[Modifier, ...] = (),
        extra_defence: tuple[Modifier, ...] = (),
        band: Band | None = None,
    ) -> None:
        self.attacker, self.target = attacker, target
        self.weapon_name, self.weapon = weapon_name, weapon
        self.attribute, self.skill, self.kind = attribute, skill, kind
        self.running, self.void_surge = running, void_surge
        self.extra_attack, self.extra_defence = extra_attack, extra_defence
        self.band = band
        """The band of the shot when it is not the pair's (Overwatch at its trigger)."""


def strike(state: State, dice: Dice, s: Strike) -> tuple[ev.Event, ...]:
    """Roll the attack and the defence; on a hit, damage, Wounds, Shock and the Health
    check.  Suppressing fire does no damage (AEK-A23)."""
    a, t = s.attacker, s.target
    if s.band is not None:
        reach: str = s.band
    else:
        reach = "engaged" if s.kind == "free_strike" else known_band(state, a, t)
    flank = _flanking(state, a, t, reach, s.weapon.ranged)
    high_ground = a.id in state.high_ground and s.kind in ("attack", "charge", "suppress")
    attack_mods = [
        *_range(state, reach, high_ground),
        *flank.attack,
        *_token(state, a, t),
        *_situation(state, a, t, s, high_ground),
        *s.extra_attack,
    ]
    attack = roll(
        state,
        dice,
        a,
        purpose=f"{_what(s.kind)} on {t.name} with {s.weapon_name}",
        base=(pairing(a, s.attribute, s.skill),),
        situational=attack_mods,
        kind="attack",
    )
    defended = _defend(state, dice, s, flank.defence)
    defence_total, defence_roll = defended.total, defended.roll
    hit = (
        attack.total >= defence_total
        if state.options.hit_rule == "attack_ge_defence"
        else attack.total > defence_total
    )
    outcome: Literal["hit", "miss"] = "hit" if hit else "miss"
    rolls: tuple[RollRecord, ...] = (replace(attack, target=defence_total, outcome=outcome),)
    if defence_roll is not None:
        rolls = (rolls[0], replace(defence_roll, opposed_by=attack.roll_id))
    rolled = ev.AttackRolled(
        attacker=a.id,
        target=t.id,
        kind=s.kind,
        outcome=outcome,
        defence=defence_total,
        bonded_by=defended.bonded_by,
        backlash_used=defended.backlash,
        high_ground=high_ground,
        parried=defended.parried,
        rolls=rolls,
    )
    if not hit:
        return (rolled,)
    if s.kind == "suppress":
        return (rolled, ev.SuppressionPending(target=t.id, by=a.id))
    return (rolled, *damage(state, dice, s))


class _Flank:
    def __init__(self, attack: list[Modifier], defence: list[Modifier]) -> None:
        self.attack, self.defence = attack, defence


def _flanking(state: State, a: Character, t: Character, reach: str, ranged: bool) -> _Flank:
    """Flanking from the Defence Token (section 4) and from two foes Engaged (section 6)."""
    attack: list[Modifier] = []
    defence: list[Modifier] = []
    if not token_active(state, t):
        attack.append(Modifier(f"Flanking: {t.name} has no Defence Token", 2))
    elif t.token_on is not None and t.token_on != a.id:
        if _static(state, t):
            attack.append(Modifier(f"Flanking: {t.name}'s token is elsewhere", 2))
        else:
            defence.append(Modifier(f"Flanking: Defence Token not on {a.name}", -2))
    token_flank = bool(attack or defence)
    if reach == "engaged" and not ranged and (state.options.flanking_stacks or not token_flank):
        others = [
            c
            for c in state.characters.values()
            if c.alive and c.id not in (a.id, t.id) and c.side == a.side and are_foes(c, t)
        ]
        if any(band(state, c.id, t.id) == "engaged" for c in others):
            attack.append(Modifier("Flanking an enemy in Engaged", 2))
    return _Flank(attack, defence)


def token_active(state: State, t: Character) -> bool:
    """Whether ``t`` has a Defence Token active this round (AEK-32, AEK-A11, AEK-A12)."""
    if not t.pc and not state.options.defence_tokens_for_npcs:
        return False
    burned_before = t.burned_round is not None and t.burned_round != state.round
    if burned_before:
        return not state.options.burned_token_counts_as_missing
    return t.token_on is not None


def _static(state: State, t: Character) -> bool:
    declared = state.declarations.get(t.id)
    return declared is not None and declared.defence == "static"


def _token(state: State, a: Character, t: Character) -> list[Modifier]:
    if t.token_on != a.id or not token_active(state, t):
        return []
    burned = t.burned_round == state.round
    return [
        Modifier(
            f"{t.name}'s Defence Token" + (" (Heroic Burn)" if burned else ""), -4 if burned else -2
        )
    ]


def _range(state: State, reach: str, high_ground: bool) -> list[Modifier]:
    penalty = RANGE_MODIFIER[reach]  # type: ignore[index]
    if not penalty:
        return []
    label = f"{title(reach)} range"
    if not high_ground:
        return [Modifier(label, penalty)]
    if state.options.high_ground_mode == "near_only":
        if reach == "near":
            return [Modifier(f"{label} ignored (High-Ground)", 0)]
        return [Modifier(label, penalty)]
    return [Modifier(label, penalty), Modifier("High-Ground ignores 2 of the range", 2)]


def _situation(
    state: State, a: Character, t: Character, s: Strike, high_ground: bool
) -> list[Modifier]:
    mods: list[Modifier] = []
    if high_ground:
        mods.append(Modifier("High-Ground", 2))
    if t.prone:
        mods.append(
            Modifier("Prone target (ranged)", -4)
            if s.weapon.ranged
            else Modifier("Prone target (melee)", 2)
        )
    if s.running and s.weapon.ranged:
        mods.append(Modifier("Running while shooting", -2))
    if a.hunkered_round is not None:
        mods.append(Modifier("Hunker Down", -4))
    return mods


class _Defence:
    """A defence: its total, its roll (None for static Defence), who gave Bonded Defence,
    whether the backlash went into it and whether it was a Parry."""

    def __init__(
        self,
        total: int,
        roll: RollRecord | None,
        bonded_by: str | None = None,
        backlash: bool = False,
        parried: bool = False,
    ) -> None:
        self.total, self.roll, self.bonded_by = total, roll, bonded_by
        self.backlash, self.parried = backlash, parried


def _defend(state: State, dice: Dice, s: Strike, flank: list[Modifier]) -> _Defence:
    """The defence roll; a Parry committed against this attacker's declared attack
    replaces the usual pairing (and static Defence) with its own (AEK-14, AEK-21)."""
    t = s.target
    answered = s.kind in ("attack", "charge", "suppress")
    parry = next(
        (p for p in state.parries if (p.by, p.attacker) == (t.id, s.attacker.id) and answered),
        None,
    )
    if parry is None and _static(state, t) and t.static_defence is not None:
        return _Defence(t.static_defence, None)
    bonding = next(
        (b for b in state.bondings if b.ally == t.id and b.attacker == s.attacker.id), None
    )
    mods = list(flank)
    if bonding is not None:
        mods.append(Modifier(f"Bonded Defence ({state.characters[bonding.by].name})", 2))
    if t.backlash:
        mods.append(Modifier("Bonded Defence backlash", -t.backlash))
    if t.charged_round is not None:
        mods.append(Modifier("Charged: defences -2", -2))
    if t.hunkered_round is not None:
        mods.append(Modifier("Hunker Down", -4))
    declared = state.declarations.get(t.id)
    bonus = state.options.full_defence_bonus
    if declared is not None and declared.defence == "full" and bonus is not None:
        mods.append(Modifier("full defence", bonus))
    mods.extend(s.extra_defence)
    pair = t.defence
    base = [pairing(t, pair.attribute, pair.skill)] if pair is not None else []
    if parry is not None:
        base = [pairing(t, parry.attribute, parry.skill)]
        if parry.bonus:
            base.append(Modifier("parry bonus", parry.bonus))
    record = roll(
        state,
        dice,
        t,
        purpose=f"{'parry' if parry else 'defence'} against {s.attacker.name}",
        base=base,
        situational=mods,
        kind="defence",
    )
    by = bonding.by if bonding else None
    return _Defence(record.total, record, by, bool(t.backlash), parry is not None)


def _what(kind: ev.AttackKind) -> str:
    return {
        "attack": "attack",
        "charge": "charging attack",
        "suppress": "suppressing fire",
        "overwatch": "overwatch fire",
        "free_strike": "Breakaway free strike",
    }[kind]
