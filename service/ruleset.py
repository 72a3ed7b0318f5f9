"""The decider contract every rule system implements (design section 3).

A ruleset is a handful of pure functions over msgspec Structs.  It never does I/O, never
reads the clock and never rolls dice except through the ``Dice`` it is handed, so it can
be tested with plain data and folding its events is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec

from service.combat_facts import CombatFact, no_facts
from service.dice.model import Dice, RollRecord
from service.dice.roller import RollingDice
from service.secrecy import Audience

if TYPE_CHECKING:
    from service.carry_over import CarryRules

StateT = TypeVar("StateT", bound=msgspec.Struct)
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)
OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns the stored ``data`` of an event at version v into its shape at version v + 1."""


def gm_only(state: Any, command: Any) -> frozenset[str] | None:
    """The default access rule: no player may issue any command of the ruleset."""
    return None


def on_any_sheet(state: Any, command: Any) -> str | None:
    """The default sheet rule: a ruleset whose player commands carry no numbers of
    their own (they name sheet entries) has nothing to refuse."""
    return None


def own_health(state: Any, combatant: str) -> tuple[str, ...]:
    """The default owner of a combatant's health: the combatant itself."""
    return (combatant,)


def rolls_of(event: object) -> tuple[RollRecord, ...]:
    """The roll records an event carries.  Part of the contract: an event with dice holds
    them in a field named ``rolls`` of type ``tuple[RollRecord, ...]``, where the roll
    ledger, fairness verification and redaction find them (the conformance suite checks
    every event type of every ruleset for it)."""
    rolls: tuple[RollRecord, ...] = getattr(event, "rolls", ())
    return rolls


def changes_something(command: Any) -> bool:
    """The default secrecy rule: a secret command may change anything later commands
    read, so it holds them until revealed."""
    return False


def tag_of(struct_type: type[msgspec.Struct]) -> str:
    """The stable tag of a command or event Struct (``generic.attack``)."""
    return str(struct_type.__struct_config__.tag)


@dataclass(frozen=True, slots=True)
class HealthField:
    """A field of an event's data that tells a combatant's current or maximum health
    (hit points, hp after, wounds and their limit, a health track, the statblock number
    that gives one away), and which combatant it belongs to.

    ``path`` is the field's name, ``object.field`` for a field of a nested object, or
    ``list[].field`` for a field of each element of a list (``strikes[].target_hp``), or
    ``map{}.field`` for a field of each value of a map (owner ``{}``: the map's key).
    ``owners`` name fields holding the combatant's id, each looked up in the object that
    holds the field first, then in the objects around it outwards; the field is shown
    to a reader who may see any of those combatants' numbers (service/secrecy.py), and
    removed for the others (projections/redaction.py, ``redact_health``)."""

    path: str
    owners: tuple[str, ...]
    field_in: frozenset[str] = frozenset()
    """For a ruling that names what it sets in its ``field``: the field is health only
    when that names one of these (``damage``, not ``xp``); empty for always."""


HEALTH_NAMES = frozenset(
    {"hp", "max_hp", "hp_after", "target_hp", "wounds", "wounds_after", "wound_limit",
     "stress", "stress_after", "stress_limit", "damage_after"}
)  # fmt: skip
"""Field names that tell health in the rulesets' events: the conformance suite requires
each such field of an event to be declared in ``Ruleset.health_fields`` (or listed in
``Ruleset.not_health`` with the reason it is not a combatant's health)."""


