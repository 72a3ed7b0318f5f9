"""What a ruleset tells the statistics about one of its events (docs/statistics.md).

Each ruleset maps its events to a few plain facts (``Ruleset.combat_facts``): an attack
that hit or missed, damage, healing, a turn begun.  The tally (service/combat_stats.py)
knows nothing of any ruleset and a ruleset knows nothing of the tally, so the damage meter
reads the same for a d20 skirmish and a hex battle, and a new ruleset gets statistics by
naming its facts.
"""

from __future__ import annotations

from typing import Any

import msgspec


class Attack(msgspec.Struct, frozen=True, kw_only=True, tag="attack"):
    """An attack resolved: ``critical`` for the ruleset's critical result (a natural 20, a
    critical success degree, ...), ``fumble`` for its critical failure."""

    attacker: str | None
    target: str | None
    hit: bool
    critical: bool = False
    fumble: bool = False


class Damage(msgspec.Struct, frozen=True, kw_only=True, tag="damage"):
    """Harm that took effect, in the ruleset's own unit (hit points, wounds, stress,
    strength points); ``source`` None when no combatant dealt it (a ruling, a hazard).

    ``by_attack``: dealt by the attack resolved earlier in the same command, whose
    attacker the tally credits; for events that name the target but not the attacker."""

    target: str
    amount: int
    source: str | None = None
    by_attack: bool = False


class Healing(msgspec.Struct, frozen=True, kw_only=True, tag="healing"):
    target: str
    amount: int
    source: str | None = None


class TurnBegun(msgspec.Struct, frozen=True, kw_only=True, tag="turn"):
    """``combatant`` (a combatant, unit or side id) begins a turn or activation."""

    combatant: str


class TurnEnded(msgspec.Struct, frozen=True, kw_only=True, tag="turn_ended"):
    """``combatant`` ended a turn, for rulesets whose turns have no start of their own
    (characters of a side acting in any order): its time runs from the turn before it
    ended."""

    combatant: str


CombatFact = Attack | Damage | Healing | TurnBegun | TurnEnded


def no_facts(state: Any, event: Any) -> tuple[CombatFact, ...]:
    """The default: a ruleset that names no facts gets roll and dice statistics only."""
    return ()
