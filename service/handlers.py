"""What each command appends: one function per kind, each returning a ``Decision``.

Handlers decide from the encounter as loaded (and its codec); they write nothing.  Most
are pure.  Those that read the store say so by taking the connection: opening a fork
reads its origin, revealing secret rolls reads their epochs' secret seeds, and an undo or
a redo reads the stream's outline, all under the stream's lock where there is one.  Dice
come from the seeds the write path made sure are cached (service/state_cache.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from events.db import Connection, Database
from events.seeds import secret_seeds
from events.store import stream_head
from events.write import NewSeed
from service.authorize import authorize_player
from service.codec import EventCodec
from service.commands import CommandEnvelope, CreatedEncounter
from service.core_events import (
    DiceUnused,
    EncounterCreated,
    EncounterForked,
    NoteAdded,
    RequestAnswered,
    RollsRevealed,
    SeedCommitted,
    SeedRevealed,
)
from service.dice import ManualFaces, RollingDice, ServerFaces
from service.dice.fair import commitment, new_seed
from service.dice.unseeded import UnseededFaces
from service.encounter import Encounter
from service.history import plan_redo, plan_undo
from service.loading import load_at, read_outline
from service.options import check_options
from service.prepare import Decision, Respond
from service.registry import codec_for, get_ruleset
from service.requests import (
    DEFAULT_LIMITS,
    RequestLimits,
    amendment,
    approved_envelope,
    clearance,
    refusal,
    request_made,
)
from service.ruleset import RuleViolation, refuse_dice_not_rolled
from service.sealing import held, next_seal_id, opened_by, sealed, seals
from service.secrecy import NpcHealth
from service.state_cache import Seeds

# -- opening a stream ------------------------------------------------------------------


def created(
    ruleset: str,
    name: str,
    options: dict[str, Any],
    allow_player_dice: bool,
    npc_health: NpcHealth,
) -> EncounterCreated:
    """The first event of a new encounter, its options checked against the ruleset's."""
    typed_options = check_options(get_ruleset(ruleset), options)
    return EncounterCreated(
        name=name,
        ruleset=ruleset,
        options=msgspec.to_builtins(typed_options),
        allow_player_dice=allow_player_dice,
        npc_health=npc_health,
    )


async def forked(
    db: Database,
    origin_id: UUID,
    at_version: int | None,
    name: str | None,
    public_game: dict[str, Any] | None,
) -> EncounterForked:
    """The first event of a fork of ``origin_id`` at ``at_version`` (None: its latest),
    read from the origin (which is only read)."""
    head = await stream_head(db, origin_id)
    version = head.version if at_version is None else at_version
    origin = await load_at(db, origin_id, version)
    codec = codec_for(origin.ruleset)
    first = EncounterForked(
        name=name or f"{origin.name} (fork at version {version})",
        ruleset=origin.ruleset,
        options=origin.options,
        allow_player_dice=origin.allow_player_dice,
        origin_id=origin_id,
        origin_version=version,
        game=msgspec.to_builtins(origin.game),
        rolls_made=origin.dice.rolls_made,
        npc_health=origin.npc_health,
        secret_rolls=origin.secret_rolls if public_game is not None else (),
        public_game=public_game,
    )
    assert codec.ruleset.name == first.ruleset
    return first


def opening(
    first: EncounterCreated | EncounterForked, client_seed: str | None, encounter_id: UUID
) -> tuple[Decision, Respond]:
    """A new stream's events (its first one and the first dice commitment), and its
    answer."""
    seed = new_epoch(1, client_seed or str(encounter_id))
    decision = Decision(events=(first, committed_to(seed)), new_seed=seed)

    def respond(final: Encounter[Any]) -> CreatedEncounter:
        return CreatedEncounter(
            encounter_id=encounter_id,
            ruleset=first.ruleset,
            name=first.name,
            version=final.version,
            dice_commitment=final.dice.commitment,
            client_seed=seed.client_seed,
            forked_from=final.forked_from,
            events=[],
        )

    return decision, respond


# -- commands on an encounter ----------------------------------------------------------


