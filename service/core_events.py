"""Events every encounter has, whatever its ruleset: creation or fork, the dice
commitments, and the undo/redo marks of design section 4.

They use the ``encounter.``, ``dice.`` and ``history.`` tag prefixes, which no ruleset
may use.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from service.dice.model import RollRecord
from service.secrecy import NpcHealth


class EncounterCreated(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.created"
):
    """The first event of every stream: which rules, which options, what it is called."""

    name: str
    ruleset: str
    options: dict[str, Any]
    allow_player_dice: bool = False
    """Whether players may enter physical dice for their own commands."""
    npc_health: NpcHealth = "descriptor"
    """How players see the health of combatants no player controls (service/secrecy.py)."""
    campaign: UUID | None = None
    """The campaign the encounter was started from (service/campaigns/), whose party it
    carries over to when it ends; None for an encounter of its own."""


class SeedCommitted(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="dice.seed_committed"
):
    """The server's public promise for a fairness epoch: sha256 of a secret seed.

    Server die k of this epoch is HMAC-SHA256(seed, f"{client_seed}:{k}") mapped to a
    face without modulo bias (service/dice/fair.py); nobody can check it until the seed
    is revealed, and nobody, the server included, can change it after this event.
    """

    epoch: int
    commitment: str
    client_seed: str
    secret_commitment: str | None = None
    """sha256 of the epoch's second seed, from which secret (hidden) server rolls are
    drawn, so that revealing ``commitment``'s seed reveals nothing secret.  None in
    encounters older than it: their hidden rolls were drawn from the one seed."""


class SeedRevealed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="dice.seed_revealed"
):
    """The GM published the seed of an epoch: every roll of it can now be recomputed."""

    epoch: int
    seed: str
    """The seed as lowercase hex."""
    secret_seed: str | None = None
    """The epoch's secret seed, published with it when none of its secret rolls is still
    hidden; otherwise with the reveal of the last of them (RollsRevealed)."""


class EncounterForked(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.forked"
):
    """The first event of a fork: a what-if branch starting from another encounter's
    state at one version.  The state travels in the event, so the fork's stream is
    complete on its own and the origin is never read again to fold it."""

    name: str
    ruleset: str
    options: dict[str, Any]
    allow_player_dice: bool = False
    origin_id: UUID
    origin_version: int
    game: dict[str, Any]
    """The ruleset state of the origin at ``origin_version``."""
    rolls_made: int
    """Rolls the origin had made by then, so the fork's roll ids continue after them."""
    npc_health: NpcHealth = "descriptor"
    secret_rolls: tuple[str, ...] = ()
    """The origin's secret rolls not revealed by ``origin_version``: ``game`` derives from
    them, so players of the fork see ``public_game`` until the GM reveals them here."""
    public_game: dict[str, Any] | None = None
    """The origin's state at ``origin_version`` without the commands of ``secret_rolls``
    (service/loading.py, load_public); set exactly when ``secret_rolls`` is."""


class RollsRevealed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="dice.rolls_revealed"
):
    """The GM showed the table secret rolls: from here on players see their results."""

    roll_ids: tuple[str, ...]
    secret_seeds: dict[str, str] = {}
    """Secret seeds (hex, by epoch number written out) of ended epochs whose last hidden
    roll this reveals: from now on those rolls can be checked like any other."""


class NoteAdded(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.note_added"
):
    """A GM's note in the record: a ruling's background, a reminder, a secret.  A
    ``gm_only`` note is shown to players as "the GM makes a private note", nothing more."""

    text: str
    gm_only: bool = False


class RequestMade(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.request_made"
):
    """A player asks the GM to allow a command off their sheet (their own numbers, a
    table command): it waits, in the state's ``requests``, until the GM answers."""

    request_id: str
    command: dict[str, Any]
    """The command as the player sent it (its JSON, with its ``type``)."""
    manual_dice: list[list[int]] | None = None
    note: str | None = None
    """Why, in the player's words."""
    asked_by: str | None = None
    """The asking token's id: how many requests each token has waiting is capped."""

    held_because: str | None = None
    """Set when the service held a player's command for the GM because secret commands
    were open (service/sealing.py): why, naming them."""


class RequestAmended(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.request_amended"
):
    """The GM changes a waiting request before answering it: approving it then decides
    this command with these dice, nothing of the version it replaces."""

    request_id: str
    command: dict[str, Any]
    manual_dice: list[list[int]] | None = None