class RuleViolation(Exception):
    """A command the rules forbid.  The message is shown to players as is, so it says
    what the rules say, in their words ("Alice already used her Minor action this round")."""

    def __init__(self, reason: str, *, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        """Where the rule comes from: a section of the rules text or a CHECKLIST id."""


def refuse_dice_not_rolled(dice: Dice, command: msgspec.Struct) -> None:
    """The dice rule of every ruleset, applied after ``decide``: manual dice sent with a
    command that rolled nothing are refused (nothing is appended), saying why no die is
    rolled in the words the ruleset gave (``Dice.no_roll``), or, for a command that
    never rolls, naming it.  Faces left over by a command that did roll are kept instead
    (``dice.unused``): a roll inside it may have decided that the next die was not
    needed, though the table threw it with the first."""
    if not isinstance(dice, RollingDice) or (settled := dice.not_rolled()) is None:
        return
    why = settled.why or f"the command {tag_of(type(command))} rolls none"
    raise RuleViolation(
        f"No die is rolled: {why}; send the command without manual dice", rule=settled.rule
    )


@dataclass(frozen=True, slots=True)
class RulesetOption:
    """One documented option: its key, default and why the default was chosen."""

    key: str
    default: Any
    description: str


@dataclass(frozen=True, slots=True)
class Ruleset(Generic[StateT, CommandT, EventT, OptionsT]):
    """Everything the service needs to run one rule system.

    Command and event Structs are tagged unions on the field ``type``, with tags prefixed
    by the ruleset name (``generic.attack``, ``generic.attack_rolled``); the tags are the
    stable names stored in the event table, never class or module names.
    """

    name: str
    title: str
    summary: str
    options_type: type[OptionsT]
    option_notes: tuple[RulesetOption, ...]
    command_types: tuple[type[CommandT], ...]
    event_types: tuple[type[EventT], ...]
    state_type: type[StateT]
    state_schema_version: int
    """Bump when the State Structs change shape: snapshots of other versions are ignored."""
    initial_state: Callable[[OptionsT], StateT]
    decide: Callable[[StateT, CommandT, Dice], Sequence[EventT]]
    """Raises RuleViolation (or DiceError) for an illegal command; returns a tuple of events."""
    evolve: Callable[[StateT, EventT], StateT]
    narrate: Callable[[StateT, EventT], str]
    """One line of the replay log for ``event``, given the state *before* it."""
    round_of: Callable[[StateT], int | None]
    """The current round number of a state, or None before combat starts."""
    event_versions: Mapping[str, int] = field(default_factory=dict)
    """Current schema version per event tag; tags not listed are at version 1."""
    upcasters: Mapping[tuple[str, int], Upcaster] = field(default_factory=dict)
    """(tag, from_version) -> function lifting stored data one version up."""
    acts_for: Callable[[StateT, CommandT], frozenset[str] | None] = gm_only
    """Whose command this is: the ids of the combatants (units, sides) it acts for.  A
    player token may issue it only when bound to every one of them; ``None`` makes the
    command GM-only (adjudication, adding combatants, anything that speaks for the table).
    An empty set means any player of the encounter may issue it."""
    player_commands: tuple[type[CommandT], ...] = ()
    """The command types a player token may ever issue: the only ones ``acts_for`` may
    name combatants for (the engine refuses players every other type before asking it).
    Published by ``GET /rulesets/{name}``, so a client offers a player exactly these."""
    off_sheet: Callable[[StateT, CommandT], str | None] = on_any_sheet
    """Why a player may not issue this command as it is, or None: players act from the
    sheet the GM set (named attacks, checks, weapons); a command with numbers of its own
    (dice, damage, a target) is the GM's, or a request the GM approves."""
    shown_when_secret: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """For every event tag, the data fields a player or spectator sees of the event while
    it is secret (its command made a hidden roll not yet revealed; service/secrecy.py).
    A whitelist: fields not listed are hidden, and ``rolls`` is never listed (the engine
    redacts roll records one by one).  The conformance suite requires every tag."""
    narrate_secret: Callable[[StateT, EventT], str] | None = None
    """The log line players read for a secret event, given the state before it: says
    what happened and to whom, never a number, outcome or order derived from the roll."""
    secret_changes_nothing: Callable[[CommandT], bool] = changes_something
    """From the command alone: True when a secret run of it writes nothing any later
    command reads (a roll or check that only records its dice), so it does not seal
    the GM's later commands nor hold the players' (service/sealing.py).  Only where the
    noninterference test proves it."""
    player_state: Callable[[StateT, Audience], Any] | None = None
    """The state as a player or spectator sees it (a msgspec Struct or plain data): health
    per ``Audience`` (service.secrecy.health_view) and nothing remembered of rolls."""
    health_fields: Mapping[str, tuple[HealthField, ...]] = field(default_factory=dict)
    """For every event tag whose data tells a combatant's health, those fields and whose
    they are: players and spectators see them only for combatants whose numbers they may
    see (docs/secrecy.md, "NPC health").  The conformance suite requires every field of a
    health name (``HEALTH_NAMES``) in any event to be declared here."""
    health_owners: Callable[[StateT, str], tuple[str, ...]] = own_health
    """Whose health a combatant's is, given the state: the ids any of which, bound to a
    player token, makes it a player character's (an Aeonis unit's side, or the unit)."""
    player_characters: Callable[[StateT, frozenset[str]], frozenset[str]] | None = None
    """Given the ids bound to live player tokens, every combatant id that is a player
    character (an Aeonis side's units); None: exactly the bound ids.  Read paths that see
    only event data (events, live, webhooks) use it to apply the same rule as the state."""
    not_health: Mapping[str, str] = field(default_factory=dict)
    """``tag.path`` -> why a field of a health name (``HEALTH_NAMES``) is not the health of
    a combatant (the amount a public roll already shows, a GM's own setting)."""
    combat_facts: Callable[[StateT, EventT], Sequence[CombatFact]] = no_facts
    """What an event means for the combat statistics (service/combat_facts.py), given the
    state before it: attacks with their hit, critical and fumble, damage and healing with
    who dealt them, turns begun.  Events the statistics need not know give ()."""
    examples: tuple[msgspec.Struct, ...] = ()
    """One realistic instance of every command and event type, shown in the OpenAPI
    document and ``GET /rulesets/{name}``; a test checks that none is missing."""
    carry: CarryRules[StateT, CommandT, Any, Any, Any, Any] | None = None
    """What of a character and of the table outlives an encounter into its campaign, and
    how a new encounter starts from it (service/carry_over.py).  Every registered ruleset
    states it (the conformance suite checks); None only for a ruleset under test."""
