"""Plain-data building blocks for the generic ruleset's tests.

Three combatants (Alice, Bob, a Goblin) and helpers that put them in combat, so a test
states only the events that matter to it.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from service.dice.model import RollRecord
from service.rulesets.generic import RULESET, Event
from service.rulesets.generic.events import CombatantAdded, InitiativeRolled, RoundStarted
from service.rulesets.generic.state import InitiativeEntry

__all__ = [
    "RULESET",
    "alice",
    "bob",
    "everyone_in_combat",
    "goblin",
    "in_combat",
    "rolls_of",
    "without_rolls",
]


def alice(**changes: Any) -> CombatantAdded:
    added = CombatantAdded(
        combatant="alice", name="Alice", hp=12, max_hp=12, stats={"ac": 14, "dex": 3}, side="pc"
    )
    return replace(added, **changes)


def bob(**changes: Any) -> CombatantAdded:
    added = CombatantAdded(
        combatant="bob", name="Bob", hp=10, max_hp=10, stats={"ac": 12, "dex": 1}, side="pc"
    )
    return replace(added, **changes)


def goblin(**changes: Any) -> CombatantAdded:
    added = CombatantAdded(
        combatant="goblin", name="Goblin", hp=7, max_hp=7, stats={"ac": 15, "dex": 2}, side="foe"
    )
    return replace(added, **changes)


def in_combat(*order: str, round: int = 1, turn: str | None = None) -> tuple[Event, ...]:
    """Initiative already rolled in ``order`` (totals 20, 19, ...) and round ``round``
    running with ``turn``'s turn (default: the first)."""
    entries = tuple(
        InitiativeEntry(combatant=c, total=20 - i, modifier=0) for i, c in enumerate(order)
    )
    rolled = InitiativeRolled(results=entries, order=entries, rolls=())
    return (rolled, RoundStarted(round=round, combatant=turn or order[0]))


def everyone_in_combat(turn: str | None = None, round: int = 1) -> tuple[Event, ...]:
    """Alice, Bob and the Goblin, in that initiative order."""
    return (alice(), bob(), goblin(), *in_combat("alice", "bob", "goblin", round=round, turn=turn))


def rolls_of(events: list[Event]) -> list[tuple[Any, ...]]:
    """Each roll of the events in short: (id, roller, purpose, faces, total, target, outcome)."""
    found: list[RollRecord] = [r for e in events for r in getattr(e, "rolls", ())]
    return [
        (r.roll_id, r.roller, r.purpose, [d.face for d in r.dice], r.total, r.target, r.outcome)
        for r in found
    ]


def without_rolls(events: list[Event]) -> list[Event]:
    """The events with ``rolls`` emptied, to compare the rest exactly."""
    return [replace(e, rolls=()) if hasattr(e, "rolls") else e for e in events]