def ruleset_command(
    seeds: Seeds,
    encounter_id: UUID,
    encounter: Encounter[Any],
    codec: EventCodec,
    envelope: CommandEnvelope,
    player: frozenset[str] | None,
    asked_by: str | None = None,
    limits: RequestLimits = DEFAULT_LIMITS,
) -> Decision:
    """A command of the encounter's ruleset, decided by it; ``player`` is what a player
    token (``asked_by``) is bound to (None: the GM).  While secret commands are open a
    player's command is held for the GM within ``limits``, and a GM's is sealed
    (service/sealing.py)."""
    codec.ensure_owns(envelope.command)
    if player is not None:
        authorize_player(codec.ruleset, encounter, envelope, player)
        if encounter.open_seals:
            return Decision(events=(held(encounter, envelope, asked_by, limits),))
    return _decided_command(seeds, encounter_id, encounter, codec, envelope, ())


def _decided_command(
    seeds: Seeds,
    encounter_id: UUID,
    encounter: Encounter[Any],
    codec: EventCodec,
    envelope: CommandEnvelope,
    after: tuple[Any, ...],
) -> Decision:
    """The command's events, then ``after``; in one envelope when it is sealed."""
    sealing = seals(encounter, envelope)
    dice = dice_for(seeds, encounter_id, encounter, envelope, in_envelope=sealing)
    events = decided(codec, encounter, envelope, dice)
    if not sealing:
        return Decision(events=(*events, *after), roll_source=roll_source(dice, envelope))
    # The metadata is public: which source, from the command alone, not whether it rolled.
    source = "manual" if envelope.manual_dice is not None else "server"
    return Decision(events=(sealed(codec, encounter, envelope, events), *after), roll_source=source)


def reveal_seed(
    seeds: Seeds, encounter_id: UUID, encounter: Encounter[Any], next_client_seed: str | None
) -> Decision:
    """Publish the current epoch's seed and commit to a fresh one (a new epoch)."""
    dice = encounter.dice
    seed = seeds.get((encounter_id, dice.epoch))
    secret = seeds.get((encounter_id, -dice.epoch))
    if seed is None:
        raise RuleViolation(
            f"the seed of dice epoch {dice.epoch} did not come with this encounter's import,"
            " so this service cannot publish it"
        )
    fresh = new_epoch(dice.epoch + 1, next_client_seed or dice.client_seed)
    # The secret seed only when no roll drawn from it is still hidden: else it is
    # published with the reveal of the last of them.
    shown = secret.hex() if secret is not None and not dice.secret_server_rolls else None
    revealed = SeedRevealed(epoch=dice.epoch, seed=seed.hex(), secret_seed=shown)
    return Decision(events=(revealed, committed_to(fresh)), new_seed=fresh)


async def reveal_rolls(
    conn: Connection, encounter_id: UUID, encounter: Encounter[Any], roll_ids: Sequence[str]
) -> Decision:
    """Show the table secret GM rolls, with the secret seeds of the epochs whose last
    hidden roll this reveals."""
    secret = encounter.secret_rolls
    legacy = [r for r in roll_ids if not r.startswith("s")]
    if missing := [r for r in legacy if r not in secret]:
        raise _not_secret(missing[0])
    opened = opened_by(encounter, [r for r in roll_ids if r.startswith("s")])
    if opened is None:
        refused = next(
            r for r in roll_ids if r.startswith("s") and opened_by(encounter, [r]) is None
        )
        raise _not_secret(refused)
    roll_ids = [*legacy, *opened]
    shown = frozenset(roll_ids)
    done = [
        epoch for epoch, rolls in encounter.dice.ended_secrets.items() if shown.issuperset(rolls)
    ]
    seeds = await secret_seeds(conn, encounter_id, done) if done else {}
    event = RollsRevealed(
        roll_ids=tuple(dict.fromkeys(roll_ids)),
        secret_seeds={str(epoch): seed.hex() for epoch, seed in seeds.items()},
    )
    return Decision(events=(event,))


def _not_secret(roll_id: str) -> RuleViolation:
    return RuleViolation(
        f"roll {roll_id!r} is not a secret roll still hidden in this encounter"
        " (no such roll, not a secret one, already revealed, or a command sealed only"
        " until the secrets it waits for are revealed)"
    )


def request(
    codec: EventCodec,
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    note: str | None,
    player: frozenset[str] | None,
    asked_by: str | None,
    limits: RequestLimits,
) -> Decision:
    """A player asks the GM to allow a command (service/requests.py)."""
    made = request_made(codec, encounter, envelope, note, player, asked_by=asked_by, limits=limits)
    return Decision(events=(made,))


