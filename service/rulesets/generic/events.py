"""The events of the generic ruleset: the facts the event store keeps forever.

Tags (``generic.combatant_added`` ...) are the stored type names and never change; a
field added later gets a default, a breaking change a new version and an upcaster.
Events are past tense and carry every number ``decide`` worked out (hp after damage,
expiry rounds, the new initiative order), so ``evolve`` never recomputes a rule and
never rolls.  Events that involve dice carry them in ``rolls``, where the roll ledger
looks for them.
"""

from __future__ import annotations

import msgspec

from service.dice.model import RollRecord
from service.rulesets.generic.state import InitiativeEntry, OutcomeKind, SheetAttack


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every generic event: frozen, keyword-only, tagged on ``type``."""


class CombatantAdded(_Event, frozen=True, kw_only=True, tag="generic.combatant_added"):
    """A combatant joined, with the hp and stats they start with."""

    combatant: str
    name: str
    hp: int
    max_hp: int
    stats: dict[str, int] = {}
    side: str | None = None
    attacks: dict[str, SheetAttack] = {}
    checks: dict[str, str] = {}


class CombatantRemoved(_Event, frozen=True, kw_only=True, tag="generic.combatant_removed"):
    """A combatant left the encounter and the initiative order."""

    combatant: str


class InitiativeRolled(_Event, frozen=True, kw_only=True, tag="generic.initiative_rolled"):
    """Initiative rolls (and roll-offs) for some combatants, and the whole order after."""

    results: tuple[InitiativeEntry, ...]
    """The combatants who rolled, in the order their ties were broken."""
    order: tuple[InitiativeEntry, ...]
    """The complete initiative order once they are placed."""
    note: str | None = None
    """Said in the log, e.g. when roll-offs gave up and the order of addition decided."""
    rolls: tuple[RollRecord, ...]


class RoundStarted(_Event, frozen=True, kw_only=True, tag="generic.round_started"):
    """A round begins (round 1 starts combat) with ``combatant``'s turn."""

    round: int
    combatant: str


class TurnStarted(_Event, frozen=True, kw_only=True, tag="generic.turn_started"):
    """The turn passes to ``combatant`` within the current round."""

    combatant: str


class ConditionAdded(_Event, frozen=True, kw_only=True, tag="generic.condition_added"):
    """A condition starts (or restarts, replacing the same condition's duration)."""

    combatant: str
    condition: str
    duration_rounds: int | None = None
    expires_at_round: int | None = None
    reason: str | None = None
    """Set for GM rulings: why the table decided so."""


class ConditionRemoved(_Event, frozen=True, kw_only=True, tag="generic.condition_removed"):
    """A condition was removed before it expired (by a command or a ruling)."""

    combatant: str
    condition: str
    reason: str | None = None
    """Set for GM rulings."""


class ConditionExpired(_Event, frozen=True, kw_only=True, tag="generic.condition_expired"):
    """A condition's duration ran out as ``round`` began."""

    combatant: str
    condition: str
    round: int


class AttackRolled(_Event, frozen=True, kw_only=True, tag="generic.attack_rolled"):
    """An attack roll against a target number and whether it hit."""

    attacker: str
    target: str
    outcome: str
    """"hit" or "miss"."""
    rolls: tuple[RollRecord, ...]


class CheckRolled(_Event, frozen=True, kw_only=True, tag="generic.check_rolled"):
    """A check against a target number, an opposed check, or a plain roll (no outcome)."""

    combatant: str
    label: str
    opponent: str | None = None
    outcome: str | None = None
    """"success", "failure", or None for a plain roll, from ``combatant``'s side."""
    rolls: tuple[RollRecord, ...]


class Damaged(_Event, frozen=True, kw_only=True, tag="generic.damaged"):
    """A combatant lost hp; ``hp_after`` is already floored by the encounter's rules."""

    target: str
    amount: int
    hp_after: int
    source: str | None = None
    """What dealt it ("fire", "Alice's attack"), for the log."""
    rolls: tuple[RollRecord, ...] = ()


class Healed(_Event, frozen=True, kw_only=True, tag="generic.healed"):
    """A combatant regained hp; ``hp_after`` is already capped at max hp."""

    target: str
    amount: int
    hp_after: int
    source: str | None = None
    rolls: tuple[RollRecord, ...] = ()


class ValueSet(_Event, frozen=True, kw_only=True, tag="generic.value_set"):
    """GM ruling: ``field`` ("hp", "max_hp", "initiative" or "stat:<name>") set to
    ``value``."""

    combatant: str
    field: str
    value: int
    previous: int | None
    """The value before, None for a stat the combatant did not have."""
    reason: str


class OutcomeOverridden(_Event, frozen=True, kw_only=True, tag="generic.outcome_overridden"):
    """GM ruling: the outcome of a recent roll is changed; its consequences are not."""

    roll_id: str
    kind: OutcomeKind
    previous: str
    outcome: str
    reason: str


class EncounterEnded(_Event, frozen=True, kw_only=True, tag="generic.encounter_ended"):
    """The encounter is over; only GM rulings follow."""


Event = (
    CombatantAdded
    | CombatantRemoved
    | InitiativeRolled
    | RoundStarted
    | TurnStarted
    | ConditionAdded
    | ConditionRemoved
    | ConditionExpired
    | AttackRolled
    | CheckRolled
    | Damaged
    | Healed
    | ValueSet
    | OutcomeOverridden
    | EncounterEnded
)

EVENT_TYPES: tuple[type[Event], ...] = (
    CombatantAdded,
    CombatantRemoved,
    InitiativeRolled,
    RoundStarted,
    TurnStarted,
    ConditionAdded,
    ConditionRemoved,
    ConditionExpired,
    AttackRolled,
    CheckRolled,
    Damaged,
    Healed,
    ValueSet,
    OutcomeOverridden,
    EncounterEnded,
)
