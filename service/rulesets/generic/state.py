"""The folded state of a generic encounter.

The contract wants one Struct type as ``state_type`` (snapshots decode with
``msgspec.json.decode(data, type=State)``), so ``State`` is a single Struct.  What only
exists in some phases lives in the phase itself: ``phase`` is a tagged union of frozen
Structs, ``Setup | Fighting | Ended``.  A round number or a turn therefore cannot exist
before combat starts, and ``match state.phase`` in ``decide`` is checked for
exhaustiveness by the type checker instead of trusting a pair of booleans.

Everything is frozen and ``evolve`` builds new values; the ``dict`` fields are never
mutated once a state is built (``evolve`` copies them), so a state may be shared freely.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.rulesets.generic.options import GenericOptions

RECENT_OUTCOMES = 50
"""How many attack and check outcomes the state remembers for ``override_outcome``: enough
for a few rounds of a busy table, small enough to keep snapshots small."""

OutcomeKind = Literal["attack", "check"]
OUTCOMES: dict[OutcomeKind, tuple[str, str]] = {
    "attack": ("hit", "miss"),
    "check": ("success", "failure"),
}
"""The outcomes each kind of roll can have, the favourable one first."""


class Condition(msgspec.Struct, frozen=True, kw_only=True):
    """A named condition on a combatant ("prone", "blessed", "down")."""

    name: str
    expires_at_round: int | None = None
    """The condition ends when this round begins; None lasts until removed."""


class SheetAttack(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An attack on a combatant's sheet: what a player rolls when they use it."""

    notation: str
    damage: str | None = None


class Combatant(msgspec.Struct, frozen=True, kw_only=True):
    """Anyone in the encounter, in or out of the initiative order."""

    id: str
    name: str
    hp: int
    max_hp: int
    stats: dict[str, int] = {}
    side: str | None = None
    conditions: tuple[Condition, ...] = ()
    attacks: dict[str, SheetAttack] = {}
    """The sheet's attacks by name: a player's attack uses one of them."""
    checks: dict[str, str] = {}
    """The sheet's checks by name, with the dice each rolls."""

    def condition(self, name: str) -> Condition | None:
        """The condition called ``name``, if the combatant has it."""
        return next((c for c in self.conditions if c.name == name), None)


class InitiativeEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One place in the initiative order."""

    combatant: str
    total: int
    modifier: int = 0
    """The initiative stat added to the roll; the first tie-breaker."""


class RecentOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """What a recent attack or check roll decided, so a GM can overrule it by roll id."""

    roll_id: str
    kind: OutcomeKind
    outcome: str
    description: str
    """The roll in words for the log: "Alice's attack on Goblin"."""


class Setup(msgspec.Struct, frozen=True, tag="setup"):
    """Combatants gather; no round has started yet."""


class Fighting(msgspec.Struct, frozen=True, kw_only=True, tag="fighting"):
    """Combat is running: a round number and the combatant whose turn it is.

    The turn is a combatant id, not an index into the order, so late joiners inserted
    into the order or removals before the current combatant never move the turn.
    """

    round: int
    turn: str


class Ended(msgspec.Struct, frozen=True, kw_only=True, tag="ended"):
    """The encounter is over; only GM rulings can still change it."""

    round: int | None
    """The last round fought, or None when it ended before combat started."""


Phase = Setup | Fighting | Ended


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``decide`` needs, and nothing it does not."""

    options: GenericOptions
    combatants: dict[str, Combatant] = {}
    """By id, in the order they were added (dicts and msgspec both keep it)."""
    order: tuple[InitiativeEntry, ...] = ()
    """Initiative order, first to act first; combatants without initiative are absent."""
    phase: Phase = Setup()
    outcomes: tuple[RecentOutcome, ...] = ()
    """The last ``RECENT_OUTCOMES`` attack and check outcomes, oldest first."""

    def round(self) -> int | None:
        """The current round, the last round once ended, None before combat."""
        # Fighting and Ended have a round, Setup has none.  Not a match over the phases:
        # each class pattern is an isinstance on a Struct class, and the read models ask
        # this for every event.
        number: int | None = getattr(self.phase, "round", None)
        return number

    def in_order(self, combatant_id: str) -> bool:
        """Whether the combatant has a place in the initiative order."""
        return any(entry.combatant == combatant_id for entry in self.order)

    def order_with(self, combatant_id: str, total: int) -> tuple[InitiativeEntry, ...]:
        """The order with the combatant placed at ``total`` (a GM's ruling): after those
        already at the same total and modifier, as a late joiner goes; its modifier is
        the one it rolled with, else its initiative stat."""
        entry = next((e for e in self.order if e.combatant == combatant_id), None)
        if entry is None:
            stat = self.options.initiative_stat
            stats = self.combatants[combatant_id].stats
            modifier = stats.get(stat, 0) if stat is not None else 0
            entry = InitiativeEntry(combatant=combatant_id, total=total, modifier=modifier)
        others = (e for e in self.order if e.combatant != combatant_id)
        moved = msgspec.structs.replace(entry, total=total)
        return tuple(sorted((*others, moved), key=initiative_rank))


def initiative_rank(entry: InitiativeEntry) -> tuple[int, int]:
    """Sort key of the order: higher total first, then the higher modifier."""
    return (-entry.total, -entry.modifier)


def initial_state(options: GenericOptions) -> State:
    """An encounter with nobody in it yet."""
    return State(options=options)


def round_of(state: State) -> int | None:
    """The round a state is in, for round replay (``Ruleset.round_of``)."""
    return state.round()


def is_down(combatant: Combatant) -> bool:
    """At 0 hp or below: out of the fight until healed."""
    return combatant.hp <= 0