class RequestAnswered(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.request_answered"
):
    """The GM's answer.  Approved: the command's own events come first, in the same
    command, decided as if the GM had issued it.  Refused: nothing else happens."""

    request_id: str
    approved: bool
    reason: str | None = None


class DiceUnused(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="dice.unused"):
    """Manual faces thrown at the table that the command turned out not to need (the
    damage die of an attack that missed): recorded, one roll record per list, with
    outcome ``unused``, so the ledger shows every die the table threw.  The last event
    of its command's own events; secret when the command is."""

    rolls: tuple[RollRecord, ...]


class RolledCopy(msgspec.Struct, frozen=True, kw_only=True):
    """A monster copy whose hit points were rolled: its combatant id, name and the
    hit points the roll gave it."""

    id: str
    name: str
    hit_points: int


class HitPointsRolled(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.hit_points_rolled"
):
    """Hit points rolled for monster copies of a campaign's statblocks as the encounter
    opens, on its own fair dice (docs/campaigns.md).  Where the table's ``npc_health``
    shows monsters' numbers the rolls are public; elsewhere they are secret rolls drawn
    from the epoch's secret seed, and both the rolls and the hit points are health: the
    chain covers salted commitments to them (service/health_seal.py), players read the
    rolls redacted until the GM reveals them and never read the hit points.  The events
    that bring the copies in follow it, as any other's."""

    copies: tuple[RolledCopy, ...]
    rolls: tuple[RollRecord, ...]


class Sealed(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.sealed"):
    """A secret command's one stored event, whatever it decided (docs/secrecy.md).

    Players see its public form: who issued what (``command_type``, ``shown``), which
    secrets it waits for and the ``commitment``; the chain covers exactly that
    (events/hashing.py).  ``salt`` and ``events`` (the inner events it decided, as
    stored: type, type_version, data) reach players only when it opens, so neither the
    number of events or rolls nor any hash depends on the secret.  The fold evolves the
    inner events in order; the public fold skips the envelope until it opens."""

    seal_id: str
    """``s1``, ``s2`` ...: the envelope's name, and the namespace of its rolls (``s3.1``)."""
    command_type: str
    shown: dict[str, Any] = {}
    """The fields of the command's first event its ruleset shows of a secret one."""
    hidden: bool
    """The GM rolled in secret (its own secret); False: a GM command sealed only because
    it reads what open secrets may have changed."""
    taints: bool = True
    """While unrevealed, later commands may read what it changed (the ruleset's
    ``secret_changes_nothing`` says, from the command alone, when not)."""
    waits_for: tuple[str, ...]
    """The seal ids that must all be revealed before it opens (its own first if hidden)."""
    commitment: str
    salt: str
    """Hex of 32 random bytes: what makes the commitment hiding."""
    events: tuple[dict[str, Any], ...]
    inner: tuple[Any, ...] = ()
    """The typed inner events, for the fold; never stored (the codec fills it in)."""

    @property
    def rolls(self) -> tuple[RollRecord, ...]:
        """Every roll record of the inner events (the ledger, fairness)."""
        return tuple(r for e in self.inner for r in getattr(e, "rolls", ()))


class CommandSpan(msgspec.Struct, frozen=True, kw_only=True):
    """The events one command appended: versions ``first`` to ``last``."""

    first: int
    last: int
    command_type: str

    def versions(self) -> range:
        return range(self.first, self.last + 1)


class Undone(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="history.undone"):
    """Commands taken back.  Their events stay in the stream; folds skip them from here on
    and the log and roll ledger show them struck through."""

    commands: tuple[CommandSpan, ...]
    reason: str | None = None


class Redone(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="history.redone"):
    """What the undo at ``undo_version`` took back is in effect again, with the same
    events and the same dice (nothing is re-rolled)."""

    undo_version: int
    commands: tuple[CommandSpan, ...]
    reason: str | None = None


HistoryEvent = Undone | Redone
CORE_EVENT_TYPES: tuple[type[msgspec.Struct], ...] = (
    EncounterCreated,
    EncounterForked,
    SeedCommitted,
    SeedRevealed,
    RollsRevealed,
    NoteAdded,
    RequestMade,
    RequestAmended,
    RequestAnswered,
    Undone,
    Redone,
    DiceUnused,
    Sealed,
    HitPointsRolled,
)
CORE_TAG_PREFIXES = ("encounter.", "dice.", "history.")