def amend_request(
    codec: EventCodec,
    encounter: Encounter[Any],
    request_id: str,
    envelope: CommandEnvelope,
    limits: RequestLimits,
) -> Decision:
    """The GM changes a waiting request before answering it."""
    return Decision(events=(amendment(codec, encounter, request_id, envelope, limits),))


def clear_requests(encounter: Encounter[Any], reason: str, asked_by: str | None) -> Decision:
    """The GM refuses every waiting request (of one token, if named) at once."""
    refused = clearance(encounter, reason, asked_by)
    if not refused:
        raise RuleViolation("no request is waiting for the GM's answer")
    return Decision(events=refused)


def answer_request(
    seeds: Seeds,
    encounter_id: UUID,
    encounter: Encounter[Any],
    codec: EventCodec,
    request_id: str,
    refuse_because: str | None,
    manual_dice: list[list[int]] | None,
) -> Decision:
    """The GM approves a request (its command decided now, as the GM's) or refuses it."""
    if refuse_because is not None:
        return Decision(events=(refusal(encounter, request_id, refuse_because),))
    envelope = approved_envelope(codec, encounter, request_id, manual_dice)
    answered = RequestAnswered(request_id=request_id, approved=True)
    return _decided_command(seeds, encounter_id, encounter, codec, envelope, (answered,))


def add_note(note: NoteAdded) -> Decision:
    return Decision(events=(note,))


async def undo(
    conn: Connection,
    encounter_id: UUID,
    steps: int | None,
    to_version: int | None,
    reason: str | None,
) -> Decision:
    """Take back what service/history.py plans from the stream's outline."""
    outline = await read_outline(conn, encounter_id)
    planned = plan_undo(outline, steps=steps, to_version=to_version, reason=reason)
    return Decision(events=(planned,))


async def redo(conn: Connection, encounter_id: UUID, reason: str | None) -> Decision:
    outline = await read_outline(conn, encounter_id)
    return Decision(events=(plan_redo(outline, reason=reason),))


# -- dice ------------------------------------------------------------------------------


def decided(
    codec: EventCodec, encounter: Encounter[Any], envelope: CommandEnvelope, dice: RollingDice
) -> tuple[Any, ...]:
    """The ruleset's events for the command, then the manual faces it did not need; a
    command that rolled nothing refuses manual faces instead."""
    events = tuple(codec.ruleset.decide(encounter.game, envelope.command, dice))
    refuse_dice_not_rolled(dice, envelope.command)
    if unused := dice.unused_records():
        events = (*events, DiceUnused(rolls=unused))
    return events


def roll_source(dice: RollingDice, envelope: CommandEnvelope) -> str | None:
    if not dice.records:
        return None
    return "manual" if envelope.manual_dice is not None else "server"


def dice_for(
    seeds: Seeds,
    encounter_id: UUID,
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    *,
    in_envelope: bool = False,
) -> RollingDice:
    """The command's dice.  A command ``in_envelope`` draws from the secret seed and are
    numbered in its envelope's namespace (``s3.1``): neither the public die index nor the
    public roll ids may count them."""
    dice = encounter.dice
    if envelope.manual_dice is not None:
        faces: ManualFaces | ServerFaces | UnseededFaces = ManualFaces(envelope.manual_dice)
    else:
        secret = (envelope.hidden or in_envelope) and dice.secret_commitment is not None
        seed = seeds.get((encounter_id, -dice.epoch if secret else dice.epoch))
        index = dice.next_secret_index if secret else dice.next_index
        faces = (
            UnseededFaces(dice.epoch)
            if seed is None  # imported from an archive without its seeds
            else ServerFaces(seed, dice.client_seed, dice.epoch, index)
        )
    if in_envelope:
        prefix = f"{next_seal_id(encounter)}."
        return RollingDice(faces, next_roll_number=1, hidden=True, id_prefix=prefix)
    return RollingDice(faces, next_roll_number=dice.rolls_made + 1, hidden=envelope.hidden)


def new_epoch(epoch: int, client_seed: str) -> NewSeed:
    """Fresh seeds for a dice epoch, with the commitments published for them: one for
    every roll, one for secret rolls (stored under epoch ``-epoch``)."""
    seed, secret = new_seed(), new_seed()
    return NewSeed(epoch, seed, client_seed, commitment(seed), secret, commitment(secret))


def committed_to(seed: NewSeed) -> SeedCommitted:
    return SeedCommitted(
        epoch=seed.epoch,
        commitment=seed.commitment,
        client_seed=seed.client_seed,
        secret_commitment=seed.secret_commitment,
    )
