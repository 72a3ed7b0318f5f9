"""What an attack deals: each hit's damage and the ``AttackResolved`` that carries it.

Damage (UAE-37..40, UAE-A9..A11): base (doubled on a critical) + successes before
cancelling, less max(0, Toughness - Piercing), never below 0; the struck character's
damage after the hits goes into the event.
"""

from __future__ import annotations

from service.dice.model import PoolSummary, RollRecord
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.state import Character, Weapon


def hit(
    striker: Character,
    weapon: Weapon,
    summary: PoolSummary,
    victim: Character,
    *,
    critical: bool | None = None,
) -> ev.Hit:
    """UAE-37..40, UAE-A9..A11."""
    crit = summary.net_advantages >= 1 if critical is None else critical
    base = weapon.base + (striker.toughness if weapon.plus else 0)
    if crit:
        base *= 2
    dealt = base + summary.successes
    reduction = max(0, victim.toughness - weapon.piercing)
    return ev.Hit(
        base=base,
        critical=crit,
        successes=summary.successes,
        dealt=dealt,
        reduction=reduction,
        taken=max(0, dealt - reduction),
    )


def resolved(
    attacker: Character,
    target: Character,
    weapon: str,
    response: str,
    result: str,
    hits: tuple[ev.Hit, ...],
    struck: Character | None,
    records: tuple[RollRecord, ...],
    prone: tuple[str, ...],
) -> ev.AttackResolved:
    taken = sum(h.taken for h in hits)
    return ev.AttackResolved(
        attacker=attacker.id,
        target=target.id,
        weapon=weapon,
        response=response,
        result=result,  # type: ignore[arg-type]
        hits=hits,
        struck=struck.id if struck else None,
        damage_after=struck.damage + taken if struck else None,
        prone=prone,
        rolls=records,
    )
